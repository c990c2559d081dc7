import { randomUUID } from 'node:crypto';
import { AppError, INTERNAL_MESSAGE_TAG, MESSAGES_UNTIL_MAX, PROVIDER_CHANNEL_TYPES, queues, type Message as MessageDto } from '@atende/contract';
import { conversationAudience, inTransaction, presentMessage } from '@atende/conversations';
import { channelKind, roleCovers } from '@atende/core';
import { enqueue, enqueueSql, Prisma, scoped } from '@atende/db';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { mayRead } from '../conversations/access';

/** Channel types with an adapter in the worker (custom API channel, every provider type); livechat visitors poll instead. */
const DELIVERABLE_CHANNEL_TYPES = new Set<string>(['custom', 'droz', 'API', ...PROVIDER_CHANNEL_TYPES]);
export const isDeliverable = (type: string) => DELIVERABLE_CHANNEL_TYPES.has(channelKind(type));

export interface SendInput {
  uuid?: string;
  content?: string;
  annex_uuid?: string;
  voice?: boolean;
  reply_to_uuid?: string | null;
  internal?: boolean;
}

export class MessageService {
  constructor(private readonly ctx: AppContext) {}

  private async presentMany(rows: Prisma.MessageGetPayload<object>[]): Promise<MessageDto[]> {
    const annexIds = rows.map((m) => m.annexId).filter((v): v is string => v !== null);
    const userIds = rows.map((m) => m.userId).filter((v): v is number => v !== null);
    const [annexes, users] = await Promise.all([
      annexIds.length ? this.ctx.db.storedFile.findMany({ where: { id: { in: annexIds } } }) : [],
      userIds.length ? this.ctx.db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, uuid: true, username: true } }) : [],
    ]);
    return rows.map((m) => presentMessage(m, { annex: annexes.find((a) => a.id === m.annexId) ?? null, user: users.find((u) => u.id === m.userId) ?? null }));
  }

  /** The conversation, if the caller may read it: its agent, or a supervisor-level user. */
  private async readable(session: Session, conversationId: string) {
    const conv = await scoped(this.ctx.db, session).conversation.findFirst({ where: { id: conversationId }, include: { channel: true } });
    if (!conv || !(await mayRead(this.ctx.db, session, conv))) throw new AppError('not_found', 'Conversation not found');
    return conv;
  }

  async list(session: Session, conversationId: string, q: { _limit: number; before?: string; until?: string }) {
    await this.readable(session, conversationId);
    const db = scoped(this.ctx.db, session);
    const createdAtOf = async (id: string) => {
      const anchor = await db.message.findFirst({ where: { id, conversationId }, select: { createdAt: true } });
      if (!anchor) throw new AppError('not_found', 'Message not found');
      return anchor.createdAt;
    };
    const before = q.before ? await createdAtOf(q.before) : undefined;
    const window = { conversationId, ...(before ? { createdAt: { lt: before } } : {}) };
    let limit = q._limit;
    if (q.until) {
      // Spec 000 §2: reach back to the message a link or a quote points at, in one page.
      const until = await createdAtOf(q.until);
      const between = await db.message.count({ where: { ...window, createdAt: { gte: until, ...(before ? { lt: before } : {}) } } });
      limit = Math.min(MESSAGES_UNTIL_MAX, Math.max(limit, between));
    }
    const rows = await db.message.findMany({ where: window, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit + 1 });
    const hasMore = rows.length > limit;
    return { data: await this.presentMany(rows.slice(0, limit).reverse()), has_more: hasMore };
  }

  async get(session: Session, id: string) {
    const m = await scoped(this.ctx.db, session).message.findFirst({ where: { id } });
    if (!m) throw new AppError('not_found', 'Message not found');
    await this.readable(session, m.conversationId).catch(() => {
      throw new AppError('not_found', 'Message not found');
    });
    return (await this.presentMany([m]))[0]!;
  }

  /**
   * Sends an agent message or internal note. The client's uuid makes it idempotent: the same uuid
   * again returns the stored message; if that one failed to deliver, it is queued again (retry).
   */
  async send(session: Session, conversationId: string, input: SendInput): Promise<MessageDto> {
    const id = input.uuid ?? randomUUID();
    const internal = input.internal === true;
    if (internal && session.tenantConfig.features.internal_note !== true) throw new AppError('feature_disabled', 'Internal notes are not enabled for this tenant');
    // Few round trips (every agent message passes here): the conversation is locked and read with
    // what the checks and the announcement need in one query, and the new message is presented
    // from the values written rather than read back.
    const { result } = await inTransaction(this.ctx, async (tx, effects): Promise<{ existing: true } | { existing: false; message: MessageDto }> => {
      const [conv] = await tx.$queryRaw<{ userId: number | null; state: string; channelType: string; holder: string | null; author: string | null; existing: boolean }[]>`
        SELECT c."userId", c.state::text AS state, ch.type AS "channelType",
               (SELECT u.uuid::text FROM "User" u WHERE u.id = c."userId") AS holder,
               (SELECT u.username FROM "User" u WHERE u.id = ${session.userId}) AS author,
               EXISTS (SELECT 1 FROM "Message" m WHERE m.id = ${id}::uuid) AS existing
        FROM "Conversation" c JOIN "Channel" ch ON ch.id = c."channelId"
        WHERE c.id = ${conversationId}::uuid AND c."tenantId" = ${session.tenantId}::uuid
        FOR UPDATE OF c`;
      if (!conv) throw new AppError('not_found', 'Conversation not found');
      const supervisor = roleCovers(session.roles, 'supervisor');
      const resend = async (): Promise<{ existing: true }> => {
        const existing = await tx.message.findUniqueOrThrow({ where: { id } });
        if (existing.conversationId !== conversationId || existing.tenantId !== session.tenantId || existing.userId !== session.userId) {
          throw new AppError('conflict', 'This message id is already used');
        }
        if (existing.status === 'failed' && !existing.internal) {
          // The agent's knowing resend: posted again even if an earlier attempt may have delivered it.
          await tx.message.update({ where: { id }, data: { status: 'sending', errorMessage: null, postedAt: null } });
          await enqueue(tx, queues.channelDelivery.name, { tenant_uuid: session.tenantId, message_uuid: id });
          effects.conversation(conversationId);
        }
        return { existing: true };
      };
      if (conv.existing) return resend();
      if (conv.userId !== session.userId && !(internal && supervisor)) throw new AppError('forbidden', 'This conversation is not assigned to you');
      // state::text is the database label (outbound-started).
      if (conv.state !== 'answered' && conv.state !== 'outbound-started') throw new AppError('conflict', 'Messages can only be sent in an active conversation');
      if (conv.state === 'outbound-started' && !internal) throw new AppError('conflict', 'You can only send messages after client interaction');
      if (input.reply_to_uuid) {
        const replied = await tx.message.findFirst({ where: { id: input.reply_to_uuid, conversationId }, select: { internal: true, author: true } });
        if (!replied) throw new AppError('not_found', 'The message you reply to is not in this conversation');
        // Spec 000 §4: notes can only be answered with a note.
        if (replied.internal && replied.author === 'USER' && !internal) throw new AppError('validation_failed', 'Notas só podem ser respondidas com uma nota');
      }
      const annex = input.annex_uuid ? await tx.storedFile.findFirst({ where: { id: input.annex_uuid, tenantId: session.tenantId } }) : null;
      if (input.annex_uuid && !annex) throw new AppError('not_found', 'Attachment not found');
      const deliver = !internal && isDeliverable(conv.channelType);
      const now = new Date();
      const row: Prisma.MessageGetPayload<object> = {
        id, tenantId: session.tenantId, conversationId, author: 'USER', userId: session.userId, contactId: null, content: input.content?.trim() ?? '',
        tags: internal ? [INTERNAL_MESSAGE_TAG] : [], internal, voice: input.voice === true, replyToId: input.reply_to_uuid ?? null,
        annexId: input.annex_uuid ?? null, state: 'pending', status: deliver ? 'sending' : null, templateMessage: null, interactiveContent: null,
        externalId: null, errorMessage: null, postedAt: null, createdAt: now, updatedAt: now,
      };
      // The message, its delivery job (outbox, same transaction) and the conversation's last activity in one statement.
      const delivery = enqueueSql(queues.channelDelivery.name, { tenant_uuid: session.tenantId, message_uuid: id }, Prisma.sql`FROM inserted WHERE ${deliver}::boolean`, now);
      const [written] = await tx.$queryRaw<{ inserted: boolean }[]>`
        WITH inserted AS (
          INSERT INTO "Message" (id, "tenantId", "conversationId", author, "userId", content, tags, internal, voice, "replyToId", "annexId", state, status, "createdAt", "updatedAt")
          VALUES (${id}::uuid, ${session.tenantId}::uuid, ${conversationId}::uuid, 'USER'::"MessageAuthor", ${session.userId}, ${row.content}, ${row.tags}::text[],
                  ${internal}, ${row.voice}, ${row.replyToId}::uuid, ${row.annexId}::uuid, 'pending'::"MessageState", ${row.status}, ${now}, ${now})
          ON CONFLICT (id) DO NOTHING
          RETURNING id
        ), queued AS (${delivery}), touched AS (
          UPDATE "Conversation" SET "lastMessageAt" = ${now}, "updatedAt" = ${now} WHERE id = ${conversationId}::uuid AND EXISTS (SELECT 1 FROM inserted)
        )
        SELECT EXISTS (SELECT 1 FROM inserted) AS inserted`;
      // A send with the same uuid committed while this one waited for the lock (the lock query's
      // snapshot predates it): answer as for any existing uuid.
      if (!written?.inserted) return resend();
      const message = presentMessage(row, { annex, user: { uuid: session.userUuid, username: conv.author ?? '' } });
      effects.messages.push({ tenantId: session.tenantId, conversationId, holderUuid: conv.holder, message });
      return { existing: false, message };
    });
    if (!result.existing) return result.message;
    const message = await this.ctx.db.message.findUniqueOrThrow({ where: { id } });
    return (await this.presentMany([message]))[0]!;
  }

  /** Marks the contact's messages read; the unread count is recomputed (spec 000 §4). */
  async markRead(session: Session, conversationId: string, uuids: string[]) {
    const readable = await this.readable(session, conversationId);
    // Reading a colleague's past conversation (journey) does not mark the contact's messages read.
    if (!roleCovers(session.roles, 'supervisor') && readable.userId !== session.userId) throw new AppError('forbidden', 'This conversation is not assigned to you');
    const { result } = await inTransaction(this.ctx, async (tx, effects) => {
      // Issue 16 item 5: reading messages reads the contact's earlier ones too. A chat opened with 71
      // unread shows its newest 50; the 21 before them are behind what the agent read, not unread.
      const newest = await tx.message.aggregate({ where: { id: { in: uuids }, conversationId, tenantId: session.tenantId, author: 'CONTACT' }, _max: { createdAt: true } });
      const upTo = newest._max.createdAt;
      const updated = await tx.message.updateMany({
        where: { conversationId, tenantId: session.tenantId, author: 'CONTACT', state: { not: 'read' }, OR: [{ id: { in: uuids } }, ...(upTo ? [{ createdAt: { lte: upTo } }] : [])] },
        data: { state: 'read' },
      });
      const unread = await tx.message.count({ where: { conversationId, author: 'CONTACT', state: { not: 'read' } } });
      await tx.conversation.update({ where: { id: conversationId }, data: { unreadContactMessages: unread } });
      effects.conversation(conversationId);
      return { updated: updated.count, unread_contact_messages: unread };
    });
    const conv = await this.ctx.db.conversation.findUniqueOrThrow({ where: { id: conversationId }, select: { userId: true } });
    const holder = conv.userId !== null ? await this.ctx.db.user.findUnique({ where: { id: conv.userId }, select: { uuid: true } }) : null;
    const acked = await this.ctx.db.message.findMany({ where: { id: { in: uuids }, conversationId, author: 'CONTACT' }, select: { id: true, state: true, status: true } });
    if (acked.length) {
      const payload = {
        tenant_uuid: session.tenantId,
        conversation_uuid: conversationId,
        messages: acked.map((m) => ({ uuid: m.id, state: m.state, status: m.status === 'sending' || m.status === 'failed' ? (m.status as 'sending' | 'failed') : null })),
      };
      this.ctx.realtime.emit(conversationAudience(session.tenantId, conversationId, holder?.uuid ?? null, { includeMetrics: false }), 'messages-ack', payload);
    }
    return result;
  }
}
