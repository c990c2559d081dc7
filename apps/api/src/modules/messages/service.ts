import { randomUUID } from 'node:crypto';
import { AppError, INTERNAL_MESSAGE_TAG, queues, type Message as MessageDto } from '@atende/contract';
import { conversationAudience, holderUuid, inTransaction, presentMessage } from '@atende/conversations';
import { roleCovers } from '@atende/core';
import { scoped, type Prisma } from '@atende/db';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { mayRead } from '../conversations/access';

/** Channel types whose agent messages the worker delivers (custom API channel, issue 3). */
export const DELIVERABLE_CHANNEL_TYPES = new Set(['custom', 'droz', 'API']);

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

  async list(session: Session, conversationId: string, q: { _limit: number; before?: string }) {
    await this.readable(session, conversationId);
    const db = scoped(this.ctx.db, session);
    let before: Date | undefined;
    if (q.before) {
      const anchor = await db.message.findFirst({ where: { id: q.before, conversationId } });
      if (!anchor) throw new AppError('not_found', 'Message not found');
      before = anchor.createdAt;
    }
    const rows = await db.message.findMany({
      where: { conversationId, ...(before ? { createdAt: { lt: before } } : {}) },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: q._limit + 1,
    });
    const hasMore = rows.length > q._limit;
    return { data: await this.presentMany(rows.slice(0, q._limit).reverse()), has_more: hasMore };
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
    const { result } = await inTransaction(this.ctx, async (tx, effects) => {
      const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Conversation" WHERE id = ${conversationId}::uuid AND "tenantId" = ${session.tenantId}::uuid FOR UPDATE`;
      if (!locked.length) throw new AppError('not_found', 'Conversation not found');
      const conv = await tx.conversation.findUniqueOrThrow({ where: { id: conversationId }, include: { channel: true } });
      const supervisor = roleCovers(session.roles, 'supervisor');
      const existing = await tx.message.findUnique({ where: { id } });
      if (existing) {
        if (existing.conversationId !== conversationId || existing.tenantId !== session.tenantId || existing.userId !== session.userId) {
          throw new AppError('conflict', 'This message id is already used');
        }
        if (existing.status === 'failed' && !existing.internal) {
          await tx.message.update({ where: { id }, data: { status: 'sending', errorMessage: null } });
          await tx.outboxJob.create({ data: { tenantId: session.tenantId, queue: queues.channelDelivery.name, payload: { tenant_uuid: session.tenantId, message_uuid: id } } });
          effects.conversation(conversationId);
        }
        return id;
      }
      if (conv.userId !== session.userId && !(internal && supervisor)) throw new AppError('forbidden', 'This conversation is not assigned to you');
      if (conv.state !== 'answered' && conv.state !== 'outbound_started') throw new AppError('conflict', 'Messages can only be sent in an active conversation');
      if (conv.state === 'outbound_started' && !internal) throw new AppError('conflict', 'You can only send messages after client interaction');
      if (input.reply_to_uuid) {
        const replied = await tx.message.findFirst({ where: { id: input.reply_to_uuid, conversationId } });
        if (!replied) throw new AppError('not_found', 'The message you reply to is not in this conversation');
        // Spec 000 §4: notes can only be answered with a note.
        if (replied.internal && replied.author === 'USER' && !internal) throw new AppError('validation_failed', 'Notas só podem ser respondidas com uma nota');
      }
      if (input.annex_uuid) {
        const annex = await tx.storedFile.findFirst({ where: { id: input.annex_uuid, tenantId: session.tenantId } });
        if (!annex) throw new AppError('not_found', 'Attachment not found');
      }
      const deliver = !internal && DELIVERABLE_CHANNEL_TYPES.has(conv.channel.type);
      const now = new Date();
      await tx.message.createMany({
        data: [{
          id, tenantId: session.tenantId, conversationId, author: 'USER', userId: session.userId, content: input.content?.trim() ?? '',
          tags: internal ? [INTERNAL_MESSAGE_TAG] : [], internal, voice: input.voice === true, replyToId: input.reply_to_uuid ?? null,
          annexId: input.annex_uuid ?? null, state: 'pending', status: deliver ? 'sending' : null, createdAt: now,
        }],
        skipDuplicates: true,
      });
      if (deliver) {
        await tx.outboxJob.create({ data: { tenantId: session.tenantId, queue: queues.channelDelivery.name, payload: { tenant_uuid: session.tenantId, message_uuid: id } } });
      }
      await tx.conversation.update({ where: { id: conversationId }, data: { lastMessageAt: now } });
      const row = await tx.message.findUniqueOrThrow({ where: { id } });
      const annex = row.annexId ? await tx.storedFile.findUnique({ where: { id: row.annexId } }) : null;
      const author = await tx.user.findUniqueOrThrow({ where: { id: session.userId }, select: { uuid: true, username: true } });
      effects.messages.push({ tenantId: session.tenantId, conversationId, holderUuid: await holderUuid(tx, conv.userId), message: presentMessage(row, { annex, user: author }) });
      return id;
    });
    const message = await this.ctx.db.message.findUniqueOrThrow({ where: { id: result } });
    return (await this.presentMany([message]))[0]!;
  }

  /** Marks the contact's messages read; the unread count is recomputed (spec 000 §4). */
  async markRead(session: Session, conversationId: string, uuids: string[]) {
    const readable = await this.readable(session, conversationId);
    // Reading a colleague's past conversation (journey) does not mark the contact's messages read.
    if (!roleCovers(session.roles, 'supervisor') && readable.userId !== session.userId) throw new AppError('forbidden', 'This conversation is not assigned to you');
    const { result } = await inTransaction(this.ctx, async (tx, effects) => {
      const updated = await tx.message.updateMany({
        where: { id: { in: uuids }, conversationId, tenantId: session.tenantId, author: 'CONTACT', state: { not: 'read' } },
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
      for (const room of conversationAudience(session.tenantId, conversationId, holder?.uuid ?? null, { includeMetrics: false })) {
        this.ctx.realtime.emit(room, 'messages-ack', payload);
      }
    }
    return result;
  }
}
