import { queues } from '@atende/contract';
import { Prisma } from '../generated/prisma/client';
import type { Db } from './client';
import { stateSql } from './conversations';
import { enqueueSql } from './outbox';

type Tx = Prisma.TransactionClient;

/**
 * The write side of a contact's message arriving on a channel: their identity and contact, the
 * message row, and what the message does to its conversation. A contact message is written in
 * three places (the one-statement fast path, the full transaction, a survey answer); each builds
 * the row with `contactMessageRow` and changes the conversation with `contactMessageTouch`, so
 * they cannot drift apart.
 */
export interface ContactMessage {
  id: string;
  tenantId: string;
  content: string;
  tags: string[];
  externalId: string | null;
  annexId: string | null;
  /** The interactive part or the provider details, as JSON text. */
  interactiveJson: string | null;
  voice: boolean;
  at: Date;
}

const CONTACT_MESSAGE_COLUMNS = Prisma.sql`(id, "tenantId", "conversationId", author, "contactId", content, tags, state, "externalId", "annexId", "interactiveContent", voice, "createdAt", "updatedAt")`;

/** The values of a contact message row; conversation and contact are SQL (a parameter or a column). */
function contactMessageRow(m: ContactMessage, conversation: Prisma.Sql, contact: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`${m.id}::uuid, ${m.tenantId}::uuid, ${conversation}, 'CONTACT'::"MessageAuthor", ${contact}, ${m.content},
    ${m.tags}::text[], 'sent'::"MessageState", ${m.externalId}, ${m.annexId}::uuid, ${m.interactiveJson}::jsonb, ${m.voice}, ${m.at}, ${m.at}`;
}

/**
 * The conversation's side of a contact message: the contact took part, one more unread, archived
 * ones come back when the workspace says so, and an outbound conversation becomes a normal one
 * once the contact answers. `before` names a row with the conversation's former archived, state
 * and the workspace's behaviour; `at` the message's time (an earlier message stored late does not
 * move the conversation's last message back).
 */
function contactMessageTouch(before: Prisma.Sql, at: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`"contactInteracted" = true, "lastMessageAt" = GREATEST(c."lastMessageAt", ${at}), "unreadContactMessages" = c."unreadContactMessages" + 1,
    archived = CASE WHEN ${before}.archived AND ${before}.behaviour = 'unarchive' THEN false ELSE c.archived END, "updatedAt" = GREATEST(c."updatedAt", ${at}),
    state = CASE WHEN c.state = ${stateSql('outbound_started')} THEN ${stateSql('answered')} ELSE c.state END`;
}

/**
 * Inserts a contact message. An existing id answers false with `ifExists: 'skip'`; with 'fail' the
 * statement fails on the primary key (the caller's transaction treats it as a duplicate delivery).
 */
export async function insertContactMessage(
  tx: Tx,
  m: ContactMessage,
  conversationId: string,
  contactId: string,
  ifExists: 'skip' | 'fail',
): Promise<boolean> {
  const inserted = await tx.$executeRaw`
    INSERT INTO "Message" ${CONTACT_MESSAGE_COLUMNS}
    VALUES (${contactMessageRow(m, Prisma.sql`${conversationId}::uuid`, Prisma.sql`${contactId}::uuid`)})
    ${ifExists === 'skip' ? Prisma.sql`ON CONFLICT (id) DO NOTHING` : Prisma.empty}`;
  return inserted > 0;
}

/** The conversation after a contact message was inserted into it, and what changed. */
export async function touchConversationForContactMessage(tx: Tx, conversationId: string, at: Date) {
  const [conv] = await tx.$queryRaw<
    { tenantId: string; unarchived: boolean; replied: boolean; bot: boolean; botFlow: boolean; holder: string | null }[]
  >`
    WITH before AS (SELECT c.archived, c.state, w."archivedConversationBehaviorOnNewMessages" AS behaviour FROM "Conversation" c
                    JOIN "Workspace" w ON w.id = c."workspaceId" WHERE c.id = ${conversationId}::uuid)
    UPDATE "Conversation" c SET ${contactMessageTouch(Prisma.sql`before`, Prisma.sql`${at}`)}
    FROM before WHERE c.id = ${conversationId}::uuid
    RETURNING c."tenantId", (before.archived AND NOT c.archived) AS unarchived, (before.state = ${stateSql('outbound_started')}) AS replied,
              (before.state = ${stateSql('bot')}) AS bot, (c."botId" IS NOT NULL) AS "botFlow",
              (SELECT u.uuid::text FROM "User" u WHERE u.id = c."userId") AS holder`;
  return conv ?? null;
}

/** The fast path's bot step: one job per appended message of a conversation a bot flow holds. */
const botStepJob = enqueueSql(
  queues.botStep.name,
  { tenant_uuid: Prisma.sql`updated."tenantId"`, conversation_uuid: Prisma.sql`updated.id` },
  Prisma.sql`FROM updated WHERE updated.bot AND updated."botFlow"`,
  Prisma.sql`updated.at`,
);

/**
 * The common case in one atomic statement (no transaction round trips): a known contact writing
 * to their open conversation on this channel. Appends the message and changes the conversation as
 * the full path does (same row, same touch, the bot step's job and the unarchived entry); answers
 * null, having changed nothing, when the contact or the open conversation is new or the message id
 * already exists, so the full path decides.
 */
export async function appendContactMessageToOpen(db: Db, channelId: string, identifier: string, m: ContactMessage, phones: string[]) {
  const [row] = await db.$queryRaw<
    {
      conversationId: string;
      contactId: string;
      at: Date;
      unarchived: boolean;
      replied: boolean;
      bot: boolean;
      botFlow: boolean;
      holder: string | null;
      hoursMayReply: boolean;
      answersCampaign: boolean;
    }[]
  >`
    WITH target AS (
      SELECT c.id, c."contactId", c.archived, c.state, w."archivedConversationBehaviorOnNewMessages" AS behaviour
      FROM "ContactIdentity" ci
      JOIN "Conversation" c ON c."tenantId" = ${m.tenantId}::uuid AND c."channelId" = ci."channelId" AND c."contactId" = ci."contactId" AND c.state <> ${stateSql('closed')}
      JOIN "Workspace" w ON w.id = c."workspaceId"
      WHERE ci."channelId" = ${channelId}::uuid AND ci.identifier = ${identifier}
      ORDER BY c."createdAt" DESC LIMIT 1
    ), inserted AS (
      INSERT INTO "Message" ${CONTACT_MESSAGE_COLUMNS}
      SELECT ${contactMessageRow(m, Prisma.sql`target.id`, Prisma.sql`target."contactId"`)}
      FROM target
      ON CONFLICT (id) DO NOTHING
      RETURNING "conversationId", "createdAt"
    ), updated AS (
      UPDATE "Conversation" c SET ${contactMessageTouch(Prisma.sql`target`, Prisma.sql`inserted."createdAt"`)}
      FROM inserted, target WHERE c.id = inserted."conversationId"
      RETURNING c.id, c."tenantId", c."contactId", c."userId", c."workspaceId", c."outOfHoursRepliedAt", inserted."createdAt" AS at,
                (target.archived AND NOT c.archived) AS unarchived, (target.state = ${stateSql('outbound_started')}) AS replied,
                (target.state = ${stateSql('bot')}) AS bot, (c."botId" IS NOT NULL) AS "botFlow"
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
           -- Whether the message may answer a campaign sent to this phone on this channel.
           (cardinality(${phones}::text[]) > 0 AND EXISTS (SELECT 1 FROM "CampaignSubscriber" s JOIN "Campaign" cp ON cp.id = s."campaignId"
             WHERE s."tenantId" = ${m.tenantId}::uuid AND s."phoneNumber" = ANY(${phones}::text[]) AND cp."channelId" = ${channelId}::uuid AND s.state = 'sent')) AS "answersCampaign"
    FROM updated`;
  return row ?? null;
}

/**
 * Locks the contact's row (one inbound message at a time per contact keeps a single open
 * conversation) and answers whether the message id exists already (its conversation) and the
 * contact's open conversation on the channel.
 */
export async function lockContactForMessage(tx: Tx, tenantId: string, channelId: string, contactId: string, messageId: string) {
  const [found] = await tx.$queryRaw<{ dup: string | null; open: string | null }[]>`
    SELECT (SELECT m."conversationId" FROM "Message" m WHERE m.id = ${messageId}::uuid) AS dup,
           (SELECT c.id FROM "Conversation" c WHERE c."tenantId" = ${tenantId}::uuid AND c."channelId" = ${channelId}::uuid
              AND c."contactId" = ct.id AND c.state <> ${stateSql('closed')} ORDER BY c."createdAt" DESC LIMIT 1) AS open
    FROM "Contact" ct WHERE ct.id = ${contactId}::uuid FOR UPDATE OF ct`;
  return found ?? null;
}

/** The conversation a message belongs to, if the message exists. */
export async function conversationOfMessage(db: Db | Tx, messageId: string): Promise<string | null> {
  return (await db.message.findUnique({ where: { id: messageId }, select: { conversationId: true } }))?.conversationId ?? null;
}

/**
 * The contact behind an identity on a channel: the known one, else the tenant's contact with that
 * phone, else a new contact; the identity is recorded (a concurrent writer's wins).
 */
export async function contactForIdentity(
  tx: Tx,
  channel: { id: string; tenantId: string },
  identifier: string,
  phone: string | null,
  fresh: { name: string; email: string | null; fields?: Record<string, string> },
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
          name: fresh.name,
          phoneNumber: phone,
          email: fresh.email,
          ...(fresh.fields ? { fields: fresh.fields } : {}),
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

/** Takes the tenant's next ticket number in the caller's transaction; null when the tenant does not exist. */
export async function takeTicketNumber(tx: Tx, tenantId: string): Promise<number | null> {
  const [row] = await tx.$queryRaw<{ ticketCounter: number }[]>`
    UPDATE "Tenant" SET "ticketCounter" = "ticketCounter" + 1 WHERE id = ${tenantId}::uuid RETURNING "ticketCounter"`;
  return row?.ticketCounter ?? null;
}

/** A new conversation of a contact on a channel. */
export async function createConversation(tx: Tx, data: Prisma.ConversationUncheckedCreateInput) {
  return tx.conversation.create({ data });
}

/** A message row by id; throws when it does not exist. */
export async function messageRowById(db: Db | Tx, messageId: string) {
  return db.message.findUniqueOrThrow({ where: { id: messageId } });
}

/** A live channel as an inbound call authenticates and routes by it: its entry, its token's hash and its tenant's config. */
export interface InboundChannelRow {
  id: string;
  tenantId: string;
  workspaceId: string;
  type: string;
  enabled: boolean;
  entrySectorId: string | null;
  entryMenuId: string | null;
  entryBotId: string | null;
  inboundTokenHash: string | null;
  tenantConfig: unknown;
}

/** The live channel with what an inbound call needs of it, in one query; undefined when there is none. */
export async function inboundChannelRow(db: Db, channelId: string): Promise<InboundChannelRow | undefined> {
  const [channel] = await db.$queryRaw<InboundChannelRow[]>`
    SELECT c.id, c."tenantId", c."workspaceId", c.type, c.enabled, c."entrySectorId", c."entryMenuId", c."entryBotId", c."inboundTokenHash", t.config AS "tenantConfig"
    FROM "Channel" c JOIN "Tenant" t ON t.id = c."tenantId" WHERE c.id = ${channelId}::uuid AND c."deletedAt" IS NULL`;
  return channel;
}

/** The conversation a contact message of this channel was stored in; null when none is (yet). */
export async function conversationOfChannelMessage(db: Db, channelId: string, messageId: string): Promise<string | null> {
  const row = await db.message.findFirst({ where: { id: messageId, conversation: { channelId } }, select: { conversationId: true } });
  return row?.conversationId ?? null;
}

/**
 * The open conversation of this channel holding one of these provider message ids (an e-mail's
 * In-Reply-To and References): the thread a reply belongs to, whoever sends it (a mail's first
 * message carries its Message-ID; our sent mails theirs). Null when none is open.
 */
export async function openConversationOfThread(
  db: Db,
  tenantId: string,
  channelId: string,
  messageIds: readonly string[],
): Promise<string | null> {
  if (!messageIds.length) return null;
  const [row] = await db.$queryRaw<{ id: string }[]>`
    SELECT c.id FROM "Message" m JOIN "Conversation" c ON c.id = m."conversationId"
    WHERE m."tenantId" = ${tenantId}::uuid AND m."externalId" = ANY(${[...messageIds]}::text[])
      AND c."channelId" = ${channelId}::uuid AND c.state <> ${stateSql('closed')}
    ORDER BY m."createdAt" DESC LIMIT 1`;
  return row?.id ?? null;
}

/** The contact a conversation is with, and the tenant it belongs to (locked for a message joining it), or null when closed or gone. */
export async function lockOpenConversation(tx: Tx, conversationId: string) {
  const [row] = await tx.$queryRaw<{ contactId: string }[]>`
    SELECT "contactId" FROM "Conversation" WHERE id = ${conversationId}::uuid AND state <> ${stateSql('closed')} FOR UPDATE`;
  return row ?? null;
}
