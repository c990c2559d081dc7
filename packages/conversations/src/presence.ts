import { rooms } from '@atende/contract';
import type { Prisma } from '@atende/db';
import type { ConversationDeps } from './deps';
import { inTransaction, type Effects, type Tx } from './engine';
import { presentUser, userInclude, type UserRow } from './present-user';
import { assignTo, distribute } from './queue';

export type UserRef = { id: number; uuid: string; email: string; username: string };
export const refOf = (u: UserRef) => ({ id: u.id, uuid: u.uuid, username: u.username, email: u.email });

/** Why a conversation re-entered the queue, as its enter-queue history entry says. */
export type EnterQueueReason = 'pause' | 'logoff' | 'update-conversation' | 'transferring-conversation' | 'custom_action';

/** Puts a conversation back in its sector's queue (enter-queue with its reason). */
export async function returnToQueue(
  tx: Tx,
  effects: Effects,
  conv: Prisma.ConversationGetPayload<object>,
  reason: EnterQueueReason,
  by: UserRef | null,
  extra: Prisma.InputJsonObject = {},
): Promise<void> {
  await tx.conversation.update({ where: { id: conv.id }, data: { state: 'waiting', userId: null, timeJoin: new Date() } });
  await tx.conversationEvent.create({
    data: { tenantId: conv.tenantId, conversationId: conv.id, type: 'enter-queue', detail: { ...extra, event: reason, ...(by ? { done_by_user: refOf(by) } : {}) } },
  });
  effects.former(conv.id, conv.userId);
  effects.conversation(conv.id);
  effects.queueChanged(conv.tenantId, conv.workspaceId);
}

/** Runs distribution for every workspace whose queue changed (round_robin and fifo; on_demand does nothing). */
export async function redistribute(deps: ConversationDeps, effects: Effects): Promise<void> {
  for (const [workspaceId, tenantId] of effects.distribute) {
    // The caller's change is committed; distribution runs again on the next queue change if this one fails.
    await distribute(deps, tenantId, workspaceId).catch((error: unknown) => deps.log.error({ err: error, workspaceId }, 'distribution failed'));
  }
}

/**
 * Returns every active chat of an agent to the queue (pause with back_to_queue, logout, forced
 * offline, sessions expired), announces it and redistributes. The same call from the api and the worker.
 */
export async function returnAgentChats(deps: ConversationDeps, tenantId: string, userId: number, reason: 'pause' | 'logoff'): Promise<number> {
  const { result, effects } = await inTransaction(deps, async (tx, effects) => {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM "Conversation" WHERE "tenantId" = ${tenantId}::uuid AND "userId" = ${userId} AND type = 'inbound' AND state = 'answered'::"ConversationState" FOR UPDATE`;
    // Whose chats they were, and the pause (history detail old_user, user_info.current_pause):
    // the timeline names the pause, and the agent's return hands them back (reclaimPausedChats).
    const agent = rows.length
      ? await tx.user.findUnique({ where: { id: userId }, select: { id: true, uuid: true, email: true, username: true, currentPause: { select: { description: true } } } })
      : null;
    const extra = agent ? { old_user: refOf(agent), user_info: { email: agent.email, current_pause: agent.currentPause ? { description: agent.currentPause.description } : null } } : {};
    for (const { id } of rows) {
      const conv = await tx.conversation.findUniqueOrThrow({ where: { id } });
      await returnToQueue(tx, effects, conv, reason, null, extra);
    }
    return rows.length;
  });
  await redistribute(deps, effects);
  return result;
}

/**
 * Chats an agent returned to the queue when pausing "return and are reassigned on
 * return". When the agent is back online, every conversation still waiting whose last event is that
 * return (nobody took it meanwhile) is theirs again, oldest first, in one transaction with the agent
 * row locked (an accept or distribution at the same moment waits). Answers how many came back.
 */
export async function reclaimPausedChats(deps: ConversationDeps, tenantId: string, userId: number): Promise<number> {
  const { result, effects } = await inTransaction(deps, async (tx, effects) => {
    const [agent] = await tx.$queryRaw<{ id: number; uuid: string; email: string; username: string; online: boolean }[]>`
      SELECT id, uuid, email, username, ("isLogged" AND state = 'online'::"UserState" AND "currentPauseId" IS NULL) AS online
      FROM "User" WHERE id = ${userId} AND "tenantId" = ${tenantId}::uuid AND "deletedAt" IS NULL FOR UPDATE`;
    if (!agent?.online) return 0;
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT c.id FROM "Conversation" c
      WHERE c."tenantId" = ${tenantId}::uuid AND c.state = 'waiting'::"ConversationState" AND c."userId" IS NULL
        AND (SELECT e.type = 'enter-queue' AND e.detail->>'event' = 'pause' AND e.detail->'old_user'->>'id' = ${String(userId)}
             FROM "ConversationEvent" e WHERE e."conversationId" = c.id ORDER BY e.at DESC, e.id DESC LIMIT 1)
      ORDER BY c."timeJoin" ASC
      FOR UPDATE OF c SKIP LOCKED`;
    for (const { id } of rows) await assignTo(tx, effects, id, agent, 'pause_return');
    return rows.length;
  });
  await redistribute(deps, effects);
  return result;
}

/** An agent became available (signed in, unpaused): give them waiting work if distribution is automatic. */
export async function agentAvailable(deps: ConversationDeps, tenantId: string, userId: number): Promise<void> {
  const user = await deps.db.user.findUnique({ where: { id: userId }, select: { workspaceId: true } });
  if (user) await distribute(deps, tenantId, user.workspaceId);
}

/** update-user to the user's own browsers and to the supervisors' dashboards. */
export async function announceUser(deps: Pick<ConversationDeps, 'realtime'>, tenantId: string, user: UserRow): Promise<void> {
  const payload = { tenant_uuid: tenantId, user: presentUser(user) };
  await Promise.all([deps.realtime.emit(rooms.user(user.uuid), 'update-user', payload), deps.realtime.emit(rooms.metrics(tenantId), 'update-user', payload)]);
}

/**
 * Signs an agent off (logout of their last session, forced offline, deleted, every session
 * expired): offline and not logged, announced, and their active chats back in the queue with
 * reason logoff. `onlyIf` narrows which user row may change (the worker's "still
 * without a live session"); when it matches nothing, nothing happens and false is returned.
 */
export async function signOffAgent(
  deps: ConversationDeps,
  tenantId: string,
  userId: number,
  by: 'self' | 'supervisor' | 'system',
  onlyIf: Prisma.UserWhereInput = {},
  options: { tellUser?: boolean } = {},
): Promise<{ signedOff: boolean; returnedConversations: number }> {
  const { count } = await deps.db.user.updateMany({ where: { ...onlyIf, id: userId, tenantId }, data: { isLogged: false, loggedOffBy: by, state: 'offline' } });
  if (count === 0) return { signedOff: false, returnedConversations: 0 };
  const user = await deps.db.user.findUniqueOrThrow({ where: { id: userId }, include: userInclude });
  // Committed: a failed announce must not keep the chats from returning (clients reload on reconnect).
  // `tellUser: false` (nobody connected any more): only the dashboards hear it, so a socket that
  // recovers later is not replayed an is_logged false that would end a session still valid.
  const announced = options.tellUser === false
    ? deps.realtime.emit(rooms.metrics(tenantId), 'update-user', { tenant_uuid: tenantId, user: presentUser(user) })
    : announceUser(deps, tenantId, user);
  await Promise.resolve(announced).catch((error: unknown) => deps.log.error({ err: error, userId }, 'realtime announce failed after sign-off'));
  return { signedOff: true, returnedConversations: await returnAgentChats(deps, tenantId, userId, 'logoff') };
}

/**
 * A live session of a user who was signed off without ending it (no browser connected for the
 * presence grace period, or their other session logged out) connected again: logged in, online
 * (or paused, if a pause is still set), announced, and given waiting work. False when the user
 * was already logged in (the usual case: one indexed update that changes nothing).
 */
export async function resumeAgent(deps: ConversationDeps, tenantId: string, userId: number): Promise<boolean> {
  const changed = await deps.db.$executeRaw`
    UPDATE "User" SET "isLogged" = true, "loggedOffBy" = NULL, "loggedAt" = now(), "updatedAt" = now(),
      state = (CASE WHEN "currentPauseId" IS NULL THEN 'online' ELSE 'paused' END)::"UserState"
    WHERE id = ${userId} AND "tenantId" = ${tenantId}::uuid AND NOT "isLogged" AND "deletedAt" IS NULL`;
  if (changed === 0) return false;
  const user = await deps.db.user.findUniqueOrThrow({ where: { id: userId }, include: userInclude });
  await announceUser(deps, tenantId, user).catch((error: unknown) => deps.log.error({ err: error, userId }, 'realtime announce failed after resume'));
  await agentAvailable(deps, tenantId, userId);
  return true;
}
