import type { Role, User as UserDto } from '@atende/contract';
import type { UserRow } from '@atende/db';

export { userInclude, type UserRow } from '@atende/db';

export function presentUser(u: UserRow): UserDto {
  return {
    id: u.id,
    uuid: u.uuid,
    username: u.username,
    email: u.email,
    roles: (u.roles as Role[]).map((name) => ({ name })),
    workspace: { uuid: u.workspace.id, name: u.workspace.name, tenant: { uuid: u.workspace.tenant.id, name: u.workspace.tenant.name } },
    is_logged: u.isLogged,
    logged_off_by: u.loggedOffBy,
    state: u.state,
    // A pause deleted while the agent is on it still names the state they are in, so they can leave it.
    current_pause: u.currentPause ? { uuid: u.currentPause.id, description: u.currentPause.description } : null,
    logged_at: u.loggedAt ? u.loggedAt.toISOString() : null,
  };
}
