import { AppError } from '@atende/contract';
import { acceptSessionRefusal, agentCapacity, isAutoDistribution, tenantConfigOf } from '@atende/core';
import { Prisma, type Db } from '@atende/db';
import type { ConversationDeps } from './deps';
import { inTransaction, type Effects, type Tx } from './engine';

export const ACTIVE_STATES = ['answered', 'outbound_started', 'closing'] as const;

/** The agent's active conversations (tenant first: the tenantId+userId+state index answers it alone). */
export async function activeCount(tx: Tx, tenantId: string, userId: number): Promise<number> {
  return tx.conversation.count({ where: { tenantId, userId, state: { in: [...ACTIVE_STATES] } } });
}

async function sectorsOf(tx: Tx, userId: number): Promise<string[]> {
  const rows = await tx.userSector.findMany({ where: { userId }, select: { sectorId: true } });
  return rows.map((r) => r.sectorId);
}

/**
 * The next waiting conversation an agent may take: prioritised first, then the oldest (spec 000 §4),
 * in the agent's sectors (or any when the agent has none). Locked, skipping rows another
 * transaction holds, so two agents never take the same one.
 */
async function lockNextWaiting(tx: Tx, tenantId: string, workspaceId: string, sectorIds: string[]): Promise<{ id: string; userId: number | null } | null> {
  const sectorFilter = sectorIds.length
    ? Prisma.sql`AND ("sectorId" IS NULL OR "sectorId" IN (${Prisma.join(sectorIds.map((s) => Prisma.sql`${s}::uuid`))}))`
    : Prisma.empty;
  const rows = await tx.$queryRaw<{ id: string; userId: number | null }[]>`
    SELECT id, "userId" FROM "Conversation"
    WHERE "tenantId" = ${tenantId}::uuid AND "workspaceId" = ${workspaceId}::uuid AND state = 'waiting'::"ConversationState" ${sectorFilter}
    ORDER BY priority DESC, "timeJoin" ASC
    LIMIT 1 FOR UPDATE SKIP LOCKED`;
  return rows[0] ?? null;
}

/** Hands a locked conversation to an agent, with its history events. */
export async function assignTo(tx: Tx, effects: Effects, conversationId: string, user: { id: number; uuid: string; email: string; username: string }, how: 'accept' | 'distribution' | 'transfer' | 'pause_return', doneBy?: { id: number; uuid: string; email: string; username: string }) {
  const now = new Date();
  const current = await tx.conversation.findUniqueOrThrow({ where: { id: conversationId } });
  const conv = await tx.conversation.update({
    where: { id: conversationId },
    data: { userId: user.id, state: 'answered', timeAnswer: current.timeAnswer ?? now },
  });
  await tx.user.update({ where: { id: user.id }, data: { lastAssignedAt: now } });
  const ref = { id: user.id, uuid: user.uuid, username: user.username, email: user.email };
  const events: Prisma.ConversationEventCreateManyInput[] = [];
  if (how === 'distribution') events.push({ tenantId: conv.tenantId, conversationId, type: 'offered', detail: { user_uuid: user.uuid, user_email: user.email }, at: now });
  events.push({
    tenantId: conv.tenantId, conversationId, type: 'associate-user', at: now,
    detail: { user_uuid: user.uuid, user_email: user.email, new_user: ref, done_by: how, ...(doneBy ? { done_by_user: { id: doneBy.id, uuid: doneBy.uuid, username: doneBy.username, email: doneBy.email } } : {}) },
  });
  if (!current.timeAnswer) events.push({ tenantId: conv.tenantId, conversationId, type: 'answered', detail: { email: user.email, user_uuid: user.uuid }, at: now });
  await tx.conversationEvent.createMany({ data: events });
  effects.conversation(conversationId);
  effects.queueChanged(conv.tenantId, conv.workspaceId);
  return conv;
}

/** Capacity of an agent: the workspace's limit within the tenant's agent slots (spec 000 §9). */
export async function capacityOf(tx: Tx | Db, tenantId: string, workspaceId: string): Promise<{ capacity: number; mode: 'on_demand' | 'round_robin' | 'fifo' }> {
  const [row] = await tx.$queryRaw<{ config: unknown; maxConversationPerUser: number; mode: 'on_demand' | 'round_robin' | 'fifo' }[]>`
    SELECT t.config, w."maxConversationPerUser", w."conversationDeliveryMode"::text AS mode
    FROM "Workspace" w JOIN "Tenant" t ON t.id = w."tenantId" WHERE w.id = ${workspaceId}::uuid AND t.id = ${tenantId}::uuid`;
  if (!row) throw new AppError('not_found', 'Workspace not found');
  return { capacity: agentCapacity(row.maxConversationPerUser, tenantConfigOf(row.config).agent.max_slots), mode: row.mode };
}

/** Accept session (on_demand): the caller takes the next waiting conversation (spec 000 §4). */
export async function acceptNext(ctx: ConversationDeps, tenantId: string, workspaceId: string, userId: number) {
  const { result } = await inTransaction(ctx, async (tx, effects) => {
    // One accept at a time per agent: the user row lock serialises them, so capacity holds.
    const [agent] = await tx.$queryRaw<{ id: number; uuid: string; email: string; username: string; state: string; currentPauseId: string | null }[]>`
      SELECT id, uuid, email, username, state::text AS state, "currentPauseId" FROM "User" WHERE id = ${userId} FOR UPDATE`;
    if (!agent) throw new AppError('not_found', 'User not found');
    const { capacity, mode } = await capacityOf(tx, tenantId, workspaceId);
    const sectors = await sectorsOf(tx, userId);
    const waiting = await tx.conversation.count({ where: { tenantId, workspaceId, state: 'waiting' } });
    const refusal = acceptSessionRefusal({ mode, activeCount: await activeCount(tx, tenantId, userId), capacity, waiting, paused: agent.state === 'paused' || agent.currentPauseId !== null });
    if (refusal) throw new AppError(refusal.code === 'nobody_waiting' ? 'not_found' : 'conflict', refusal.message);
    const next = await lockNextWaiting(tx, tenantId, workspaceId, sectors);
    if (!next) throw new AppError('not_found', 'There are no sessions waiting');
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
      const candidates = await tx.$queryRaw<{ id: string; sectorId: string | null }[]>`
        SELECT id, "sectorId" FROM "Conversation"
        WHERE "tenantId" = ${tenantId}::uuid AND "workspaceId" = ${workspaceId}::uuid AND state = 'waiting'::"ConversationState"
        ORDER BY priority DESC, "timeJoin" ASC
        LIMIT 50 FOR UPDATE SKIP LOCKED`;
      const order = mode === 'fifo' ? Prisma.sql`last_assigned ASC NULLS FIRST, u.id ASC` : Prisma.sql`active ASC, last_assigned ASC NULLS FIRST, u.id ASC`;
      for (const conv of candidates) {
        const agents = await tx.$queryRaw<{ id: number; uuid: string; email: string; username: string }[]>`
          SELECT u.id, u.uuid, u.email, u.username,
                 (SELECT COUNT(*) FROM "Conversation" c WHERE c."userId" = u.id AND c.state IN ('answered', 'outbound-started', 'closing')) AS active,
                 u."lastAssignedAt" AS last_assigned
          FROM "User" u
          WHERE u."tenantId" = ${tenantId}::uuid AND u."workspaceId" = ${workspaceId}::uuid AND u."deletedAt" IS NULL
            AND u."isLogged" AND u.state = 'online'::"UserState" AND u."currentPauseId" IS NULL AND 'agent'::"Role" = ANY(u.roles)
            AND (${conv.sectorId}::uuid IS NULL
                 OR NOT EXISTS (SELECT 1 FROM "UserSector" us WHERE us."userId" = u.id)
                 OR EXISTS (SELECT 1 FROM "UserSector" us WHERE us."userId" = u.id AND us."sectorId" = ${conv.sectorId}::uuid))
          ORDER BY ${order}
          FOR UPDATE OF u SKIP LOCKED`;
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
