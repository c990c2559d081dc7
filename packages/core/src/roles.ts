import type { Role } from '@atende/contract';

/** The roles each role covers. admin and owner cover everything. */
const COVERS: Record<Role, readonly Role[]> = {
  admin: ['admin', 'owner', 'manager', 'campaign_manager', 'supervisor', 'agent', 'tenant_admin'],
  owner: ['admin', 'owner', 'manager', 'campaign_manager', 'supervisor', 'agent', 'tenant_admin'],
  manager: ['agent', 'campaign_manager', 'supervisor', 'manager'],
  supervisor: ['agent', 'supervisor'],
  campaign_manager: ['campaign_manager'],
  agent: ['agent'],
  tenant_admin: ['tenant_admin'],
};

/** Whether a user holding `userRoles` passes a check that requires `required`. */
export function roleCovers(userRoles: readonly Role[], required: Role): boolean {
  return userRoles.some((role) => COVERS[role].includes(required));
}

/** Whether the user passes a check that accepts any of `required`. */
export function hasAnyRole(userRoles: readonly Role[], required: readonly Role[]): boolean {
  return required.some((r) => roleCovers(userRoles, r));
}

/** The privileged roles list. */
export const PRIVILEGED_ROLES: readonly Role[] = ['supervisor', 'admin', 'owner', 'manager'];
export const isPrivileged = (roles: readonly Role[]): boolean => roles.some((r) => PRIVILEGED_ROLES.includes(r));

/** Who may open /admin (supervisor, manager, admin; owner covers admin). */
export const canUseAdminArea = (roles: readonly Role[]): boolean => hasAnyRole(roles, ['supervisor']);
/** Who may open /app: the agent role itself (logged users without it go to /admin). */
export const isAgent = (roles: readonly Role[]): boolean => roles.includes('agent');

export const ROLE_LABELS: Partial<Record<Role, string>> = {
  admin: 'Admin',
  manager: 'Manager',
  campaign_manager: 'Campaign Manager',
  supervisor: 'Supervisor',
  agent: 'Agent',
  owner: 'Owner',
  tenant_admin: 'Tenant Admin',
};

/**
 * The agent's screen (app, the conversation list): the api sends it the page that
 * preloads its code, and the web app asks for its code and its first data at start-up.
 */
export const isAgentScreenPath = (pathname: string): boolean => /^\/app\/?$/.test(pathname);

/** Where a user lands after signing in. */
export function homePathFor(roles: readonly Role[]): '/app' | '/admin' {
  return isAgent(roles) ? '/app' : '/admin';
}
