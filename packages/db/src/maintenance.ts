import type { Prisma } from '../generated/prisma/client';
import type { Db } from './client';

/** Users still marked logged in although none of their sessions is alive (unrevoked and unexpired). */
export function noLiveSessionWhere(now = new Date()): Prisma.UserWhereInput {
  return { isLogged: true, sessions: { none: { revokedAt: null, expiresAt: { gt: now } } } };
}

/** Deletes the sessions that expired before `cutoff`; how many. */
export async function deleteSessionsExpiredBefore(db: Db, cutoff: Date): Promise<number> {
  return (await db.userSession.deleteMany({ where: { expiresAt: { lt: cutoff } } })).count;
}

/** Up to `limit` users logged in without a live session, to be signed off. */
export async function usersWithoutLiveSession(
  db: Db,
  where: Prisma.UserWhereInput,
  limit = 1000,
): Promise<{ id: number; tenantId: string }[]> {
  return db.user.findMany({ where, select: { id: true, tenantId: true }, take: limit });
}

/** Users not logged in who still hold active inbound chats (a sign-off that died before returning them). */
export async function signedOffUsersHoldingChats(db: Db, limit = 1000): Promise<{ id: number; tenantId: string }[]> {
  return db.$queryRaw<{ id: number; tenantId: string }[]>`
    SELECT u.id, u."tenantId"::text AS "tenantId" FROM "User" u
    WHERE NOT u."isLogged" AND EXISTS (
      SELECT 1 FROM "Conversation" c
      WHERE c."tenantId" = u."tenantId" AND c."userId" = u.id AND c.state = 'answered'::"ConversationState" AND c.type = 'inbound')
    LIMIT ${limit}`;
}

/** Deletes outbox rows dispatched before `cutoff` (undispatched rows are never touched); how many. */
export async function pruneDispatchedOutbox(db: Db, cutoff: Date): Promise<number> {
  return (await db.outboxJob.deleteMany({ where: { dispatchedAt: { lt: cutoff } } })).count;
}
