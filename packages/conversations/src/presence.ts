import { rooms } from '@atende/contract';
import {
  agentWithPause,
  conversationById,
  lockAgentActiveChats,
  lockAgentAvailability,
  lockChatsReturnedAtPause,
  markResumed,
  markSignedOff,
  putBackInQueue,
  userRowById,
  workspaceOfUser,
  type ConversationRecord,
  type Prisma,
} from '@atende/db';
import type { ConversationDeps } from './deps';
import { inTransaction, type Effects, type Tx } from './engine';
import { presentUser, type UserRow } from './present-user';
import { assignTo, distribute } from './queue';

export type UserRef = { id: number; uuid: string; email: string; username: string };
export const refOf = (u: UserRef) => ({ id: u.id, uuid: u.uuid, username: u.username, email: u.email });

/** Why a conversation re-entered the queue, as its enter-queue history entry says. */
export type EnterQueueReason = 'pause' | 'logoff' | 'update-conversation' | 'transferring-conversation' | 'custom_action';

/** Puts a conversation back in its sector's queue (enter-queue with its reason). */
export async function returnToQueue(
  tx: Tx,
  effects: Effects,
  conv: ConversationRecord,
  reason: EnterQueueReason,
  by: UserRef | null,
  extra: Prisma.InputJsonObject = {},
): Promise<void> {
  await putBackInQueue(tx, conv, { ...extra, event: reason, ...(by ? { done_by_user: refOf(by) } : {}) });
  effects.former(conv.id, conv.userId);
  effects.conversation(conv.id);
  effects.queueChanged(conv.tenantId, conv.workspaceId);
}

/** Runs distribution for every workspace whose queue changed (round_robin and fifo; on_demand does nothing). */
export async function redistribute(deps: ConversationDeps, effects: Effects): Promise<void> {
  for (const [workspaceId, tenantId] of effects.distribute) {
    // The caller's change is committed; distribution runs again on the next queue change if this one fails.
    await distribute(deps, tenantId, workspaceId).catch((error: unknown) =>
      deps.log.error({ err: error, workspaceId }, 'distribution failed'),
    );
  }
}

/**
 * Returns every active chat of an agent to the queue (pause with back_to_queue, logout, forced
 * offline, sessions expired), announces it and redistributes. The same call from the api and the worker.
 */
export async function returnAgentChats(
  deps: ConversationDeps,
  tenantId: string,
  userId: number,
  reason: 'pause' | 'logoff',
): Promise<number> {
  const { result, effects } = await inTransaction(deps, async (tx, effects) => {
    const rows = await lockAgentActiveChats(tx, tenantId, userId);
    // Whose chats they were, and the pause (history detail old_user, user_info.current_pause):
    // the timeline names the pause, and the agent's return hands them back (reclaimPausedChats).
    const agent = rows.length ? await agentWithPause(tx, userId) : null;
    const extra = agent
      ? {
          old_user: refOf(agent),
          user_info: { email: agent.email, current_pause: agent.currentPause ? { description: agent.currentPause.description } : null },
        }
      : {};
    for (const id of rows) await returnToQueue(tx, effects, await conversationById(tx, id), reason, null, extra);
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
    const agent = await lockAgentAvailability(tx, tenantId, userId);
    if (!agent?.online) return 0;
    const rows = await lockChatsReturnedAtPause(tx, tenantId, userId);
    for (const id of rows) await assignTo(tx, effects, id, agent, 'pause_return');
    return rows.length;
  });
  await redistribute(deps, effects);
  return result;
}

/** An agent became available (signed in, unpaused): give them waiting work if distribution is automatic. */
export async function agentAvailable(deps: ConversationDeps, tenantId: string, userId: number): Promise<void> {
  const workspaceId = await workspaceOfUser(deps.db, userId);
  if (workspaceId) await distribute(deps, tenantId, workspaceId);
}

/** update-user to the user's own browsers and to the supervisors' dashboards. */
export async function announceUser(deps: Pick<ConversationDeps, 'realtime'>, tenantId: string, user: UserRow): Promise<void> {
  const payload = { tenant_uuid: tenantId, user: presentUser(user) };
  await Promise.all([
    deps.realtime.emit(rooms.user(user.uuid), 'update-user', payload),
    deps.realtime.emit(rooms.metrics(tenantId), 'update-user', payload),
  ]);
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
  if (!(await markSignedOff(deps.db, tenantId, userId, by, onlyIf))) return { signedOff: false, returnedConversations: 0 };
  const user = await userRowById(deps.db, userId);
  // Committed: a failed announce must not keep the chats from returning (clients reload on reconnect).
  // `tellUser: false` (nobody connected any more): only the dashboards hear it, so a socket that
  // recovers later is not replayed an is_logged false that would end a session still valid.
  const announced =
    options.tellUser === false
      ? deps.realtime.emit(rooms.metrics(tenantId), 'update-user', { tenant_uuid: tenantId, user: presentUser(user) })
      : announceUser(deps, tenantId, user);
  await Promise.resolve(announced).catch((error: unknown) =>
    deps.log.error({ err: error, userId }, 'realtime announce failed after sign-off'),
  );
  return { signedOff: true, returnedConversations: await returnAgentChats(deps, tenantId, userId, 'logoff') };
}

/**
 * A live session of a user who was signed off without ending it (no browser connected for the
 * presence grace period, or their other session logged out) connected again: logged in, online
 * (or paused, if a pause is still set), announced, and given waiting work. False when the user
 * was already logged in (the usual case: one indexed update that changes nothing).
 */
export async function resumeAgent(deps: ConversationDeps, tenantId: string, userId: number): Promise<boolean> {
  if (!(await markResumed(deps.db, tenantId, userId))) return false;
  const user = await userRowById(deps.db, userId);
  await announceUser(deps, tenantId, user).catch((error: unknown) =>
    deps.log.error({ err: error, userId }, 'realtime announce failed after resume'),
  );
  await agentAvailable(deps, tenantId, userId);
  return true;
}
