import type { Prisma, Role, User } from '../generated/prisma/client';
import { userInclude, type UserRow } from './agents';
import type { Db } from './client';

type Tx = Prisma.TransactionClient;

/**
 * Locks a user's row for the rest of the transaction, so a role change committing meanwhile is
 * either read after it or waits and then ends the session being created (trigger
 * User_sessions_follow_user).
 */
export async function lockUserRow(tx: Tx, userId: number): Promise<void> {
  await tx.$queryRaw`SELECT id FROM "User" WHERE id = ${userId} FOR UPDATE`;
}

/**
 * Names the session making this transaction's user writes: the trigger that ends a user's sessions
 * when their roles change keeps this one (it takes the new roles instead).
 */
export async function setActingSession(tx: Tx, sessionId: string): Promise<void> {
  await tx.$queryRaw`SELECT set_config('atende.acting_session', ${sessionId}, true)`;
}

/** The ids of a user's sessions not revoked. */
export async function liveSessionIds(tx: Tx, userId: number): Promise<string[]> {
  return (await tx.userSession.findMany({ where: { userId, revokedAt: null }, select: { id: true } })).map((s) => s.id);
}

/** What a request's session token is checked against: the session, its user's state and the tenant's config. */
export interface SessionHolderRow {
  id: string;
  tenantId: string;
  roles: Role[];
  expiresAt: Date;
  revokedAt: Date | null;
  userId: number;
  userUuid: string;
  workspaceId: string;
  deletedAt: Date | null;
  config: unknown;
}

/** The session and who holds it, or null; runs on every request, so one indexed join in plain SQL rather than three ORM queries. */
export async function sessionHolder(db: Pick<Tx, '$queryRaw'>, sessionId: string): Promise<SessionHolderRow | null> {
  const [row] = await db.$queryRaw<SessionHolderRow[]>`SELECT s.id, s."tenantId", s.roles::text[] AS roles, s."expiresAt", s."revokedAt",
           u.id AS "userId", u.uuid::text AS "userUuid", u."workspaceId", u."deletedAt", t.config
    FROM "UserSession" s JOIN "User" u ON u.id = s."userId" JOIN "Tenant" t ON t.id = u."tenantId"
    WHERE s.id = ${sessionId}::uuid`;
  return row ?? null;
}

/** The live users of any tenant with this email, oldest first, at most 10: the password decides which account signs in. */
export function signInCandidates(db: Pick<Tx, 'user'>, email: string): Promise<User[]> {
  return db.user.findMany({ where: { email, deletedAt: null }, orderBy: { id: 'asc' }, take: 10 });
}

/** How many live users of any tenant have this email. */
export function countLiveUsersWithEmail(db: Pick<Tx, 'user'>, email: string): Promise<number> {
  return db.user.count({ where: { email, deletedAt: null } });
}

/** The live accounts of any tenant with this email. */
export function liveAccountsWithEmail(db: Pick<Tx, 'user'>, email: string): Promise<{ id: number; tenantId: string }[]> {
  return db.user.findMany({ where: { email, deletedAt: null }, select: { id: true, tenantId: true } });
}

/** Several lines of sign-in history at once. */
export async function recordLoginEvents(
  db: Pick<Tx, 'loginHistory'>,
  entries: readonly { tenantId: string; userId: number; event: string; ip?: string | null; userAgent?: string | null }[],
): Promise<void> {
  await db.loginHistory.createMany({ data: [...entries] });
}

/** A user of any tenant with their tenant, removed or not, or null. */
export function userWithTenant(db: Pick<Tx, 'user'>, userId: number): Promise<Prisma.UserGetPayload<{ include: { tenant: true } }> | null> {
  return db.user.findUnique({ where: { id: userId }, include: { tenant: true } });
}

/** The tenant's live user with this uuid, or null. */
export function liveUserByUuid(db: Pick<Tx, 'user'>, tenantId: string, uuid: string): Promise<User | null> {
  return db.user.findFirst({ where: { uuid, tenantId, deletedAt: null } });
}

/**
 * Opens a session for a user, with the roles they have now, records the sign-in and marks them logged
 * in (online, or paused while a pause is set). The user row is locked first: a role change committing
 * meanwhile is read here, or waits and then ends this session too (trigger User_sessions_follow_user),
 * never leaving it the old roles.
 */
export function openUserSession(
  db: Db,
  s: { sessionId: string; userId: number; expiresAt: Date; ip: string; userAgent: string | null },
): Promise<UserRow> {
  return db.$transaction(async (tx) => {
    await lockUserRow(tx, s.userId);
    const u = await tx.user.findUniqueOrThrow({ where: { id: s.userId } });
    await tx.userSession.create({
      data: {
        id: s.sessionId,
        tenantId: u.tenantId,
        userId: u.id,
        roles: u.roles,
        expiresAt: s.expiresAt,
        ip: s.ip,
        userAgent: s.userAgent,
      },
    });
    await tx.loginHistory.create({ data: { tenantId: u.tenantId, userId: u.id, event: 'login', ip: s.ip, userAgent: s.userAgent } });
    return tx.user.update({
      where: { id: u.id },
      data: { isLogged: true, loggedOffBy: null, loggedAt: new Date(), state: u.currentPauseId ? 'paused' : 'online' },
      include: userInclude,
    });
  });
}

/** How many of a user's sessions are neither revoked nor expired. */
export function countLiveSessions(db: Pick<Tx, 'userSession'>, userId: number): Promise<number> {
  return db.userSession.count({ where: { userId, revokedAt: null, expiresAt: { gt: new Date() } } });
}

/** Revokes the sessions not revoked yet that match (one session, a user's, all but one); their ids. */
export async function revokeUserSessions(
  db: Pick<Tx, 'userSession'>,
  where: { id?: string; userId?: number; notId?: string },
  reason: string,
): Promise<string[]> {
  const revoked = await db.userSession.updateManyAndReturn({
    where: {
      revokedAt: null,
      ...(where.id ? { id: where.id } : {}),
      ...(where.userId !== undefined ? { userId: where.userId } : {}),
      ...(where.notId ? { NOT: { id: where.notId } } : {}),
    },
    data: { revokedAt: new Date(), revokedReason: reason },
    select: { id: true },
  });
  return revoked.map((s) => s.id);
}

/** Whether a session is still alive: not revoked and not expired. */
export async function isSessionLive(db: Pick<Tx, 'userSession'>, sessionId: string): Promise<boolean> {
  return (await db.userSession.count({ where: { id: sessionId, revokedAt: null, expiresAt: { gt: new Date() } } })) > 0;
}
