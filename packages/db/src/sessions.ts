import type { Prisma } from '../generated/prisma/client';

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
