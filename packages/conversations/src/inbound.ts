import { createHash, randomUUID } from 'node:crypto';
import { AppError, queues } from '@atende/contract';
import { countryForCallingCode, normalizePhone, phoneVariants, tenantConfigOf } from '@atende/core';
import { enqueueSql, Prisma } from '@atende/db';
import type { ConversationDeps } from './deps';
import { announceCommitted, Effects, inTransaction, type Tx } from './engine';
import { replyOutOfHours } from './out-of-hours';
import { redistribute } from './presence';
import { presentMessage, type AnnexRow } from './present';
import { answerPendingSurvey } from './surveys';
import { queueBotStep } from './bots';
import { runMenuStep, sendMenu } from './menus';
import { decideEntry, openingFor, type MenuRow, type Opening } from './conversation-entry';
import { afterCampaignReply, findCampaignReply, recordCampaignReply, recordReplyInOpenConversation, runReplyActionStep } from './reply-actions';
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
}

/** Next ticket number of a tenant, taken in the caller's transaction. */
export async function nextTicketNumber(tx: Tx, tenantId: string): Promise<number> {
  const [row] = await tx.$queryRaw<{ ticketCounter: number }[]>`
    UPDATE "Tenant" SET "ticketCounter" = "ticketCounter" + 1 WHERE id = ${tenantId}::uuid RETURNING "ticketCounter"`;
  if (!row) throw new AppError('not_found', 'Tenant not found');
  return row.ticketCounter;
}

/** The fast path's bot step: one job per appended message of a conversation a bot flow holds. */
const botStepJob = enqueueSql(
  queues.botStep.name,
  { tenant_uuid: Prisma.sql`updated."tenantId"`, conversation_uuid: Prisma.sql`updated.id` },
  Prisma.sql`FROM updated WHERE updated.bot AND updated."botFlow"`,
  Prisma.sql`updated.at`,
);

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

  /**
   * `fresh`: when `channel` was remembered rather than read now (the custom channel's inbound call
   * keeps a channel's row for a second, see InboundService), reads it again. Only appending to an
   * open conversation runs on a remembered row; anything more (a new conversation, its entry
   * sector, menu or bot) starts over on the stored one.
   */
  async receive(channel: InboundChannel, input: InboundInput, fresh?: () => Promise<InboundChannel>): Promise<InboundResult> {
    const country = tenantCountry(channel.tenantConfig);
    const phone = input.contact.phone ? normalizePhone(input.contact.phone, country) : null;
    if (input.contact.phone && !phone && !input.contact.identifier)
      throw new AppError('validation_failed', 'Número de telefone inválido', [
        { path: 'contact.phone', message: 'Número de telefone inválido' },
      ]);
    const identifier = (input.contact.identifier ?? phone)!;
    const externalId = input.message.id ?? null;
    const messageId = externalId ? messageIdFor(channel.id, externalId) : randomUUID();
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
      ? { tenantId: channel.tenantId, channelId: channel.id, phone, button: interactive?.text ?? null, contextExternalId: input.message.context_id ?? interactive?.context_id ?? null }
      : null;
    const appended = await this.appendToOpenConversation(channel, identifier, messageId, externalId, content, annexId, interactiveJson, voice, phone);
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
        await recordReplyInOpenConversation(this.ctx, replyLookup, { id: appended.conversationId, tenantId: channel.tenantId, contactId: appended.contactId }, content);
      }
      if (appended.bot && !appended.botFlow) await runMenuStep(this.ctx, appended.conversationId, content);
      if (appended.hoursMayReply) await this.outOfHours(appended.conversationId);
      return { conversation_uuid: appended.conversationId, message_uuid: messageId, duplicate: false };
    }
    if (fresh) return this.receive(await fresh(), input);
    // No open conversation: the message may answer the survey sent when the last one was finished.
    const surveyAnswer = await answerPendingSurvey(this.ctx, { tenantId: channel.tenantId, channelId: channel.id, identifier, messageId, externalId, content });
    if (surveyAnswer) return { conversation_uuid: surveyAnswer.conversationId, message_uuid: messageId, duplicate: surveyAnswer.duplicate };

    const { result, effects } = await inTransaction(this.ctx, async (tx, effects) => {
      // Hot path in plain SQL (few round trips): this endpoint takes every contact message.
      const contactId = await this.contactFor(tx, channel, identifier, phone, input.contact);
      // One inbound message at a time per contact: their row lock keeps a single open conversation.
      const [found] = await tx.$queryRaw<{ dup: string | null; open: string | null }[]>`
        SELECT (SELECT m."conversationId" FROM "Message" m WHERE m.id = ${messageId}::uuid) AS dup,
               (SELECT c.id FROM "Conversation" c WHERE c."tenantId" = ${channel.tenantId}::uuid AND c."channelId" = ${channel.id}::uuid
                  AND c."contactId" = ct.id AND c.state <> 'closed'::"ConversationState" ORDER BY c."createdAt" DESC LIMIT 1) AS open
        FROM "Contact" ct WHERE ct.id = ${contactId}::uuid FOR UPDATE OF ct`;
      if (found?.dup) return { conversation_uuid: found.dup, message_uuid: messageId, duplicate: true, campaignId: null };
      // One step handles the message (conversation-entry.ts): the open conversation's holder, a
      // campaign's reply action, a campaign's entry point, or the channel's entry point.
      const reply = replyLookup ? await findCampaignReply(tx, replyLookup) : null;
      const step = decideEntry({ open: Boolean(found?.open), reply });
      const opened = step.kind === 'holder' ? null : await this.openConversation(tx, effects, channel, await openingFor(tx, channel.tenantId, channel, step, reply?.entry ?? null), contactId);
      const conversationId = found?.open ?? opened!.id;
      const menu = opened?.menu ?? null;
      const now = new Date();
      await tx.$executeRaw`
        INSERT INTO "Message" (id, "tenantId", "conversationId", author, "contactId", content, tags, state, "externalId", "annexId", "interactiveContent", voice, "createdAt", "updatedAt")
        VALUES (${messageId}::uuid, ${channel.tenantId}::uuid, ${conversationId}::uuid, 'CONTACT'::"MessageAuthor", ${contactId}::uuid, ${content},
                ARRAY[]::text[], 'sent'::"MessageState", ${externalId}, ${annexId}::uuid, ${interactiveJson}::jsonb, ${voice}, ${now}, ${now})`;
      const [conv] = await tx.$queryRaw<{ tenantId: string; unarchived: boolean; replied: boolean; bot: boolean; botFlow: boolean; holder: string | null }[]>`
        WITH before AS (SELECT c.archived, c.state, w."archivedConversationBehaviorOnNewMessages" AS behaviour FROM "Conversation" c
                        JOIN "Workspace" w ON w.id = c."workspaceId" WHERE c.id = ${conversationId}::uuid)
        UPDATE "Conversation" c SET "contactInteracted" = true, "lastMessageAt" = ${now}, "unreadContactMessages" = c."unreadContactMessages" + 1,
               archived = CASE WHEN before.archived AND before.behaviour = 'unarchive' THEN false ELSE c.archived END, "updatedAt" = ${now},
               -- spec 000 §4: an outbound conversation becomes a normal one once the contact answers.
               state = CASE WHEN c.state = 'outbound-started'::"ConversationState" THEN 'answered'::"ConversationState" ELSE c.state END
        FROM before WHERE c.id = ${conversationId}::uuid
        RETURNING c."tenantId", (before.archived AND NOT c.archived) AS unarchived, (before.state = 'outbound-started'::"ConversationState") AS replied,
                  (before.state = 'bot'::"ConversationState") AS bot, (c."botId" IS NOT NULL) AS "botFlow",
                  (SELECT u.uuid::text FROM "User" u WHERE u.id = c."userId") AS holder`;
      if (!conv) throw new AppError('not_found', 'Conversation not found');
      if (reply) {
        await recordCampaignReply(tx, effects, reply, { id: conversationId, tenantId: channel.tenantId, contactId }, content, opened !== null);
        // The reply action's words follow the contact's message.
        if (opened && step.kind === 'reply_action') await runReplyActionStep(tx, effects, step.action, { id: conversationId, tenantId: channel.tenantId, workspaceId: channel.workspaceId }, new Date(now.getTime() + 1));
      }
      // A new conversation straight into a sector's queue: its ticket announcement follows the message (and a reply action's words).
      if (opened?.queued) await announceTicket(tx, effects, { id: conversationId, tenantId: channel.tenantId, ...opened.queued }, new Date(now.getTime() + 2));
      // The menu answers the contact's first message, so it follows it.
      if (menu) {
        await sendMenu(tx, effects, { tenantId: channel.tenantId, conversationId }, menu, new Date(now.getTime() + 1));
      }
      // A bot reads the message in the worker (its HTTP nodes may take seconds); the job commits with it.
      if (conv.bot && conv.botFlow && !opened) await queueBotStep(tx, channel.tenantId, conversationId);
      if (conv.unarchived) {
        await tx.conversationEvent.create({
          data: { tenantId: conv.tenantId, conversationId, type: 'unarchived', detail: { done_by: 'system' } },
        });
      }
      if (conv.unarchived || conv.replied) effects.conversation(conversationId);
      // The agent's list follows new-message itself; the whole conversation is re-sent only when it changed shape.
      effects.messages.push({
        tenantId: channel.tenantId,
        conversationId,
        holderUuid: conv.holder,
        message: contactMessage(conversationId, contactId, now),
      });
      return { conversation_uuid: conversationId, message_uuid: messageId, duplicate: false, menuStep: conv.bot && !conv.botFlow && !opened, campaignId: reply?.campaignId ?? null };
    }).catch(async (error: unknown) => {
      // Two identical deliveries racing: the loser hits the primary key and answers as a duplicate.
      if (error instanceof Prisma.PrismaClientKnownRequestError && (error.code === 'P2002' || error.code === 'P2010') && externalId) {
        const row = await this.ctx.db.message.findUnique({ where: { id: messageId }, select: { conversationId: true } });
        if (row) return { result: { conversation_uuid: row.conversationId, message_uuid: messageId, duplicate: true, campaignId: null }, effects: null };
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

  /** Spec 002 §3: the out-of-hours reply; the contact's message is already stored, so a failure here is only logged. */
  private async outOfHours(conversationId: string): Promise<void> {
    await replyOutOfHours(this.ctx, conversationId).catch((error: unknown) => this.ctx.log.error({ err: error, conversationId }, 'out-of-hours reply failed'));
  }

  /**
   * The common case in one atomic statement (no transaction round trips): a known contact writing
   * to their open conversation on this channel. Appends the message and updates the conversation
   * exactly as the transaction below does; answers null, having changed nothing, when the contact
   * or the open conversation is new or the message id already exists, so the full path decides.
   */
  private async appendToOpenConversation(
    channel: { id: string; tenantId: string },
    identifier: string,
    messageId: string,
    externalId: string | null,
    content: string,
    annexId: string | null,
    interactiveJson: string | null,
    voice: boolean,
    phone: string | null,
  ) {
    const at = new Date();
    const phones = phone ? phoneVariants(phone) : [];
    const [row] = await this.ctx.db.$queryRaw<
      { conversationId: string; contactId: string; at: Date; unarchived: boolean; replied: boolean; bot: boolean; botFlow: boolean; holder: string | null; hoursMayReply: boolean; answersCampaign: boolean }[]
    >`
      WITH target AS (
        SELECT c.id, c."contactId", c.archived, c.state, w."archivedConversationBehaviorOnNewMessages" AS behaviour
        FROM "ContactIdentity" ci
        JOIN "Conversation" c ON c."tenantId" = ${channel.tenantId}::uuid AND c."channelId" = ci."channelId" AND c."contactId" = ci."contactId" AND c.state <> 'closed'::"ConversationState"
        JOIN "Workspace" w ON w.id = c."workspaceId"
        WHERE ci."channelId" = ${channel.id}::uuid AND ci.identifier = ${identifier}
        ORDER BY c."createdAt" DESC LIMIT 1
      ), inserted AS (
        INSERT INTO "Message" (id, "tenantId", "conversationId", author, "contactId", content, tags, state, "externalId", "annexId", "interactiveContent", voice, "createdAt", "updatedAt")
        SELECT ${messageId}::uuid, ${channel.tenantId}::uuid, target.id, 'CONTACT'::"MessageAuthor", target."contactId", ${content},
               ARRAY[]::text[], 'sent'::"MessageState", ${externalId}, ${annexId}::uuid, ${interactiveJson}::jsonb, ${voice}, ${at}, ${at}
        FROM target
        ON CONFLICT (id) DO NOTHING
        RETURNING "conversationId", "createdAt"
      ), updated AS (
        UPDATE "Conversation" c SET "contactInteracted" = true, "lastMessageAt" = inserted."createdAt", "unreadContactMessages" = c."unreadContactMessages" + 1,
               archived = CASE WHEN target.archived AND target.behaviour = 'unarchive' THEN false ELSE c.archived END, "updatedAt" = inserted."createdAt",
               -- spec 000 §4: an outbound conversation becomes a normal one once the contact answers.
               state = CASE WHEN c.state = 'outbound-started'::"ConversationState" THEN 'answered'::"ConversationState" ELSE c.state END
        FROM inserted, target WHERE c.id = inserted."conversationId"
        RETURNING c.id, c."tenantId", c."contactId", c."userId", c."workspaceId", c."outOfHoursRepliedAt", inserted."createdAt" AS at,
                  (target.archived AND NOT c.archived) AS unarchived, (target.state = 'outbound-started'::"ConversationState") AS replied,
                  (target.state = 'bot'::"ConversationState") AS bot, (c."botId" IS NOT NULL) AS "botFlow"
      ), bot_step AS (
        -- A bot reads the message in the worker: its job commits with the message (the outbox).
        ${botStepJob}
      ), unarchived AS (
        INSERT INTO "ConversationEvent" (id, "tenantId", "conversationId", type, detail, at)
        SELECT gen_random_uuid(), updated."tenantId", updated.id, 'unarchived', '{"done_by":"system"}'::jsonb, updated.at FROM updated WHERE updated.unarchived
      )
      SELECT updated.id AS "conversationId", updated."contactId", updated.at, updated.unarchived, updated.replied, updated.bot, updated."botFlow",
             (SELECT u.uuid::text FROM "User" u WHERE u.id = updated."userId") AS holder,
             -- Whether an out-of-hours reply may be due: saves its own query on every other message.
             (updated."outOfHoursRepliedAt" IS NULL AND EXISTS (SELECT 1 FROM "OpeningHours" oh WHERE oh."workspaceId" = updated."workspaceId" AND oh.enabled)) AS "hoursMayReply",
             -- Whether the message may answer a campaign sent to this phone on this channel (recorded after, reply-actions.ts).
             (cardinality(${phones}::text[]) > 0 AND EXISTS (SELECT 1 FROM "CampaignSubscriber" s JOIN "Campaign" cp ON cp.id = s."campaignId"
               WHERE s."tenantId" = ${channel.tenantId}::uuid AND s."phoneNumber" = ANY(${phones}::text[]) AND cp."channelId" = ${channel.id}::uuid AND s.state = 'sent')) AS "answersCampaign"
      FROM updated`;
    return row ?? null;
  }

  private async contactFor(
    tx: Tx,
    channel: { id: string; tenantId: string },
    identifier: string,
    phone: string | null,
    c: InboundInput['contact'],
  ): Promise<string> {
    const [known] = await tx.$queryRaw<{ contactId: string }[]>`
      SELECT "contactId" FROM "ContactIdentity" WHERE "channelId" = ${channel.id}::uuid AND identifier = ${identifier}`;
    if (known) return known.contactId;
    const byPhone = phone
      ? await tx.contact.findFirst({ where: { tenantId: channel.tenantId, phoneNumber: phone, deletedAt: null }, select: { id: true } })
      : null;
    const contactId =
      byPhone?.id ??
      (
        await tx.contact.create({
          data: {
            tenantId: channel.tenantId,
            name: c.name?.trim() || phone || identifier,
            phoneNumber: phone,
            email: c.email?.trim().toLowerCase() || null,
            ...(c.fields ? { fields: c.fields } : {}),
          },
        })
      ).id;
    await tx.$executeRaw`
      INSERT INTO "ContactIdentity" (id, "tenantId", "channelId", identifier, "contactId")
      VALUES (gen_random_uuid(), ${channel.tenantId}::uuid, ${channel.id}::uuid, ${identifier}, ${contactId}::uuid)
      ON CONFLICT ("channelId", identifier) DO NOTHING`;
    const identity = await tx.contactIdentity.findUniqueOrThrow({ where: { channelId_identifier: { channelId: channel.id, identifier } } });
    return identity.contactId;
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
    const conv = await tx.conversation.create({
      data: {
        tenantId: channel.tenantId,
        workspaceId: channel.workspaceId,
        contactId,
        channelId: channel.id,
        sectorId: held ? null : opening.sectorId,
        state: held ? 'bot' : 'waiting',
        botMenuId: opening.kind === 'menu' ? opening.menu.id : null,
        botId: opening.kind === 'bot' ? opening.botId : null,
        ticketNumber,
      },
    });
    effects.conversation(conv.id, true);
    if (opening.kind === 'menu') return { id: conv.id, menu: opening.menu };
    if (opening.kind === 'bot') {
      await queueBotStep(tx, channel.tenantId, conv.id);
      return { id: conv.id, menu: null };
    }
    // Closed by its reply action before commit: it never enters the queue.
    if (opening.kind === 'closed') return { id: conv.id, menu: null };
    await tx.conversationEvent.create({
      data: { tenantId: channel.tenantId, conversationId: conv.id, type: 'enter-queue', detail: { event: 'new-conversation' } },
    });
    effects.queueChanged(channel.tenantId, channel.workspaceId);
    return { id: conv.id, menu: null, queued: { sectorId: conv.sectorId, ticketNumber } };
  }
}
