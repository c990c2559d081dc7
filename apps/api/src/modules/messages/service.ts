import { randomUUID } from 'node:crypto';
import {
  AppError,
  capabilitiesOf,
  INTERNAL_MESSAGE_TAG,
  MESSAGES_UNTIL_MAX,
  PROVIDER_CHANNEL_TYPES,
  type Message as MessageDto,
} from '@atende/contract';
import { conversationAudience, inTransaction, presentMessage } from '@atende/conversations';
import { channelKind, roleCovers } from '@atende/core';
import {
  contactMessageStates,
  conversationHolderUuid,
  conversationWithChannel,
  countMessagesSince,
  findMessage,
  findStoredFile,
  insertAgentMessage,
  lockConversationForAgentMessage,
  markContactMessagesRead,
  messageAnnexesAndAuthors,
  messageById,
  messageCreatedAt,
  newestMessages,
  queueMessageResend,
  replyTarget,
  type MessageRow,
} from '@atende/db';
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
  /** E-mail: a subject of the agent's own (a new thread). */
  subject?: string;
}

export class MessageService {
  constructor(private readonly ctx: AppContext) {}

  private async presentMany(rows: MessageRow[]): Promise<MessageDto[]> {
    const annexIds = rows.map((m) => m.annexId).filter((v): v is string => v !== null);
    const userIds = rows.map((m) => m.userId).filter((v): v is number => v !== null);
    const { annexes, users } = await messageAnnexesAndAuthors(this.ctx.db, annexIds, userIds);
    return rows.map((m) =>
      presentMessage(m, { annex: annexes.find((a) => a.id === m.annexId) ?? null, user: users.find((u) => u.id === m.userId) ?? null }),
    );
  }

  /** The conversation, if the caller may read it: its agent, or a supervisor-level user. */
  private async readable(session: Session, conversationId: string) {
    const conv = await conversationWithChannel(this.ctx.db, session.tenantId, conversationId);
    if (!conv || !(await mayRead(this.ctx.db, session, conv))) throw new AppError('conversation_not_found', 'Conversation not found');
    return conv;
  }

  async list(session: Session, conversationId: string, q: { _limit: number; before?: string; until?: string }) {
    await this.readable(session, conversationId);
    const createdAtOf = async (id: string) => {
      const anchor = await messageCreatedAt(this.ctx.db, session.tenantId, conversationId, id);
      if (!anchor) throw new AppError('message_not_found', 'Message not found');
      return anchor;
    };
    const before = q.before ? await createdAtOf(q.before) : undefined;
    let limit = q._limit;
    if (q.until) {
      // Reach back to the message a link or a quote points at, in one page.
      const until = await createdAtOf(q.until);
      const between = await countMessagesSince(this.ctx.db, session.tenantId, conversationId, until, before);
      limit = Math.min(MESSAGES_UNTIL_MAX, Math.max(limit, between));
    }
    const rows = await newestMessages(this.ctx.db, session.tenantId, conversationId, limit + 1, before);
    const hasMore = rows.length > limit;
    return { data: await this.presentMany(rows.slice(0, limit).reverse()), has_more: hasMore };
  }

  async get(session: Session, id: string) {
    const m = await findMessage(this.ctx.db, session.tenantId, id);
    if (!m) throw new AppError('message_not_found', 'Message not found');
    await this.readable(session, m.conversationId).catch(() => {
      throw new AppError('message_not_found', 'Message not found');
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
    if (internal && session.tenantConfig.features.internal_note !== true)
      throw new AppError('internal_notes_disabled', 'Internal notes are not enabled for this tenant');
    // Few round trips (every agent message passes here): the conversation is locked and read with
    // what the checks and the announcement need in one query, and the new message is presented
    // from the values written rather than read back.
    const { result } = await inTransaction(
      this.ctx,
      async (tx, effects): Promise<{ existing: true } | { existing: false; message: MessageDto }> => {
        const conv = await lockConversationForAgentMessage(tx, session.tenantId, conversationId, session.userId, id);
        if (!conv) throw new AppError('conversation_not_found', 'Conversation not found');
        const supervisor = roleCovers(session.roles, 'supervisor');
        const resend = async (): Promise<{ existing: true }> => {
          const existing = await messageById(tx, id);
          if (existing.conversationId !== conversationId || existing.tenantId !== session.tenantId || existing.userId !== session.userId) {
            throw new AppError('message_id_taken', 'This message id is already used');
          }
          if (existing.status === 'failed' && !existing.internal) {
            // The agent's knowing resend: posted again even if an earlier attempt may have delivered it.
            await queueMessageResend(tx, session.tenantId, id);
            effects.conversation(conversationId);
          }
          return { existing: true };
        };
        if (conv.existing) return resend();
        if (conv.userId !== session.userId && !(internal && supervisor))
          throw new AppError('conversation_not_yours', 'This conversation is not assigned to you');
        // state::text is the database label (outbound-started).
        if (conv.state !== 'answered' && conv.state !== 'outbound-started')
          throw new AppError('conversation_not_active', 'Messages can only be sent in an active conversation');
        if (conv.state === 'outbound-started' && !internal)
          throw new AppError('conversation_awaiting_client', 'You can only send messages after client interaction');
        // A subject goes only on an e-mail to the contact: there it starts a new thread under it.
        if (input.subject !== undefined && (internal || !capabilitiesOf(conv.channelType)?.subjects))
          throw new AppError('subject_not_allowed', 'Only an e-mail to the contact takes a subject');
        if (input.reply_to_uuid) {
          const replied = await replyTarget(tx, conversationId, input.reply_to_uuid);
          if (!replied) throw new AppError('reply_target_not_found', 'The message you reply to is not in this conversation');
          // Notes can only be answered with a note.
          if (replied.internal && replied.author === 'USER' && !internal)
            throw new AppError('note_reply_note_only', 'Notas só podem ser respondidas com uma nota');
        }
        const annex = input.annex_uuid ? await findStoredFile(tx, session.tenantId, input.annex_uuid) : null;
        if (input.annex_uuid && !annex) throw new AppError('attachment_not_found', 'Attachment not found');
        const deliver = !internal && isDeliverable(conv.channelType);
        const now = new Date();
        const row: MessageRow = {
          id,
          tenantId: session.tenantId,
          conversationId,
          author: 'USER',
          userId: session.userId,
          contactId: null,
          content: input.content?.trim() ?? '',
          tags: internal ? [INTERNAL_MESSAGE_TAG] : [],
          internal,
          voice: input.voice === true,
          replyToId: input.reply_to_uuid ?? null,
          annexId: input.annex_uuid ?? null,
          state: 'pending',
          status: deliver ? 'sending' : null,
          templateMessage: null,
          interactiveContent: input.subject ? { type: 'email', subject: input.subject } : null,
          externalId: null,
          errorMessage: null,
          postedAt: null,
          createdAt: now,
          updatedAt: now,
        };
        // The message, its delivery job (outbox, same transaction) and the conversation's last activity in one statement.
        const inserted = await insertAgentMessage(tx, row, deliver);
        // A send with the same uuid committed while this one waited for the lock (the lock query's
        // snapshot predates it): answer as for any existing uuid.
        if (!inserted) return resend();
        const message = presentMessage(row, { annex, user: { uuid: session.userUuid, username: conv.author ?? '' } });
        effects.messages.push({ tenantId: session.tenantId, conversationId, holderUuid: conv.holder, message });
        return { existing: false, message };
      },
    );
    if (!result.existing) return result.message;
    const message = await messageById(this.ctx.db, id);
    return (await this.presentMany([message]))[0]!;
  }

  /** Marks the contact's messages read; the unread count is recomputed. */
  async markRead(session: Session, conversationId: string, uuids: string[]) {
    const readable = await this.readable(session, conversationId);
    // Reading a colleague's past conversation (journey) does not mark the contact's messages read.
    if (!roleCovers(session.roles, 'supervisor') && readable.userId !== session.userId)
      throw new AppError('conversation_not_yours', 'This conversation is not assigned to you');
    const { result } = await inTransaction(this.ctx, async (tx, effects) => {
      // Reading messages reads the contact's earlier ones too: a chat opened with 71 unread shows its
      // newest 50; the 21 before them are behind what the agent read, not unread.
      const { updated, unread } = await markContactMessagesRead(tx, session.tenantId, conversationId, uuids);
      effects.conversation(conversationId);
      return { updated, unread_contact_messages: unread };
    });
    const holder = await conversationHolderUuid(this.ctx.db, conversationId);
    const acked = await contactMessageStates(this.ctx.db, conversationId, uuids);
    if (acked.length) {
      const payload = {
        tenant_uuid: session.tenantId,
        conversation_uuid: conversationId,
        messages: acked.map((m) => ({
          uuid: m.id,
          state: m.state,
          status: m.status === 'sending' || m.status === 'failed' ? (m.status as 'sending' | 'failed') : null,
        })),
      };
      this.ctx.realtime.emit(
        conversationAudience(session.tenantId, conversationId, holder, { includeMetrics: false }),
        'messages-ack',
        payload,
      );
    }
    return result;
  }
}
