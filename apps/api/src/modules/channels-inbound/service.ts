import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { AppError } from '@atende/contract';
import { announceCommitted, Effects, inTransaction, presentMessage, type Tx } from '@atende/conversations';
import { countryForCallingCode, normalizePhone, tenantConfigOf } from '@atende/core';
import { Prisma } from '@atende/db';
import type { AppContext } from '../../context';
import type { ConversationService } from '../conversations/service';

export const CUSTOM_CHANNEL_TYPES = new Set(['custom', 'droz', 'API']);
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A stable uuid for (channel, provider message id): duplicate deliveries map to the same row. */
function messageIdFor(channelId: string, externalId: string): string {
  const h = createHash('sha256').update(`${channelId}:${externalId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}

export interface InboundInput {
  contact: { phone?: string; identifier?: string; name?: string; email?: string };
  message: { id?: string; content?: string; annex_url?: string };
}

/** Next ticket number of a tenant, taken in the caller's transaction. */
export async function nextTicketNumber(tx: Tx, tenantId: string): Promise<number> {
  const [row] = await tx.$queryRaw<{ ticketCounter: number }[]>`
    UPDATE "Tenant" SET "ticketCounter" = "ticketCounter" + 1 WHERE id = ${tenantId}::uuid RETURNING "ticketCounter"`;
  if (!row) throw new AppError('not_found', 'Tenant not found');
  return row.ticketCounter;
}

export class InboundService {
  constructor(
    private readonly ctx: AppContext,
    private readonly conversations: ConversationService,
  ) {}

  /** Authenticates the caller by the channel's token; unknown channel and bad token look the same. */
  private async channel(channelId: string, authorization: string | undefined) {
    const token = authorization?.toLowerCase().startsWith('bearer ') ? authorization.slice(7).trim() : '';
    const [channel] = await this.ctx.db.$queryRaw<
      { id: string; tenantId: string; workspaceId: string; type: string; enabled: boolean; entrySectorId: string | null; inboundTokenHash: string | null; tenantConfig: unknown }[]
    >`SELECT c.id, c."tenantId", c."workspaceId", c.type, c.enabled, c."entrySectorId", c."inboundTokenHash", t.config AS "tenantConfig"
      FROM "Channel" c JOIN "Tenant" t ON t.id = c."tenantId" WHERE c.id = ${channelId}::uuid AND c."deletedAt" IS NULL`;
    const expected = Buffer.from(channel?.inboundTokenHash ?? '0'.repeat(64), 'hex');
    const given = Buffer.from(hashToken(token || 'no-token'), 'hex');
    const ok = channel !== undefined && CUSTOM_CHANNEL_TYPES.has(channel.type) && token.length > 0 && expected.length === given.length && timingSafeEqual(expected, given);
    if (!ok || !channel) throw new AppError('unauthorized', 'Invalid channel or token');
    if (!channel.enabled) throw new AppError('forbidden', 'This channel is disabled');
    return channel;
  }

  /**
   * A contact's message on a custom channel (issue 3): finds or creates the contact, appends to
   * their open conversation on this channel or opens one in the entry sector's queue, and runs
   * distribution. Idempotent by the sender's message id.
   */
  async receive(channelId: string, authorization: string | undefined, input: InboundInput) {
    const channel = await this.channel(channelId, authorization);
    const country = countryForCallingCode(tenantConfigOf(channel.tenantConfig).default_country_code);
    const phone = input.contact.phone ? normalizePhone(input.contact.phone, country) : null;
    if (input.contact.phone && !phone && !input.contact.identifier) throw new AppError('validation_failed', 'Número de telefone inválido', [{ path: 'contact.phone', message: 'Número de telefone inválido' }]);
    const identifier = (input.contact.identifier ?? phone)!;
    const externalId = input.message.id ?? null;
    const messageId = externalId ? messageIdFor(channel.id, externalId) : randomUUID();
    const content = [input.message.content?.trim(), input.message.annex_url].filter(Boolean).join('\n');
    const contactMessage = (conversationId: string, contactId: string, at: Date) =>
      presentMessage({
        id: messageId, tenantId: channel.tenantId, conversationId, author: 'CONTACT', userId: null, contactId, content, tags: [], state: 'sent', status: null,
        internal: false, voice: false, replyToId: null, annexId: null, templateMessage: null, interactiveContent: null, externalId, errorMessage: null,
        createdAt: at, updatedAt: at,
      });

    const appended = await this.appendToOpenConversation(channel, identifier, messageId, externalId, content);
    if (appended) {
      const effects = new Effects();
      if (appended.unarchived || appended.replied) effects.conversation(appended.conversationId);
      effects.messages.push({ tenantId: channel.tenantId, conversationId: appended.conversationId, holderUuid: appended.holder, message: contactMessage(appended.conversationId, appended.contactId, appended.at) });
      await announceCommitted(this.ctx, effects);
      return { conversation_uuid: appended.conversationId, message_uuid: messageId, duplicate: false };
    }

    const { result, effects } = await inTransaction(this.ctx, async (tx, effects) => {
      // Hot path in plain SQL (few round trips): this endpoint takes every contact message.
      const contactId = await this.contactFor(tx, channel, identifier, phone, input.contact);
      // One inbound message at a time per contact: their row lock keeps a single open conversation.
      const [found] = await tx.$queryRaw<{ dup: string | null; open: string | null }[]>`
        SELECT (SELECT m."conversationId" FROM "Message" m WHERE m.id = ${messageId}::uuid) AS dup,
               (SELECT c.id FROM "Conversation" c WHERE c."tenantId" = ${channel.tenantId}::uuid AND c."channelId" = ${channel.id}::uuid
                  AND c."contactId" = ct.id AND c.state <> 'closed'::"ConversationState" ORDER BY c."createdAt" DESC LIMIT 1) AS open
        FROM "Contact" ct WHERE ct.id = ${contactId}::uuid FOR UPDATE OF ct`;
      if (found?.dup) return { conversation_uuid: found.dup, message_uuid: messageId, duplicate: true };
      const conversationId = found?.open ?? (await this.openConversation(tx, effects, channel, contactId));
      const now = new Date();
      await tx.$executeRaw`
        INSERT INTO "Message" (id, "tenantId", "conversationId", author, "contactId", content, tags, state, "externalId", "createdAt", "updatedAt")
        VALUES (${messageId}::uuid, ${channel.tenantId}::uuid, ${conversationId}::uuid, 'CONTACT'::"MessageAuthor", ${contactId}::uuid, ${content},
                ARRAY[]::text[], 'sent'::"MessageState", ${externalId}, ${now}, ${now})`;
      const [conv] = await tx.$queryRaw<{ tenantId: string; unarchived: boolean; replied: boolean; holder: string | null }[]>`
        WITH before AS (SELECT c.archived, c.state, w."archivedConversationBehaviorOnNewMessages" AS behaviour FROM "Conversation" c
                        JOIN "Workspace" w ON w.id = c."workspaceId" WHERE c.id = ${conversationId}::uuid)
        UPDATE "Conversation" c SET "contactInteracted" = true, "lastMessageAt" = ${now}, "unreadContactMessages" = c."unreadContactMessages" + 1,
               archived = CASE WHEN before.archived AND before.behaviour = 'unarchive' THEN false ELSE c.archived END, "updatedAt" = ${now},
               -- spec 000 §4: an outbound conversation becomes a normal one once the contact answers.
               state = CASE WHEN c.state = 'outbound-started'::"ConversationState" THEN 'answered'::"ConversationState" ELSE c.state END
        FROM before WHERE c.id = ${conversationId}::uuid
        RETURNING c."tenantId", (before.archived AND NOT c.archived) AS unarchived, (before.state = 'outbound-started'::"ConversationState") AS replied,
                  (SELECT u.uuid::text FROM "User" u WHERE u.id = c."userId") AS holder`;
      if (!conv) throw new AppError('not_found', 'Conversation not found');
      if (conv.unarchived) {
        await tx.conversationEvent.create({ data: { tenantId: conv.tenantId, conversationId, type: 'unarchived', detail: { done_by: 'system' } } });
      }
      if (conv.unarchived || conv.replied) effects.conversation(conversationId);
      // The agent's list follows new-message itself; the whole conversation is re-sent only when it changed shape.
      effects.messages.push({ tenantId: channel.tenantId, conversationId, holderUuid: conv.holder, message: contactMessage(conversationId, contactId, now) });
      return { conversation_uuid: conversationId, message_uuid: messageId, duplicate: false };
    }).catch(async (error: unknown) => {
      // Two identical deliveries racing: the loser hits the primary key and answers as a duplicate.
      if (error instanceof Prisma.PrismaClientKnownRequestError && (error.code === 'P2002' || error.code === 'P2010') && externalId) {
        const row = await this.ctx.db.message.findUnique({ where: { id: messageId }, select: { conversationId: true } });
        if (row) return { result: { conversation_uuid: row.conversationId, message_uuid: messageId, duplicate: true }, effects: null };
      }
      throw error;
    });
    if (effects) await this.conversations.redistribute(effects);
    return result;
  }

  /**
   * The common case in one atomic statement (no transaction round trips): a known contact writing
   * to their open conversation on this channel. Appends the message and updates the conversation
   * exactly as the transaction below does; answers null, having changed nothing, when the contact
   * or the open conversation is new or the message id already exists, so the full path decides.
   */
  private async appendToOpenConversation(channel: { id: string; tenantId: string }, identifier: string, messageId: string, externalId: string | null, content: string) {
    const at = new Date();
    const [row] = await this.ctx.db.$queryRaw<{ conversationId: string; contactId: string; at: Date; unarchived: boolean; replied: boolean; holder: string | null }[]>`
      WITH target AS (
        SELECT c.id, c."contactId", c.archived, c.state, w."archivedConversationBehaviorOnNewMessages" AS behaviour
        FROM "ContactIdentity" ci
        JOIN "Conversation" c ON c."tenantId" = ${channel.tenantId}::uuid AND c."channelId" = ci."channelId" AND c."contactId" = ci."contactId" AND c.state <> 'closed'::"ConversationState"
        JOIN "Workspace" w ON w.id = c."workspaceId"
        WHERE ci."channelId" = ${channel.id}::uuid AND ci.identifier = ${identifier}
        ORDER BY c."createdAt" DESC LIMIT 1
      ), inserted AS (
        INSERT INTO "Message" (id, "tenantId", "conversationId", author, "contactId", content, tags, state, "externalId", "createdAt", "updatedAt")
        SELECT ${messageId}::uuid, ${channel.tenantId}::uuid, target.id, 'CONTACT'::"MessageAuthor", target."contactId", ${content},
               ARRAY[]::text[], 'sent'::"MessageState", ${externalId}, ${at}, ${at}
        FROM target
        ON CONFLICT (id) DO NOTHING
        RETURNING "conversationId", "createdAt"
      ), updated AS (
        UPDATE "Conversation" c SET "contactInteracted" = true, "lastMessageAt" = inserted."createdAt", "unreadContactMessages" = c."unreadContactMessages" + 1,
               archived = CASE WHEN target.archived AND target.behaviour = 'unarchive' THEN false ELSE c.archived END, "updatedAt" = inserted."createdAt",
               -- spec 000 §4: an outbound conversation becomes a normal one once the contact answers.
               state = CASE WHEN c.state = 'outbound-started'::"ConversationState" THEN 'answered'::"ConversationState" ELSE c.state END
        FROM inserted, target WHERE c.id = inserted."conversationId"
        RETURNING c.id, c."tenantId", c."contactId", c."userId", inserted."createdAt" AS at,
                  (target.archived AND NOT c.archived) AS unarchived, (target.state = 'outbound-started'::"ConversationState") AS replied
      ), unarchived AS (
        INSERT INTO "ConversationEvent" (id, "tenantId", "conversationId", type, detail, at)
        SELECT gen_random_uuid(), updated."tenantId", updated.id, 'unarchived', '{"done_by":"system"}'::jsonb, updated.at FROM updated WHERE updated.unarchived
      )
      SELECT updated.id AS "conversationId", updated."contactId", updated.at, updated.unarchived, updated.replied,
             (SELECT u.uuid::text FROM "User" u WHERE u.id = updated."userId") AS holder
      FROM updated`;
    return row ?? null;
  }

  private async contactFor(tx: Tx, channel: { id: string; tenantId: string }, identifier: string, phone: string | null, c: InboundInput['contact']): Promise<string> {
    const [known] = await tx.$queryRaw<{ contactId: string }[]>`
      SELECT "contactId" FROM "ContactIdentity" WHERE "channelId" = ${channel.id}::uuid AND identifier = ${identifier}`;
    if (known) return known.contactId;
    const byPhone = phone ? await tx.contact.findFirst({ where: { tenantId: channel.tenantId, phoneNumber: phone, deletedAt: null }, select: { id: true } }) : null;
    const contactId =
      byPhone?.id ??
      (await tx.contact.create({ data: { tenantId: channel.tenantId, name: c.name?.trim() || phone || identifier, phoneNumber: phone, email: c.email?.trim().toLowerCase() || null } })).id;
    await tx.$executeRaw`
      INSERT INTO "ContactIdentity" (id, "tenantId", "channelId", identifier, "contactId")
      VALUES (gen_random_uuid(), ${channel.tenantId}::uuid, ${channel.id}::uuid, ${identifier}, ${contactId}::uuid)
      ON CONFLICT ("channelId", identifier) DO NOTHING`;
    const identity = await tx.contactIdentity.findUniqueOrThrow({ where: { channelId_identifier: { channelId: channel.id, identifier } } });
    return identity.contactId;
  }

  private async openConversation(tx: Tx, effects: Effects, channel: { id: string; tenantId: string; workspaceId: string; entrySectorId: string | null }, contactId: string): Promise<string> {
    const open = await tx.conversation.findFirst({
      where: { tenantId: channel.tenantId, channelId: channel.id, contactId, state: { not: 'closed' } },
      orderBy: { createdAt: 'desc' },
      select: { id: true },
    });
    if (open) return open.id;
    const ticketNumber = await nextTicketNumber(tx, channel.tenantId);
    const conv = await tx.conversation.create({
      data: { tenantId: channel.tenantId, workspaceId: channel.workspaceId, contactId, channelId: channel.id, sectorId: channel.entrySectorId, state: 'waiting', ticketNumber },
    });
    await tx.conversationEvent.create({ data: { tenantId: channel.tenantId, conversationId: conv.id, type: 'enter-queue', detail: { event: 'new-conversation' } } });
    effects.conversation(conv.id, true);
    effects.queueChanged(channel.tenantId, channel.workspaceId);
    return conv.id;
  }
}
