import type { Role } from '@atende/contract';
import { hasAnyRole, homePathFor } from '@atende/core';

/** Roles that open some part of /admin: the area itself (supervisor and above) or one section of it. */
const ADMIN_AREA_ROLES: readonly Role[] = ['supervisor', 'tenant_admin', 'campaign_manager'];

/**
 * Where a signed-in user belongs: /app for agents, otherwise /admin; null for a
 * user no screen is meant for (they get the no-access page instead of a redirect loop).
 */
export function homeFor(roles: readonly Role[]): '/app' | '/admin' | null {
  if (roles.includes('agent')) return homePathFor(roles);
  return hasAnyRole(roles, ADMIN_AREA_ROLES) ? '/admin' : null;
}

/** Only same-origin paths: ?page= of /ssoload must not send the user to another site. */
export const safeInternalPath = (page: string | null): string | null =>
  page && page.startsWith('/') && !page.startsWith('//') && !page.includes('\\') ? page : null;
