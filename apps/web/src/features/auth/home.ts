import type { Role } from '@atende/contract';
import { canUseAdminArea, hasAnyRole, homePathFor } from '@atende/core';

/** Where a signed-in user belongs (spec 000 §2), also for roles outside both panels. */
export function homeFor(roles: readonly Role[]): string {
  if (roles.includes('agent') || canUseAdminArea(roles)) return homePathFor(roles);
  if (hasAnyRole(roles, ['tenant_admin'])) return '/admin/tenants';
  if (hasAnyRole(roles, ['campaign_manager'])) return '/admin/campaigns';
  return '/login';
}
