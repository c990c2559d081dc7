import { rooms, type Message as MessageDto } from '@atende/contract';
import {
  conversationRowsByIds,
  keptConversationCount,
  userUuidById,
  userUuidsByIds,
  withTransaction,
  type Db,
  type Prisma,
} from '@atende/db';
import type { ConversationDeps } from './deps';
import { loadLookups, presentConversation } from './present';

export type Tx = Prisma.TransactionClient;

/** What a transaction changed, announced to browsers only after it commits. */
export class Effects {
  readonly updated = new Set<string>();
  readonly created = new Set<string>();
  /** workspace ids whose waiting queue changed, with their tenant */
  readonly queues = new Map<string, string>();
  /** users who must hear about a conversation they no longer hold (transferred or returned) */
  readonly formerHolders = new Map<string, Set<number>>();
  /** new messages, already presented in the transaction, with who holds their conversation */
  readonly messages: { tenantId: string; conversationId: string; holderUuid: string | null; message: MessageDto }[] = [];
  /** workspaces to run distribution on after commit */
  readonly distribute = new Map<string, string>();

  conversation(id: string, created = false) {
    (created ? this.created : this.updated).add(id);
  }
  queueChanged(tenantId: string, workspaceId: string) {
    this.queues.set(workspaceId, tenantId);
    this.distribute.set(workspaceId, tenantId);
  }
  former(conversationId: string, userId: number | null) {
    if (userId === null) return;
    const set = this.formerHolders.get(conversationId) ?? new Set<number>();
    set.add(userId);
    this.formerHolders.set(conversationId, set);
  }
}

/** The uuid of the agent holding a conversation, for addressing its events. */
export async function holderUuid(tx: Tx, userId: number | null): Promise<string | null> {
  if (userId === null) return null;
  return userUuidById(tx, userId);
}

/** Runs `fn` in one transaction, then emits what it changed (emitted after commit). */
export async function inTransaction<T>(
  ctx: ConversationDeps,
  fn: (tx: Tx, effects: Effects) => Promise<T>,
): Promise<{ result: T; effects: Effects }> {
  const effects = new Effects();
  const result = await withTransaction(ctx.db, (tx) => fn(tx, effects), { timeout: 15_000, maxWait: 10_000 });
  await announceCommitted(ctx, effects);
  return { result, effects };
}

/** Announces a committed change (a transaction's, or a single atomic statement's). */
export async function announceCommitted(ctx: ConversationDeps, effects: Effects): Promise<void> {
  // The change is committed: a failure to announce it must not turn the answer into an error.
  // Clients reload on reconnect, so a missed event is recovered there.
  await announce(ctx, effects).catch((error: unknown) => ctx.log.error({ err: error }, 'realtime announce failed after commit'));
}

/** Emits update/new-conversation, new-message and waiting-queue events to their audiences only. */
export async function announce(ctx: ConversationDeps, effects: Effects): Promise<void> {
  const db: Db = ctx.db;
  // The api's emit is synchronous; the worker's appends to a stream: wait for all before returning.
  const sent: (void | Promise<unknown>)[] = [];
  const emit: ConversationDeps['realtime']['emit'] = (room, event, payload) => void sent.push(ctx.realtime.emit(room, event, payload));
  const ids = [...new Set([...effects.created, ...effects.updated])];
  if (ids.length) {
    const rows = await conversationRowsByIds(db, ids);
    const formerIds = [...effects.formerHolders.values()].flatMap((s) => [...s]);
    const lookups = await loadLookups(db, rows);
    const formerUsers = await userUuidsByIds(db, formerIds);
    const uuidOf = new Map(formerUsers.map((u) => [u.id, u.uuid]));
    for (const row of rows) {
      const conversation = presentConversation(row, lookups);
      const event = effects.created.has(row.id) ? 'new-conversation' : 'update-conversation';
      const payload = { tenant_uuid: row.tenantId, conversation };
      emit(conversationAudience(row.tenantId, row.id, conversation.user?.uuid ?? null), event, payload);
      for (const former of effects.formerHolders.get(row.id) ?? []) {
        const uuid = uuidOf.get(former);
        if (uuid && uuid !== conversation.user?.uuid) emit(rooms.user(uuid), 'update-conversation', payload);
      }
    }
  }
  for (const m of effects.messages) {
    // Agents and supervisors only: internal notes never reach anything the contact could see.
    emit(conversationAudience(m.tenantId, m.conversationId, m.holderUuid, { includeMetrics: false }), 'new-message', {
      tenant_uuid: m.tenantId,
      conversation_uuid: m.conversationId,
      message: m.message,
    });
  }
  for (const [workspaceId, tenantId] of effects.queues) {
    // The kept count (migration 20261130010000): a few rows, however long the queue.
    const quantity = await keptConversationCount(db, { tenantId, workspaceId, states: ['waiting'] });
    emit(rooms.tenant(tenantId), 'waiting-queue', { tenant_uuid: tenantId, quantity_waiting_queue: quantity });
  }
  await Promise.all(sent);
}

/**
 * Who hears about one conversation: its assigned agent, whoever watches its live view and the
 * supervisors' dashboards. Never another agent.
 */
export function conversationAudience(
  tenantId: string,
  conversationId: string,
  holderUuid: string | null,
  options: { includeMetrics?: boolean } = {},
): string[] {
  const list = [rooms.conversation(tenantId, conversationId)];
  if (holderUuid) list.push(rooms.user(holderUuid));
  if (options.includeMetrics !== false) list.push(rooms.metrics(tenantId));
  return list;
}
