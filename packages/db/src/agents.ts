import type { Prisma } from '../generated/prisma/client';
import type { Db } from './client';
import type { Role } from '../generated/prisma/enums';

type Tx = Prisma.TransactionClient;

/** What every user read carries to be presented: its workspace (with the tenant) and its pause. */
export const userInclude = {
  workspace: { include: { tenant: true } },
  currentPause: true,
} as const satisfies Prisma.UserInclude;
export type UserRow = Prisma.UserGetPayload<{ include: typeof userInclude }>;

/** A user with what presenting them needs; throws when the id does not exist. */
export async function userRowById(db: Db | Tx, userId: number): Promise<UserRow> {
  return db.user.findUniqueOrThrow({ where: { id: userId }, include: userInclude });
}

/** Who an agent is, and the description of their current pause, as history entries name them. */
export async function agentWithPause(tx: Tx, userId: number) {
  return tx.user.findUnique({
    where: { id: userId },
    select: { id: true, uuid: true, email: true, username: true, currentPause: { select: { description: true } } },
  });
}

/** Locks an agent's row and says whether they can take work now (logged in, online, not paused). */
export async function lockAgentAvailability(tx: Tx, tenantId: string, userId: number) {
  const [agent] = await tx.$queryRaw<{ id: number; uuid: string; email: string; username: string; online: boolean }[]>`
    SELECT id, uuid, email, username, ("isLogged" AND state = 'online'::"UserState" AND "currentPauseId" IS NULL) AS online
    FROM "User" WHERE id = ${userId} AND "tenantId" = ${tenantId}::uuid AND "deletedAt" IS NULL FOR UPDATE`;
  return agent ?? null;
}

/** The workspace of a user, or null when the user does not exist. */
export async function workspaceOfUser(db: Db, userId: number): Promise<string | null> {
  return (await db.user.findUnique({ where: { id: userId }, select: { workspaceId: true } }))?.workspaceId ?? null;
}

/** Marks a user signed off (offline, not logged) by `by`, only while `onlyIf` still matches; whether it did. */
export async function markSignedOff(
  db: Db,
  tenantId: string,
  userId: number,
  by: 'self' | 'supervisor' | 'system',
  onlyIf: Prisma.UserWhereInput = {},
): Promise<boolean> {
  const { count } = await db.user.updateMany({
    where: { ...onlyIf, id: userId, tenantId },
    data: { isLogged: false, loggedOffBy: by, state: 'offline' },
  });
  return count > 0;
}

/**
 * Marks a signed-off user logged in again, online (or paused while a pause is set). False when
 * they were already logged in: one indexed update that changes nothing.
 */
export async function markResumed(db: Db, tenantId: string, userId: number): Promise<boolean> {
  const changed = await db.$executeRaw`
    UPDATE "User" SET "isLogged" = true, "loggedOffBy" = NULL, "loggedAt" = now(), "updatedAt" = now(),
      state = (CASE WHEN "currentPauseId" IS NULL THEN 'online' ELSE 'paused' END)::"UserState"
    WHERE id = ${userId} AND "tenantId" = ${tenantId}::uuid AND NOT "isLogged" AND "deletedAt" IS NULL`;
  return changed > 0;
}

/** The sectors an agent works in (none: every sector). */
export async function agentSectorIds(tx: Tx, userId: number): Promise<string[]> {
  const rows = await tx.userSector.findMany({ where: { userId }, select: { sectorId: true } });
  return rows.map((r) => r.sectorId);
}

/** Locks an agent's row for an accept (one at a time per agent, so capacity holds) and reads their state. */
export async function lockAgentForAccept(tx: Tx, userId: number) {
  const [agent] = await tx.$queryRaw<
    { id: number; uuid: string; email: string; username: string; state: string; currentPauseId: string | null }[]
  >`
    SELECT id, uuid, email, username, state::text AS state, "currentPauseId" FROM "User" WHERE id = ${userId} FOR UPDATE`;
  return agent ?? null;
}

/** The signed-in agents of a workspace, each with their state and sectors (none: they serve every sector). */
export function signedInAgentsWithSectors(
  db: Pick<Tx, '$queryRaw'>,
  tenantId: string,
  workspaceId: string,
): Promise<{ state: 'online' | 'paused' | 'offline'; sectors: string[] }[]> {
  return db.$queryRaw<{ state: 'online' | 'paused' | 'offline'; sectors: string[] }[]>`
    SELECT u.state, COALESCE(array_agg(us."sectorId"::text) FILTER (WHERE us."sectorId" IS NOT NULL), '{}') AS sectors
    FROM "User" u LEFT JOIN "UserSector" us ON us."userId" = u.id
    WHERE u."tenantId" = ${tenantId}::uuid AND u."workspaceId" = ${workspaceId}::uuid AND u."deletedAt" IS NULL AND u."isLogged"
      AND 'agent' = ANY(u.roles::text[])
    GROUP BY u.id, u.state`;
}

/** The tenant of a user, if the user exists. */
export async function tenantOfUser(db: Db, userId: number): Promise<string | null> {
  return (await db.user.findUnique({ where: { id: userId }, select: { tenantId: true } }))?.tenantId ?? null;
}

/** A user's roles as stored now, or null when the user is gone or deleted. */
export async function currentRoles(db: Db, userId: number): Promise<Role[] | null> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { roles: true, deletedAt: true } });
  return user && !user.deletedAt ? user.roles : null;
}
