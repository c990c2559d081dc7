import { AppError, type ErrorCode } from '@atende/contract';
import { acceptSessionRefusal, agentCapacity, isAutoDistribution, tenantConfigOf, type AcceptRefusal } from '@atende/core';
import {
  ACTIVE_STATES,
  agentSectorIds,
  assignConversation,
  countActiveChats,
  countWaiting,
  lockAgentForAccept,
  lockEligibleAgents,
  lockNextWaiting,
  lockWaitingCandidates,
  queueSettings,
  type AgentRef,
  type Db,
} from '@atende/db';
import type { ConversationDeps } from './deps';
import { inTransaction, type Effects, type Tx } from './engine';

/** The api's code for each reason an agent may not take the next waiting conversation. */
const REFUSAL_CODES: Record<AcceptRefusal['code'], ErrorCode> = {
  auto_distribution: 'auto_distribution_on',
  max_reached: 'agent_at_max_sessions',
  not_online: 'accept_while_paused',
  nobody_waiting: 'nobody_waiting',
};

export { ACTIVE_STATES };

/** The agent's active conversations. */
export async function activeCount(tx: Tx, tenantId: string, userId: number): Promise<number> {
  return countActiveChats(tx, tenantId, userId);
}

/** Hands a locked conversation to an agent, with its history events. */
export async function assignTo(
  tx: Tx,
  effects: Effects,
  conversationId: string,
  user: AgentRef,
  how: 'accept' | 'distribution' | 'transfer' | 'pause_return',
  doneBy?: AgentRef,
) {
  const conv = await assignConversation(tx, conversationId, user, how, doneBy);
  effects.conversation(conversationId);
  effects.queueChanged(conv.tenantId, conv.workspaceId);
  return conv;
}

/** Capacity of an agent: the workspace's limit within the tenant's agent slots. */
export async function capacityOf(
  tx: Tx | Db,
  tenantId: string,
  workspaceId: string,
): Promise<{ capacity: number; mode: 'on_demand' | 'round_robin' | 'fifo' }> {
  const row = await queueSettings(tx, tenantId, workspaceId);
  if (!row) throw new AppError('workspace_not_found', 'Workspace not found');
  return { capacity: agentCapacity(row.maxConversationPerUser, tenantConfigOf(row.config).agent.max_slots), mode: row.mode };
}

/** Accept session (on_demand): the caller takes the next waiting conversation. */
export async function acceptNext(ctx: ConversationDeps, tenantId: string, workspaceId: string, userId: number) {
  const { result } = await inTransaction(ctx, async (tx, effects) => {
    // One accept at a time per agent: the user row lock serialises them, so capacity holds.
    const agent = await lockAgentForAccept(tx, userId);
    if (!agent) throw new AppError('user_not_found', 'User not found');
    const { capacity, mode } = await capacityOf(tx, tenantId, workspaceId);
    const sectors = await agentSectorIds(tx, userId);
    const waiting = await countWaiting(tx, tenantId, workspaceId);
    const refusal = acceptSessionRefusal({
      mode,
      activeCount: await activeCount(tx, tenantId, userId),
      capacity,
      waiting,
      paused: agent.state === 'paused' || agent.currentPauseId !== null,
    });
    if (refusal?.code === 'max_reached') throw new AppError('agent_at_max_sessions', refusal.message, undefined, { capacity });
    if (refusal) throw new AppError(REFUSAL_CODES[refusal.code], refusal.message);
    const next = await lockNextWaiting(tx, tenantId, workspaceId, sectors);
    if (!next) throw new AppError('nobody_waiting', 'There are no sessions waiting');
    await assignTo(tx, effects, next.id, agent, 'accept');
    return next.id;
  });
  return result;
}

/**
 * Auto distribution (round_robin, fifo): while conversations wait and agents have free slots,
 * assign one at a time. round_robin gives the next conversation to the least-loaded agent;
 * fifo to the agent idle longest (oldest last assignment). Only logged-in, online agents of the
 * conversation's sector (or with no sectors) with free capacity are eligible.
 */
export async function distribute(ctx: ConversationDeps, tenantId: string, workspaceId: string, maxAssignments = 200): Promise<number> {
  // on_demand (the default) never distributes: answer without opening a transaction.
  if (!isAutoDistribution((await capacityOf(ctx.db, tenantId, workspaceId)).mode)) return 0;
  let assigned = 0;
  for (; assigned < maxAssignments; assigned++) {
    const { result } = await inTransaction(ctx, async (tx, effects) => {
      const { capacity, mode } = await capacityOf(tx, tenantId, workspaceId);
      if (!isAutoDistribution(mode)) return false;
      // The oldest waiting conversations first; one with nobody free in its sector must not block the others.
      const candidates = await lockWaitingCandidates(tx, tenantId, workspaceId, 50);
      for (const conv of candidates) {
        const agents = await lockEligibleAgents(tx, tenantId, workspaceId, conv.sectorId, mode);
        for (const agent of agents) {
          if ((await activeCount(tx, tenantId, agent.id)) >= capacity) continue;
          await assignTo(tx, effects, conv.id, agent, 'distribution');
          return true;
        }
      }
      return false;
    });
    if (!result) break;
  }
  return assigned;
}
