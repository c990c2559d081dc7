import type { Prisma, PrismaClient, Role, UserState } from '../generated/prisma/client';
import { userInclude, type UserRow } from './agents';
import type { WorkspaceScope } from './workspace';

type Tx = Prisma.TransactionClient;
type Client = Pick<Tx, 'user'>;

/** A user named by their integer id or their uuid. */
export type UserKey = { id: number } | { uuid: string };

/** The tenant's live (not removed) user, with what presenting them needs; null when none. */
export function findLiveUser(db: Client, tenantId: string, key: UserKey): Promise<UserRow | null> {
  return db.user.findFirst({ where: { ...key, tenantId, deletedAt: null }, include: userInclude });
}

/** The workspace's live users by username, optionally only those holding a role. */
export function listWorkspaceUsers(db: Client, ws: WorkspaceScope, role?: Role): Promise<UserRow[]> {
  return db.user.findMany({
    where: { tenantId: ws.tenantId, workspaceId: ws.workspaceId, deletedAt: null, ...(role ? { roles: { has: role } } : {}) },
    include: userInclude,
    orderBy: { username: 'asc' },
  });
}

/** Sets a user's own state and pause (each when given). */
export function setUserPresence(
  db: Client,
  tenantId: string,
  userId: number,
  presence: { currentPauseId?: string | null; state?: UserState },
): Promise<UserRow> {
  return db.user.update({ where: { id: userId, tenantId }, data: presence, include: userInclude });
}

export async function setUserPasswordHash(db: Client, tenantId: string, userId: number, passwordHash: string): Promise<void> {
  await db.user.update({ where: { id: userId, tenantId }, data: { passwordHash } });
}

/** The tenant's users, live or removed, holding this email (other than `exceptUserId`). */
export function usersHoldingEmail(
  db: Client,
  tenantId: string,
  email: string,
  exceptUserId?: number,
): Promise<{ id: number; deletedAt: Date | null }[]> {
  return db.user.findMany({
    where: { tenantId, email, ...(exceptUserId ? { NOT: { id: exceptUserId } } : {}) },
    select: { id: true, deletedAt: true },
  });
}

/** A removed user gives their email back ((tenant, email) is unique): it becomes removed-{id}-{email}. */
export async function releaseRemovedUserEmail(db: Client, tenantId: string, userId: number, email: string): Promise<void> {
  await db.user.update({ where: { id: userId, tenantId }, data: { email: `removed-${userId}-${email}`.slice(0, 254) } });
}

export function insertUser(
  db: Client,
  ws: WorkspaceScope,
  user: { username: string; email: string; passwordHash: string; roles: Role[] },
): Promise<UserRow> {
  return db.user.create({ data: { tenantId: ws.tenantId, workspaceId: ws.workspaceId, ...user }, include: userInclude });
}

/** Changes a user's name, email and roles (each when given). */
export function updateUserProfile(
  db: Client,
  tenantId: string,
  userId: number,
  changes: { username?: string; email?: string; roles?: Role[] },
): Promise<UserRow> {
  return db.user.update({ where: { id: userId, tenantId }, data: changes, include: userInclude });
}

/** Removes a user (softly: their history stays); the database ends their sessions with it. */
export async function softDeleteUser(db: Client, tenantId: string, userId: number): Promise<void> {
  await db.user.update({ where: { id: userId, tenantId }, data: { deletedAt: new Date() } });
}

/** The sectors a user belongs to, by id. */
export async function userSectorIds(db: Pick<Tx, 'userSector'>, tenantId: string, userId: number): Promise<string[]> {
  const rows = await db.userSector.findMany({ where: { tenantId, userId }, select: { sectorId: true }, orderBy: { sectorId: 'asc' } });
  return rows.map((r) => r.sectorId);
}

/** Replaces the sectors a user belongs to, in one transaction. */
export async function replaceUserSectors(
  db: Pick<PrismaClient, '$transaction' | 'userSector'>,
  tenantId: string,
  userId: number,
  sectorIds: readonly string[],
): Promise<void> {
  await db.$transaction([
    db.userSector.deleteMany({ where: { tenantId, userId } }),
    db.userSector.createMany({ data: sectorIds.map((sectorId) => ({ tenantId, userId, sectorId })) }),
  ]);
}

/** One line of a user's sign-in history. */
export async function recordLoginEvent(
  db: Pick<Tx, 'loginHistory'>,
  entry: { tenantId: string; userId: number; event: string; ip?: string | null; userAgent?: string | null },
): Promise<void> {
  await db.loginHistory.create({ data: entry });
}

/** Whether the tenant is the platform's own. */
export async function isPlatformTenant(db: Pick<Tx, 'tenant'>, tenantId: string): Promise<boolean> {
  return (await db.tenant.findUnique({ where: { id: tenantId }, select: { isPlatform: true } }))?.isPlatform === true;
}
