import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { AppError } from '@atende/contract';
import { countryForCallingCode, normalizePhone } from '@atende/core';
import { Prisma } from '@atende/db';
import type { AppContext } from '../../context';
import { tenantConfigOf } from '../session/session';
import { holderUuid, inTransaction, type Effects, type Tx } from '../conversations/engine';
import { presentMessage } from '../conversations/present';
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
    const channel = await this.ctx.db.channel.findFirst({ where: { id: channelId, deletedAt: null } });
    const expected = Buffer.from(channel?.inboundTokenHash ?? '0'.repeat(64), 'hex');
    const given = Buffer.from(hashToken(token || 'no-token'), 'hex');
    const ok = channel !== null && CUSTOM_CHANNEL_TYPES.has(channel.type) && token.length > 0 && expected.length === given.length && timingSafeEqual(expected, given);
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
    const tenant = await this.ctx.db.tenant.findUniqueOrThrow({ where: { id: channel.tenantId } });
    const country = countryForCallingCode(tenantConfigOf(tenant.config).default_country_code);
    const phone = input.contact.phone ? normalizePhone(input.contact.phone, country) : null;
    if (input.contact.phone && !phone && !input.contact.identifier) throw new AppError('validation_failed', 'Número de telefone inválido', [{ path: 'contact.phone', message: 'Número de telefone inválido' }]);
    const identifier = (input.contact.identifier ?? phone)!;
    const externalId = input.message.id ?? null;
    const messageId = externalId ? messageIdFor(channel.id, externalId) : randomUUID();

    const { result, effects } = await inTransaction(this.ctx, async (tx, effects) => {
      const duplicate = await tx.message.findUnique({ where: { id: messageId }, select: { conversationId: true } });
      if (duplicate) return { conversation_uuid: duplicate.conversationId, message_uuid: messageId, duplicate: true };
      const contactId = await this.contactFor(tx, channel, identifier, phone, input.contact);
      // One inbound message at a time per contact: their row lock keeps a single open conversation.
      await tx.$queryRaw`SELECT id FROM "Contact" WHERE id = ${contactId}::uuid FOR UPDATE`;
      const again = await tx.message.findUnique({ where: { id: messageId }, select: { conversationId: true } });
      if (again) return { conversation_uuid: again.conversationId, message_uuid: messageId, duplicate: true };
      const conversationId = await this.openConversation(tx, effects, channel, contactId);
      const now = new Date();
      const content = [input.message.content?.trim(), input.message.annex_url].filter(Boolean).join('\n');
      const created = await tx.message.create({
        data: { id: messageId, tenantId: channel.tenantId, conversationId, author: 'CONTACT', contactId, content, tags: [], state: 'sent', externalId, createdAt: now },
      });
      const conv = await tx.conversation.findUniqueOrThrow({ where: { id: conversationId } });
      const workspace = await tx.workspace.findUniqueOrThrow({ where: { id: conv.workspaceId } });
      const unarchive = conv.archived && workspace.archivedConversationBehaviorOnNewMessages === 'unarchive';
      await tx.conversation.update({
        where: { id: conversationId },
        data: { contactInteracted: true, lastMessageAt: now, unreadContactMessages: { increment: 1 }, ...(unarchive ? { archived: false } : {}) },
      });
      if (unarchive) await tx.conversationEvent.create({ data: { tenantId: conv.tenantId, conversationId, type: 'unarchived', detail: { done_by: 'system' } } });
      effects.messages.push({ tenantId: channel.tenantId, conversationId, holderUuid: await holderUuid(tx, conv.userId), message: presentMessage(created) });
      // The agent's list follows new-message itself; the whole conversation is re-sent only when it changed shape.
      if (unarchive) effects.conversation(conversationId);
      return { conversation_uuid: conversationId, message_uuid: messageId, duplicate: false };
    }).catch(async (error: unknown) => {
      // Two identical deliveries racing: the loser hits the primary key and answers as a duplicate.
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002' && externalId) {
        const row = await this.ctx.db.message.findUnique({ where: { id: messageId }, select: { conversationId: true } });
        if (row) return { result: { conversation_uuid: row.conversationId, message_uuid: messageId, duplicate: true }, effects: null };
      }
      throw error;
    });
    if (effects) await this.conversations.redistribute(effects);
    return result;
  }

  private async contactFor(tx: Tx, channel: { id: string; tenantId: string }, identifier: string, phone: string | null, c: InboundInput['contact']): Promise<string> {
    const known = await tx.contactIdentity.findUnique({ where: { channelId_identifier: { channelId: channel.id, identifier } } });
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
