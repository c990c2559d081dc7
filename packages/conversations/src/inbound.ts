import { createHash, randomUUID } from 'node:crypto';
import { AppError, fieldMessage, QueuedChannelMessage, type Message as MessageDto } from '@atende/contract';
import { countryForCallingCode, normalizePhone, phoneVariants, storableStrings, tenantConfigOf } from '@atende/core';
import {
  addConversationEvent,
  appendContactMessageToOpen,
  contactForIdentity,
  conversationOfMessage,
  createConversation,
  insertContactMessage,
  lockContactForMessage,
  lockOpenConversation,
  Prisma,
  takeTicketNumber,
  touchConversationForContactMessage,
  type ContactMessage,
} from '@atende/db';
import type { ConversationDeps } from './deps';
import { announceCommitted, Effects, inTransaction, type Tx } from './engine';
import { replyOutOfHours } from './out-of-hours';
import { redistribute } from './presence';
import { presentMessage, type AnnexRow } from './present';
import { answerPendingSurvey } from './surveys';
import { queueBotStep } from './bots';
import { runMenuStep, sendMenu } from './menus';
import { decideEntry, openingFor, type MenuRow, type Opening } from './conversation-entry';
import {
  afterCampaignReply,
  findCampaignReply,
  recordCampaignReply,
  recordReplyInOpenConversation,
  runReplyActionStep,
} from './reply-actions';
import { announceTicket } from './ticket';

/** A stable uuid for (channel, provider message id): duplicate deliveries map to the same row. */
export function messageIdFor(channelId: string, externalId: string): string {
  const h = createHash('sha256').update(`${channelId}:${externalId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}

export interface InboundInput {
  /** `fields`: extra contact fields set when the contact is created (a Telegram username). */
  contact: { phone?: string; identifier?: string; name?: string; email?: string; fields?: Record<string, string> };
  message: {
    id?: string;
    /** The message's uuid when it has no provider id (the custom channel's answer already named it). */
    uuid?: string;
    /**
     * When the channel accepted the message (the api's receive time of the webhook or post):
     * messages are stored in that order, not in the order the worker's parallel jobs reach them.
     */
    at?: Date;
    content?: string;
    annex_url?: string;
    /** The StoredFile of this tenant already holding the message's media (provider webhooks). */
    annex?: AnnexRow;
    /** A recorded voice note (Telegram voice): shown to the agent as one. */
    voice?: boolean;
    /** What a contact pressed (a template's quick reply): kept on the message for reply actions. */
    interactive?: { type: 'button'; text: string; payload: string | null; context_id: string | null };
    /** The provider id of the message this one quotes (WhatsApp context.id), button or not: which campaign a reply answers. */
    context_id?: string | null;
    /** Provider details kept on the message when it is no button reply (an e-mail's subject and threading headers). */
    details?: Record<string, unknown>;
  };
  /**
   * The open conversation the message's thread is in (an e-mail answering a mail of it, found by its
   * In-Reply-To and References): the message joins it even when another person sent it (a colleague
   * in copy), instead of opening a conversation of its own.
   */
  thread?: string | null;
}

/** Next ticket number of a tenant, taken in the caller's transaction. */
export async function nextTicketNumber(tx: Tx, tenantId: string): Promise<number> {
  const ticketNumber = await takeTicketNumber(tx, tenantId);
  if (ticketNumber === null) throw new AppError('tenant_not_found', 'Tenant not found');
  return ticketNumber;
}

/** The country national numbers are read in, per stored tenant config object (a remembered channel row reuses one). */
type Country = ReturnType<typeof countryForCallingCode>;
const countries = new WeakMap<object, Country>();
function tenantCountry(config: unknown): Country {
  const known = config && typeof config === 'object' ? countries.get(config) : undefined;
  if (known) return known;
  const country = countryForCallingCode(tenantConfigOf(config).default_country_code);
  if (config && typeof config === 'object') countries.set(config, country);
  return country;
}

/**
 * The contact's phone in international form, read in the tenant's country; null without one. A
 * number that is no phone, given without another identity, is refused (phone_invalid): the custom
 * channel checks it before queuing a message, so its caller hears of it.
 */
export function contactPhone(channel: { tenantConfig: unknown }, contact: InboundInput['contact']): string | null {
  const phone = contact.phone ? normalizePhone(contact.phone, tenantCountry(channel.tenantConfig)) : null;
  if (contact.phone && !phone && !contact.identifier)
    throw new AppError('phone_invalid', 'Número de telefone inválido', [{ path: 'contact.phone', message: fieldMessage('phone_invalid') }]);
  return phone;
}

/** The channel a contact's message arrived on, already authenticated by its caller. */
export interface InboundChannel {
  id: string;
  tenantId: string;
  workspaceId: string;
  entrySectorId: string | null;
  /** An automated menu greeting new conversations (state bot) instead of the queue. */
  entryMenuId?: string | null;
  /** A bot greeting new conversations (state bot), when no menu does. */
  entryBotId?: string | null;
  tenantConfig: unknown;
}

export interface InboundResult {
  conversation_uuid: string;
  message_uuid: string;
  duplicate: boolean;
}

/**
 * A contact's message on any channel (custom API channel requests, provider webhooks processed by
 * the worker): finds or creates the contact, then exactly one entry step handles the message
 * (conversation-entry.ts decideEntry): their open conversation's holder, a campaign's reply action,
 * a campaign's entry point or the channel's entry point; then distribution runs. Idempotent by the
 * provider's message id. Runs in the api and in the worker alike.
 */
export class InboundReceiver {
  constructor(private readonly ctx: ConversationDeps) {}

  async receive(channel: InboundChannel, input: InboundInput): Promise<InboundResult> {
    const phone = contactPhone(channel, input.contact);
    const identifier = (input.contact.identifier ?? phone)!;
    const externalId = input.message.id ?? null;
    const messageId = externalId ? messageIdFor(channel.id, externalId) : (input.message.uuid ?? randomUUID());
    const accepted = input.message.at ?? new Date();
    const content = [input.message.content?.trim(), input.message.annex_url].filter(Boolean).join('\n');
    const annexId = input.message.annex?.id ?? null;
    const interactive = input.message.interactive ?? null;
    const stored: object | null = interactive ?? input.message.details ?? null;
    const interactiveJson = stored ? JSON.stringify(stored) : null;
    const voice = input.message.voice === true && annexId !== null;
    const contactMessage = (conversationId: string, contactId: string, at: Date) =>
      presentMessage(
        {
          id: messageId,
          tenantId: channel.tenantId,
          conversationId,
          author: 'CONTACT',
          userId: null,
          contactId,
          content,
          tags: [],
          state: 'sent',
          status: null,
          internal: false,
          voice,
          replyToId: null,
          annexId,
          templateMessage: null,
          interactiveContent: stored,
          externalId,
          errorMessage: null,
          postedAt: null,
          createdAt: at,
          updatedAt: at,
        },
        { annex: input.message.annex ?? null },
      );

    // The message's step (conversation-entry.ts decideEntry): an open conversation holds it, else it opens one.
    const replyLookup = phone
      ? {
          tenantId: channel.tenantId,
          channelId: channel.id,
          phone,
          button: interactive?.text ?? null,
          contextExternalId: input.message.context_id ?? interactive?.context_id ?? null,
        }
      : null;
    const messageRow = (at: Date): ContactMessage => ({
      id: messageId,
      tenantId: channel.tenantId,
      content,
      tags: [],
      externalId,
      annexId,
      interactiveJson,
      voice,
      at,
    });
    if (input.thread) {
      const joined = await this.joinThread(channel, input, input.thread, { phone, identifier, row: messageRow(accepted), contactMessage });
      if (joined) return joined;
    }
    const appended = await appendContactMessageToOpen(
      this.ctx.db,
      channel.id,
      identifier,
      messageRow(accepted),
      phone ? phoneVariants(phone) : [],
    );
    if (appended) {
      const effects = new Effects();
      if (appended.unarchived || appended.replied) effects.conversation(appended.conversationId);
      effects.messages.push({
        tenantId: channel.tenantId,
        conversationId: appended.conversationId,
        holderUuid: appended.holder,
        message: contactMessage(appended.conversationId, appended.contactId, appended.at),
      });
      await announceCommitted(this.ctx, effects);
      // Rule 1 (holder): a campaign answered here is recorded, its action not run.
      if (appended.answersCampaign && replyLookup) {
        await recordReplyInOpenConversation(
          this.ctx,
          replyLookup,
          { id: appended.conversationId, tenantId: channel.tenantId, contactId: appended.contactId },
          content,
        );
      }
      if (appended.bot && !appended.botFlow) await runMenuStep(this.ctx, appended.conversationId, content);
      if (appended.hoursMayReply) await this.outOfHours(appended.conversationId);
      return { conversation_uuid: appended.conversationId, message_uuid: messageId, duplicate: false };
    }
    // No open conversation: the message may answer the survey sent when the last one was finished.
    const surveyAnswer = await answerPendingSurvey(this.ctx, {
      tenantId: channel.tenantId,
      channelId: channel.id,
      identifier,
      messageId,
      externalId,
      content,
    });
    if (surveyAnswer) return { conversation_uuid: surveyAnswer.conversationId, message_uuid: messageId, duplicate: surveyAnswer.duplicate };

    const { result, effects } = await inTransaction(this.ctx, async (tx, effects) => {
      // Hot path in plain SQL (few round trips): this endpoint takes every contact message.
      const contactId = await this.contactFor(tx, channel, identifier, phone, input.contact);
      // One inbound message at a time per contact: their row lock keeps a single open conversation.
      const found = await lockContactForMessage(tx, channel.tenantId, channel.id, contactId, messageId);
      if (found?.dup) return { conversation_uuid: found.dup, message_uuid: messageId, duplicate: true, campaignId: null };
      // One step handles the message (conversation-entry.ts): the open conversation's holder, a
      // campaign's reply action, a campaign's entry point, or the channel's entry point.
      const reply = replyLookup ? await findCampaignReply(tx, replyLookup) : null;
      const step = decideEntry({ open: Boolean(found?.open), reply });
      const opened =
        step.kind === 'holder'
          ? null
          : await this.openConversation(
              tx,
              effects,
              channel,
              await openingFor(tx, channel.tenantId, channel, step, reply?.entry ?? null),
              contactId,
            );
      const conversationId = found?.open ?? opened!.id;
      const menu = opened?.menu ?? null;
      const now = accepted;
      await insertContactMessage(tx, messageRow(now), conversationId, contactId, 'fail');
      const conv = await touchConversationForContactMessage(tx, conversationId, now);
      if (!conv) throw new AppError('conversation_not_found', 'Conversation not found');
      if (reply) {
        await recordCampaignReply(
          tx,
          effects,
          reply,
          { id: conversationId, tenantId: channel.tenantId, contactId },
          content,
          opened !== null,
        );
        // The reply action's words follow the contact's message.
        if (opened && step.kind === 'reply_action')
          await runReplyActionStep(
            tx,
            effects,
            step.action,
            { id: conversationId, tenantId: channel.tenantId, workspaceId: channel.workspaceId },
            new Date(now.getTime() + 1),
          );
      }
      // A new conversation straight into a sector's queue: its ticket announcement follows the message (and a reply action's words).
      if (opened?.queued)
        await announceTicket(
          tx,
          effects,
          { id: conversationId, tenantId: channel.tenantId, ...opened.queued },
          new Date(now.getTime() + 2),
        );
      // The menu answers the contact's first message, so it follows it.
      if (menu) {
        await sendMenu(tx, effects, { tenantId: channel.tenantId, conversationId }, menu, new Date(now.getTime() + 1));
      }
      // A bot reads the message in the worker (its HTTP nodes may take seconds); the job commits with it.
      if (conv.bot && conv.botFlow && !opened) await queueBotStep(tx, channel.tenantId, conversationId);
      if (conv.unarchived) {
        await addConversationEvent(tx, { id: conversationId, tenantId: conv.tenantId }, 'unarchived', { done_by: 'system' });
      }
      if (conv.unarchived || conv.replied) effects.conversation(conversationId);
      // The agent's list follows new-message itself; the whole conversation is re-sent only when it changed shape.
      effects.messages.push({
        tenantId: channel.tenantId,
        conversationId,
        holderUuid: conv.holder,
        message: contactMessage(conversationId, contactId, now),
      });
      return {
        conversation_uuid: conversationId,
        message_uuid: messageId,
        duplicate: false,
        menuStep: conv.bot && !conv.botFlow && !opened,
        campaignId: reply?.campaignId ?? null,
      };
    }).catch(async (error: unknown) => {
      // Two identical deliveries racing: the loser hits the primary key and answers as a duplicate.
      if (error instanceof Prisma.PrismaClientKnownRequestError && (error.code === 'P2002' || error.code === 'P2010') && externalId) {
        const existing = await conversationOfMessage(this.ctx.db, messageId);
        if (existing)
          return { result: { conversation_uuid: existing, message_uuid: messageId, duplicate: true, campaignId: null }, effects: null };
      }
      throw error;
    });
    if (effects) await redistribute(this.ctx, effects);
    if (result.campaignId) await afterCampaignReply(this.ctx, result.campaignId);
    // A reply to a menu already talking to the contact (the greeting itself went out with the new conversation).
    if ('menuStep' in result && result.menuStep) await runMenuStep(this.ctx, result.conversation_uuid, content);
    if (!result.duplicate) await this.outOfHours(result.conversation_uuid);
    return { conversation_uuid: result.conversation_uuid, message_uuid: result.message_uuid, duplicate: result.duplicate };
  }

  /**
   * A message of another person joining the open conversation of the thread it answers (receive's
   * `thread`): stored as that person's message in it, the conversation told as for any contact
   * message. Null when the conversation is closed meanwhile or is the sender's own: the usual path
   * then takes the message.
   */
  private async joinThread(
    channel: InboundChannel,
    input: InboundInput,
    conversationId: string,
    m: {
      phone: string | null;
      identifier: string;
      row: ContactMessage;
      contactMessage: (conversationId: string, contactId: string, at: Date) => MessageDto;
    },
  ): Promise<InboundResult | null> {
    const { result } = await inTransaction(this.ctx, async (tx, effects): Promise<InboundResult | null> => {
      const open = await lockOpenConversation(tx, conversationId);
      if (!open) return null;
      const contactId = await this.contactFor(tx, channel, m.identifier, m.phone, input.contact);
      if (contactId === open.contactId) return null;
      if (!(await insertContactMessage(tx, m.row, conversationId, contactId, 'skip')))
        return { conversation_uuid: conversationId, message_uuid: m.row.id, duplicate: true };
      const conv = await touchConversationForContactMessage(tx, conversationId, m.row.at);
      if (!conv) return null;
      if (conv.unarchived) {
        await addConversationEvent(tx, { id: conversationId, tenantId: conv.tenantId }, 'unarchived', { done_by: 'system' });
        effects.conversation(conversationId);
      }
      effects.messages.push({
        tenantId: channel.tenantId,
        conversationId,
        holderUuid: conv.holder,
        message: m.contactMessage(conversationId, contactId, m.row.at),
      });
      return { conversation_uuid: conversationId, message_uuid: m.row.id, duplicate: false };
    });
    return result;
  }

  /** The out-of-hours reply; the contact's message is already stored, so a failure here is only logged. */
  private async outOfHours(conversationId: string): Promise<void> {
    await replyOutOfHours(this.ctx, conversationId).catch((error: unknown) =>
      this.ctx.log.error({ err: error, conversationId }, 'out-of-hours reply failed'),
    );
  }

  private async contactFor(
    tx: Tx,
    channel: { id: string; tenantId: string },
    identifier: string,
    phone: string | null,
    c: InboundInput['contact'],
  ): Promise<string> {
    return contactForIdentity(tx, channel, identifier, phone, {
      name: c.name?.trim() || phone || identifier,
      email: c.email?.trim().toLowerCase() || null,
      ...(c.fields ? { fields: c.fields } : {}),
    });
  }

  /**
   * Opens a conversation as its entry step asked (conversation-entry.ts openingFor): held by a menu
   * (greeting sent by the caller after the contact's message) or a bot (its first step queued with
   * the message), in a sector's queue, or to be closed by a reply action in this same transaction.
   * The caller holds the contact's row lock and saw no open conversation.
   */
  private async openConversation(
    tx: Tx,
    effects: Effects,
    channel: { id: string; tenantId: string; workspaceId: string },
    opening: Opening,
    contactId: string,
  ): Promise<{ id: string; menu: MenuRow | null; queued?: { sectorId: string | null; ticketNumber: number } }> {
    const ticketNumber = await nextTicketNumber(tx, channel.tenantId);
    const held = opening.kind === 'menu' || opening.kind === 'bot';
    const conv = await createConversation(tx, {
      tenantId: channel.tenantId,
      workspaceId: channel.workspaceId,
      contactId,
      channelId: channel.id,
      sectorId: held ? null : opening.sectorId,
      state: held ? 'bot' : 'waiting',
      botMenuId: opening.kind === 'menu' ? opening.menu.id : null,
      botId: opening.kind === 'bot' ? opening.botId : null,
      ticketNumber,
    });
    effects.conversation(conv.id, true);
    if (opening.kind === 'menu') return { id: conv.id, menu: opening.menu };
    if (opening.kind === 'bot') {
      await queueBotStep(tx, channel.tenantId, conv.id);
      return { id: conv.id, menu: null };
    }
    // Closed by its reply action before commit: it never enters the queue.
    if (opening.kind === 'closed') return { id: conv.id, menu: null };
    await addConversationEvent(tx, { id: conv.id, tenantId: channel.tenantId }, 'enter-queue', { event: 'new-conversation' });
    effects.queueChanged(channel.tenantId, channel.workspaceId);
    return { id: conv.id, menu: null, queued: { sectorId: conv.sectorId, ticketNumber } };
  }
}

/**
 * A contact's message the custom API channel accepted and queued (queue channel-inbound, its raw
 * body a QueuedChannelMessage), stored under the uuid the channel's answer named and in the order it
 * was accepted. A body that is not one answers null (the caller logs and drops it).
 */
export async function receiveQueuedChannelMessage(
  receiver: InboundReceiver,
  channel: InboundChannel,
  rawBody: string,
  acceptedAt: Date,
): Promise<InboundResult | null> {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return null;
  }
  const parsed = QueuedChannelMessage.safeParse(body);
  if (!parsed.success) return null;
  const { contact, message, message_uuid } = storableStrings(parsed.data);
  return receiver.receive(channel, { contact, message: { ...message, uuid: message_uuid, at: acceptedAt } });
}
