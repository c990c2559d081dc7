import type { Role, User } from '@atende/contract';

// The locally kept user without the contract's runtime (zod): the sign-in page reads and writes it
// before the rest of the app is loaded.

/** The locally kept user data, under one fixed key. */
export const LOCAL_USER_KEY = 'atende:user';

export interface LocalUser {
  id: number;
  uuid: string;
  username: string;
  roles: Role[];
  workspace: string;
}

export function saveLocalUser(user: User): void {
  const local: LocalUser = {
    id: user.id,
    uuid: user.uuid,
    username: user.username,
    roles: user.roles.map((r) => r.name),
    workspace: user.workspace.name,
  };
  localStorage.setItem(LOCAL_USER_KEY, JSON.stringify(local));
}

const isLocalUser = (value: unknown): value is LocalUser => {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'number' &&
    typeof v.uuid === 'string' &&
    typeof v.username === 'string' &&
    typeof v.workspace === 'string' &&
    Array.isArray(v.roles) &&
    v.roles.every((role) => typeof role === 'string')
  );
};

/** The kept user, or null when there is none or it is not in the shape this build writes. */
export function readLocalUser(): LocalUser | null {
  try {
    const raw = localStorage.getItem(LOCAL_USER_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    return isLocalUser(parsed) ? parsed : null;
  } catch {
    return null;
  }
}
