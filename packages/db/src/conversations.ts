import { Prisma } from '../generated/prisma/client';
import type { ConversationState } from '../generated/prisma/enums';
import type { Db } from './client';
import { enqueue } from './outbox';
import { templateInclude } from './templates';
import { queues } from '@atende/contract';

type Tx = Prisma.TransactionClient;
export type ConversationRecord = Prisma.ConversationGetPayload<object>;

const userRef = { select: { id: true, uuid: true, username: true, email: true } } as const;

/** What every conversation read includes to be presented. */
export const conversationInclude = {
  contact: true,
  channel: true,
  // The latest 200 events (what happened last decides the workstation's handling), shown oldest first.
  events: { orderBy: { at: 'desc' }, take: 200 },
  messages: { orderBy: { createdAt: 'desc' }, take: 1 },
} as const satisfies Prisma.ConversationInclude;
export type ConversationRow = Prisma.ConversationGetPayload<{ include: typeof conversationInclude }>;

/** These conversations with what presenting them needs. */
export async function conversationRowsByIds(db: Db | Tx, ids: string[]): Promise<ConversationRow[]> {
  return db.conversation.findMany({ where: { id: { in: ids } }, include: conversationInclude });
}

/** The users, sectors and sectors' enabled surveys that conversation rows refer to, in three parallel queries. */
export async function conversationLookupRows(db: Pick<Tx, 'user' | 'sector' | 'survey'>, userIds: number[], sectorIds: string[]) {
  return Promise.all([
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } }, ...userRef }) : [],
    sectorIds.length ? db.sector.findMany({ where: { id: { in: sectorIds } }, select: { id: true, name: true } }) : [],
    sectorIds.length
      ? db.survey.findMany({
          where: { sectorIds: { hasSome: sectorIds }, enabled: true, deletedAt: null },
          select: { id: true, sectorIds: true },
        })
      : [],
  ] as const);
}

/** The uuids of these users. */
export async function userUuidsByIds(db: Db | Tx, ids: number[]): Promise<{ id: number; uuid: string }[]> {
  return ids.length ? db.user.findMany({ where: { id: { in: ids } }, select: { id: true, uuid: true } }) : [];
}

/** The uuid of a user, if any. */
export async function userUuidById(db: Db | Tx, id: number): Promise<string | null> {
  return (await db.user.findUnique({ where: { id }, select: { uuid: true } }))?.uuid ?? null;
}

/**
 * The opening hours whose out-of-hours message a contact's message may get: the conversation's
 * workspace has enabled hours, the conversation is open and was not replied to yet.
 */
export async function outOfHoursSettings(db: Db, conversationId: string) {
  const [row] = await db.$queryRaw<{ timezone: string; days: unknown; message: string }[]>`
    SELECT oh.timezone, oh.days, oh."outOfHoursMessage" AS message
    FROM "Conversation" c JOIN "OpeningHours" oh ON oh."workspaceId" = c."workspaceId" AND oh.enabled
    WHERE c.id = ${conversationId}::uuid AND c."outOfHoursRepliedAt" IS NULL AND c.state <> ${stateSql('closed')}`;
  return row ?? null;
}

/** Claims a conversation's one out-of-hours reply (two messages racing send one); the conversation when claimed. */
export async function claimOutOfHoursReply(tx: Tx, conversationId: string, at: Date) {
  const claimed = await tx.conversation.updateManyAndReturn({
    where: { id: conversationId, outOfHoursRepliedAt: null },
    data: { outOfHoursRepliedAt: at },
    select: { id: true, tenantId: true, userId: true },
  });
  return claimed[0] ?? null;
}

/** A conversation by id; throws when it does not exist. */
export async function conversationById(tx: Tx, conversationId: string): Promise<ConversationRecord> {
  return tx.conversation.findUniqueOrThrow({ where: { id: conversationId } });
}

/** Adds an entry to a conversation's history (at `at`, else now). */
export async function addConversationEvent(
  tx: Tx,
  conv: { id: string; tenantId: string },
  type: string,
  detail: Prisma.InputJsonObject,
  at?: Date,
): Promise<void> {
  await tx.conversationEvent.create({ data: { tenantId: conv.tenantId, conversationId: conv.id, type, detail, ...(at ? { at } : {}) } });
}

/** Locks a conversation's row and reads it; throws when it does not exist. */
export async function lockConversation(tx: Tx, conversationId: string): Promise<ConversationRecord> {
  await tx.$queryRaw`SELECT id FROM "Conversation" WHERE id = ${conversationId}::uuid FOR UPDATE`;
  return tx.conversation.findUniqueOrThrow({ where: { id: conversationId } });
}

/** Moves a conversation to another sector (its queue state is the caller's). */
export async function setConversationSector(tx: Tx, conversationId: string, sectorId: string): Promise<void> {
  await tx.conversation.update({ where: { id: conversationId }, data: { sectorId } });
}

/** Closes a conversation at `at`, ended by `endedBy`; the closed history entry carries `detail`. */
export async function closeConversationAs(
  tx: Tx,
  conv: { id: string; tenantId: string },
  endedBy: 'automation',
  at: Date,
  detail: Prisma.InputJsonObject,
): Promise<void> {
  await tx.conversation.update({ where: { id: conv.id }, data: { state: 'closed', closedAt: at, endedBy } });
  await addConversationEvent(tx, conv, 'closed', { ended_by: endedBy, ...detail });
}

/** Back to its sector's queue: waiting, nobody's, joined now; the history entry says why. */
export async function putBackInQueue(tx: Tx, conv: { id: string; tenantId: string }, detail: Prisma.InputJsonObject): Promise<void> {
  await tx.conversation.update({ where: { id: conv.id }, data: { state: 'waiting', userId: null, timeJoin: new Date() } });
  await addConversationEvent(tx, conv, 'enter-queue', detail);
}

/** Locks and lists the ids of an agent's active inbound chats. */
export async function lockAgentActiveChats(tx: Tx, tenantId: string, userId: number): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM "Conversation" WHERE "tenantId" = ${tenantId}::uuid AND "userId" = ${userId} AND type = 'inbound' AND state = 'answered'::"ConversationState" FOR UPDATE`;
  return rows.map((r) => r.id);
}

/**
 * Locks and lists, oldest first, the waiting conversations whose last history entry is their
 * return to the queue when this agent paused (nobody took them since). Rows another transaction
 * holds are skipped.
 */
export async function lockChatsReturnedAtPause(tx: Tx, tenantId: string, userId: number): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT c.id FROM "Conversation" c
    WHERE c."tenantId" = ${tenantId}::uuid AND c.state = 'waiting'::"ConversationState" AND c."userId" IS NULL
      AND (SELECT e.type = 'enter-queue' AND e.detail->>'event' = 'pause' AND e.detail->'old_user'->>'id' = ${String(userId)}
           FROM "ConversationEvent" e WHERE e."conversationId" = c.id ORDER BY e.at DESC, e.id DESC LIMIT 1)
    ORDER BY c."timeJoin" ASC
    FOR UPDATE OF c SKIP LOCKED`;
  return rows.map((r) => r.id);
}

/**
 * A conversation state as Postgres spells it. The Prisma enum names `outbound_started` what the
 * database stores as 'outbound-started': raw SQL takes states from here, never as literals.
 */
const STATE_SQL: Record<ConversationState, string> = {
  waiting: 'waiting',
  bot: 'bot',
  answered: 'answered',
  outbound_started: 'outbound-started',
  closing: 'closing',
  closed: 'closed',
};
export function stateSql(...states: ConversationState[]): Prisma.Sql {
  return Prisma.join(states.map((s) => Prisma.sql`${STATE_SQL[s]}::"ConversationState"`));
}

/** The states in which a conversation occupies one of its agent's slots. */
export const ACTIVE_STATES = ['answered', 'outbound_started', 'closing'] as const satisfies readonly ConversationState[];

/** The agent's active conversations (tenant first: the tenantId+userId+state index answers it alone). */
export async function countActiveChats(tx: Tx, tenantId: string, userId: number): Promise<number> {
  return tx.conversation.count({ where: { tenantId, userId, state: { in: [...ACTIVE_STATES] } } });
}

/** How many conversations wait in a workspace's queue. */
export async function countWaiting(tx: Tx, tenantId: string, workspaceId: string): Promise<number> {
  return tx.conversation.count({ where: { tenantId, workspaceId, state: 'waiting' } });
}

/** The queue settings of a workspace: the tenant's config, the per-agent limit and the delivery mode. */
export async function queueSettings(db: Tx | Db, tenantId: string, workspaceId: string) {
  const [row] = await db.$queryRaw<{ config: unknown; maxConversationPerUser: number; mode: 'on_demand' | 'round_robin' | 'fifo' }[]>`
    SELECT t.config, w."maxConversationPerUser", w."conversationDeliveryMode"::text AS mode
    FROM "Workspace" w JOIN "Tenant" t ON t.id = w."tenantId" WHERE w.id = ${workspaceId}::uuid AND t.id = ${tenantId}::uuid`;
  return row ?? null;
}

/**
 * The next waiting conversation an agent may take: prioritised first, then the oldest, in the
 * agent's sectors (or any when the agent has none). Locked, skipping rows another transaction
 * holds, so two agents never take the same one.
 */
export async function lockNextWaiting(
  tx: Tx,
  tenantId: string,
  workspaceId: string,
  sectorIds: string[],
): Promise<{ id: string; userId: number | null } | null> {
  const sectorFilter = sectorIds.length
    ? Prisma.sql`AND ("sectorId" IS NULL OR "sectorId" IN (${Prisma.join(sectorIds.map((s) => Prisma.sql`${s}::uuid`))}))`
    : Prisma.empty;
  const rows = await tx.$queryRaw<{ id: string; userId: number | null }[]>`
    SELECT id, "userId" FROM "Conversation"
    WHERE "tenantId" = ${tenantId}::uuid AND "workspaceId" = ${workspaceId}::uuid AND state = ${stateSql('waiting')} ${sectorFilter}
    ORDER BY priority DESC, "timeJoin" ASC
    LIMIT 1 FOR UPDATE SKIP LOCKED`;
  return rows[0] ?? null;
}

/** Up to `limit` waiting conversations of a workspace, in queue order, locked (held rows skipped). */
export async function lockWaitingCandidates(
  tx: Tx,
  tenantId: string,
  workspaceId: string,
  limit: number,
): Promise<{ id: string; sectorId: string | null }[]> {
  return tx.$queryRaw<{ id: string; sectorId: string | null }[]>`
    SELECT id, "sectorId" FROM "Conversation"
    WHERE "tenantId" = ${tenantId}::uuid AND "workspaceId" = ${workspaceId}::uuid AND state = ${stateSql('waiting')}
    ORDER BY priority DESC, "timeJoin" ASC
    LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
}

export type AgentRef = { id: number; uuid: string; email: string; username: string };

/**
 * The agents who may be offered a conversation of `sectorId` now, locked (held rows skipped):
 * logged in, online, unpaused agents of the workspace in that sector or in none. round_robin
 * orders them least loaded first, fifo idle longest first.
 */
export async function lockEligibleAgents(
  tx: Tx,
  tenantId: string,
  workspaceId: string,
  sectorId: string | null,
  mode: 'on_demand' | 'round_robin' | 'fifo',
): Promise<AgentRef[]> {
  const order =
    mode === 'fifo' ? Prisma.sql`last_assigned ASC NULLS FIRST, u.id ASC` : Prisma.sql`active ASC, last_assigned ASC NULLS FIRST, u.id ASC`;
  return tx.$queryRaw<AgentRef[]>`
    SELECT u.id, u.uuid, u.email, u.username,
           (SELECT COUNT(*) FROM "Conversation" c WHERE c."userId" = u.id AND c.state IN (${stateSql(...ACTIVE_STATES)})) AS active,
           u."lastAssignedAt" AS last_assigned
    FROM "User" u
    WHERE u."tenantId" = ${tenantId}::uuid AND u."workspaceId" = ${workspaceId}::uuid AND u."deletedAt" IS NULL
      AND u."isLogged" AND u.state = 'online'::"UserState" AND u."currentPauseId" IS NULL AND 'agent'::"Role" = ANY(u.roles)
      AND (${sectorId}::uuid IS NULL
           OR NOT EXISTS (SELECT 1 FROM "UserSector" us WHERE us."userId" = u.id)
           OR EXISTS (SELECT 1 FROM "UserSector" us WHERE us."userId" = u.id AND us."sectorId" = ${sectorId}::uuid))
    ORDER BY ${order}
    FOR UPDATE OF u SKIP LOCKED`;
}

/**
 * Hands a locked conversation to an agent: answered, theirs, the agent's last assignment now, and
 * the history entries (offered when distributed, associate-user, answered the first time).
 */
export async function assignConversation(
  tx: Tx,
  conversationId: string,
  user: AgentRef,
  how: 'accept' | 'distribution' | 'transfer' | 'pause_return',
  doneBy?: AgentRef,
): Promise<ConversationRecord> {
  const now = new Date();
  const current = await tx.conversation.findUniqueOrThrow({ where: { id: conversationId } });
  const conv = await tx.conversation.update({
    where: { id: conversationId },
    data: { userId: user.id, state: 'answered', timeAnswer: current.timeAnswer ?? now },
  });
  await tx.user.update({ where: { id: user.id }, data: { lastAssignedAt: now } });
  const ref = { id: user.id, uuid: user.uuid, username: user.username, email: user.email };
  const events: Prisma.ConversationEventCreateManyInput[] = [];
  if (how === 'distribution')
    events.push({
      tenantId: conv.tenantId,
      conversationId,
      type: 'offered',
      detail: { user_uuid: user.uuid, user_email: user.email },
      at: now,
    });
  events.push({
    tenantId: conv.tenantId,
    conversationId,
    type: 'associate-user',
    at: now,
    detail: {
      user_uuid: user.uuid,
      user_email: user.email,
      new_user: ref,
      done_by: how,
      ...(doneBy ? { done_by_user: { id: doneBy.id, uuid: doneBy.uuid, username: doneBy.username, email: doneBy.email } } : {}),
    },
  });
  if (!current.timeAnswer)
    events.push({
      tenantId: conv.tenantId,
      conversationId,
      type: 'answered',
      detail: { email: user.email, user_uuid: user.uuid },
      at: now,
    });
  await tx.conversationEvent.createMany({ data: events });
  return conv;
}

/** A conversation held by a menu or a bot, locked, with its channel's entry sector. */
export async function lockConversationInBot(tx: Tx, conversationId: string) {
  const [conv] = await tx.$queryRaw<
    {
      id: string;
      tenantId: string;
      workspaceId: string;
      botMenuId: string | null;
      botId: string | null;
      state: string;
      entrySectorId: string | null;
      ticketNumber: number;
    }[]
  >`
    SELECT c.id, c."tenantId", c."workspaceId", c."botMenuId", c."botId", c.state::text AS state, ch."entrySectorId", c."ticketNumber"
    FROM "Conversation" c JOIN "Channel" ch ON ch.id = c."channelId" WHERE c.id = ${conversationId}::uuid FOR UPDATE OF c`;
  return conv ?? null;
}

/** A menu hands its conversation to a sector's queue (or none); the history entry says why. */
export async function menuHandsToQueue(
  tx: Tx,
  conv: { id: string; tenantId: string },
  sectorId: string | null,
  detail: Prisma.InputJsonObject,
  at: Date,
): Promise<void> {
  await tx.conversation.update({ where: { id: conv.id }, data: { state: 'waiting', sectorId, botMenuId: null, timeJoin: at } });
  await addConversationEvent(tx, conv, 'enter-queue', { event: 'menu', ...detail });
}

/** A menu answer ended the conversation: closed by the bot. */
export async function menuClosesConversation(
  tx: Tx,
  conv: { id: string; tenantId: string },
  detail: Prisma.InputJsonObject,
  at: Date,
): Promise<void> {
  await tx.conversation.update({ where: { id: conv.id }, data: { state: 'closed', closedAt: at, endedBy: 'bot', botMenuId: null } });
  await addConversationEvent(tx, conv, 'closed', { ended_by: 'bot', ...detail });
}

/** The conversation moves on to another menu. */
export async function setConversationMenu(tx: Tx, conversationId: string, menuId: string): Promise<void> {
  await tx.conversation.update({ where: { id: conversationId }, data: { botMenuId: menuId } });
}

export type ConversationWithChannel = Prisma.ConversationGetPayload<{ include: { channel: true } }>;

/** The tenant's conversation with its channel, or null. */
export function conversationWithChannel(
  db: Pick<Tx, 'conversation'>,
  tenantId: string,
  conversationId: string,
): Promise<ConversationWithChannel | null> {
  return db.conversation.findFirst({ where: { id: conversationId, tenantId }, include: { channel: true } });
}

/** The uuid of the agent holding a conversation now (null: nobody); throws when the conversation does not exist. */
export async function conversationHolderUuid(db: Pick<Tx, 'conversation' | 'user'>, conversationId: string): Promise<string | null> {
  const conv = await db.conversation.findUniqueOrThrow({ where: { id: conversationId }, select: { userId: true } });
  if (conv.userId === null) return null;
  return (await db.user.findUnique({ where: { id: conv.userId }, select: { uuid: true } }))?.uuid ?? null;
}

// --- an agent's or supervisor's actions on one conversation ---

/** The tenant's conversation with what presenting it needs, or null. */
export function findConversationRow(db: Db | Tx, tenantId: string, conversationId: string): Promise<ConversationRow | null> {
  return db.conversation.findFirst({ where: { id: conversationId, tenantId }, include: conversationInclude });
}

/** The tenant's conversation with what presenting it needs; throws when it does not exist. */
export function conversationRowOrThrow(db: Db | Tx, tenantId: string, conversationId: string): Promise<ConversationRow> {
  return db.conversation.findFirstOrThrow({ where: { id: conversationId, tenantId }, include: conversationInclude });
}

/** Locks the tenant's conversation and reads it after the lock; null when it does not exist. */
export async function lockTenantConversation(tx: Tx, tenantId: string, conversationId: string): Promise<ConversationRecord | null> {
  const locked = await tx.$queryRaw<
    { id: string }[]
  >`SELECT id FROM "Conversation" WHERE id = ${conversationId}::uuid AND "tenantId" = ${tenantId}::uuid FOR UPDATE`;
  if (!locked.length) return null;
  return tx.conversation.findUniqueOrThrow({ where: { id: conversationId } });
}

/** A user as conversation history names them; throws when the user does not exist. */
export function agentRefById(db: Db | Tx, userId: number): Promise<AgentRef> {
  return db.user.findUniqueOrThrow({ where: { id: userId }, ...userRef });
}

/** A user as conversation history names them, or null. */
export function findAgentRef(db: Db | Tx, userId: number): Promise<AgentRef | null> {
  return db.user.findUnique({ where: { id: userId }, ...userRef });
}

export async function setConversationArchived(tx: Tx, conversationId: string, archived: boolean): Promise<void> {
  await tx.conversation.update({ where: { id: conversationId }, data: { archived } });
}

/** Puts the conversation ahead of every waiting one of its workspace; its new priority. */
export async function moveToQueueTop(tx: Tx, conv: { id: string; tenantId: string; workspaceId: string }): Promise<number> {
  const top = await tx.conversation.aggregate({
    where: { tenantId: conv.tenantId, workspaceId: conv.workspaceId, state: 'waiting' },
    _max: { priority: true },
  });
  const next = (top._max.priority ?? 0) + 1;
  await tx.conversation.update({ where: { id: conv.id }, data: { priority: next } });
  return next;
}

/** Finishes the conversation: closed at `closedAt`, by whom, with a finish reason or none. */
export async function closeConversation(
  tx: Tx,
  conversationId: string,
  close: { closedAt: Date; endedBy: 'agent' | 'supervisor'; endReasonId: string | null },
): Promise<void> {
  await tx.conversation.update({ where: { id: conversationId }, data: { state: 'closed', ...close } });
}

/** The tenant's live sector, by id and name, or null. */
export function liveSectorRef(db: Db | Tx, tenantId: string, sectorId: string): Promise<{ id: string; name: string } | null> {
  return db.sector.findFirst({ where: { id: sectorId, tenantId, deletedAt: null }, select: { id: true, name: true } });
}

/** A sector, by id and name, deleted or not, or null. */
export function sectorRefById(db: Db | Tx, sectorId: string): Promise<{ id: string; name: string } | null> {
  return db.sector.findUnique({ where: { id: sectorId }, select: { id: true, name: true } });
}

/** The tenant's live agent a conversation may be transferred to, with their presence, or null. */
export function transferCandidate(db: Db | Tx, tenantId: string, userUuid: string) {
  return db.user.findFirst({
    where: { uuid: userUuid, tenantId, deletedAt: null, roles: { has: 'agent' } },
    select: { id: true, uuid: true, email: true, username: true, isLogged: true, state: true, workspaceId: true },
  });
}

/** A conversation as a bot step reads it: its bot state, entry sector, the tenant's config and the contact. */
export interface BotConversation {
  id: string;
  tenantId: string;
  workspaceId: string;
  state: string;
  botId: string | null;
  botNodeId: string | null;
  botVars: unknown;
  botCursor: Date | null;
  botRevision: number;
  entrySectorId: string | null;
  ticketNumber: number;
  tenantConfig: unknown;
  contactName: string;
  contactPhone: string | null;
}

export async function botConversation(db: Db, conversationId: string): Promise<BotConversation | null> {
  const [row] = await db.$queryRaw<BotConversation[]>`
    SELECT c.id, c."tenantId", c."workspaceId", c.state::text AS state, c."botId", c."botNodeId", c."botVars", c."botCursor", c."botRevision",
           ch."entrySectorId", c."ticketNumber", t.config AS "tenantConfig", ct.name AS "contactName", ct."phoneNumber" AS "contactPhone"
    FROM "Conversation" c JOIN "Channel" ch ON ch.id = c."channelId" JOIN "Contact" ct ON ct.id = c."contactId" JOIN "Tenant" t ON t.id = c."tenantId"
    WHERE c.id = ${conversationId}::uuid`;
  return row ?? null;
}

/** The contact's messages a bot has not read yet (after its cursor), oldest first, at most `limit`. */
export async function contactMessagesAfter(
  db: Db,
  conversationId: string,
  cursor: Date | null,
  limit: number,
): Promise<{ content: string; createdAt: Date }[]> {
  return db.message.findMany({
    where: { conversationId, author: 'CONTACT', ...(cursor ? { createdAt: { gt: cursor } } : {}) },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { content: true, createdAt: true },
    take: limit,
  });
}

/** Locks a conversation and reads its bot revision and state (a bot step commits only on the revision it read). */
export async function lockBotRevision(tx: Tx, conversationId: string): Promise<{ botRevision: number; state: string } | null> {
  const [now] = await tx.$queryRaw<{ botRevision: number; state: string }[]>`
    SELECT "botRevision", state::text AS state FROM "Conversation" WHERE id = ${conversationId}::uuid FOR UPDATE`;
  return now ?? null;
}

/** A conversation handed to a bot from its start: state bot, nobody's, no sector, the contact's messages so far read. */
export async function handConversationToBot(tx: Tx, conversationId: string, botId: string, at: Date): Promise<void> {
  await tx.conversation.update({
    where: { id: conversationId },
    data: {
      state: 'bot',
      botId,
      botMenuId: null,
      botNodeId: null,
      botVars: {},
      botCursor: at,
      botRevision: { increment: 1 },
      userId: null,
      sectorId: null,
    },
  });
}

/** The bot waits for the contact at `nodeId` with its variables; a new revision. */
export async function storeBotWait(
  tx: Tx,
  conversationId: string,
  nodeId: string | null,
  vars: Prisma.InputJsonObject,
  cursor: Date | null,
): Promise<void> {
  await tx.conversation.update({
    where: { id: conversationId },
    data: { botNodeId: nodeId, botVars: vars, botCursor: cursor, botRevision: { increment: 1 } },
  });
}

const leaveBot = (cursor: Date | null) => ({ botId: null, botNodeId: null, botVars: {}, botCursor: cursor, botRevision: { increment: 1 } });

/** The bot ended the conversation: closed by the bot. */
export async function botClosesConversation(
  tx: Tx,
  conv: { id: string; tenantId: string },
  botId: string | null,
  cursor: Date | null,
  at: Date,
): Promise<void> {
  await tx.conversation.update({ where: { id: conv.id }, data: { ...leaveBot(cursor), state: 'closed', closedAt: at, endedBy: 'bot' } });
  await addConversationEvent(tx, conv, 'closed', { ended_by: 'bot', bot_uuid: botId });
}

/** The bot hands the conversation to a sector's queue; the history entry says why. */
export async function botHandsToQueue(
  tx: Tx,
  conv: { id: string; tenantId: string },
  sectorId: string | null,
  cursor: Date | null,
  at: Date,
  detail: Prisma.InputJsonObject,
): Promise<void> {
  await tx.conversation.update({ where: { id: conv.id }, data: { ...leaveBot(cursor), state: 'waiting', sectorId, timeJoin: at } });
  await addConversationEvent(tx, conv, 'enter-queue', detail);
}

// --- an agent starting an outbound conversation ---

/** The tenant's live channel, or null. */
export function liveTenantChannel(db: Db | Tx, tenantId: string, channelId: string) {
  return db.channel.findFirst({ where: { id: channelId, tenantId, deletedAt: null } });
}

/** The tenant's live template of the channel, with what presenting it needs, or null. */
export function liveTenantChannelTemplate(db: Db | Tx, tenantId: string, channelId: string, templateId: string) {
  return db.outboundTemplate.findFirst({ where: { id: templateId, tenantId, channelId, deletedAt: null }, include: templateInclude });
}

/**
 * Makes `address` the contact's identity on the channel (where an e-mail's replies come from):
 * changes the contact's identity there, or adds one. False, changing nothing, when the address is
 * another contact's identity on the channel.
 */
export async function claimContactIdentity(
  tx: Tx,
  tenantId: string,
  channelId: string,
  contactId: string,
  address: string,
): Promise<boolean> {
  const identity = await tx.contactIdentity.findFirst({ where: { tenantId, channelId, identifier: address } });
  if (identity && identity.contactId !== contactId) return false;
  const mine = await tx.contactIdentity.findFirst({ where: { tenantId, channelId, contactId } });
  if (mine && mine.identifier !== address) await tx.contactIdentity.update({ where: { id: mine.id }, data: { identifier: address } });
  else if (!mine) await tx.contactIdentity.create({ data: { tenantId, channelId, contactId, identifier: address } });
  return true;
}

/** Locks a contact's row: conversations of one contact start one at a time. */
export async function lockContactRow(tx: Tx, contactId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM "Contact" WHERE id = ${contactId}::uuid FOR UPDATE`;
}

/** Whether the contact has a conversation on the channel that is not closed. */
export async function hasOpenConversationOnChannel(tx: Tx, tenantId: string, contactId: string, channelId: string): Promise<boolean> {
  return (
    (await tx.conversation.findFirst({ where: { tenantId, contactId, channelId, state: { not: 'closed' } }, select: { id: true } })) !==
    null
  );
}

export interface NewOutboundConversation {
  tenantId: string;
  workspaceId: string;
  contactId: string;
  channelId: string;
  sectorId: string | null;
  agent: AgentRef;
  ticketNumber: number;
  at: Date;
  message: {
    id: string;
    content: string;
    deliver: boolean;
    templateMessage?: Prisma.InputJsonObject;
    interactiveContent?: Prisma.InputJsonObject;
  };
}

/**
 * Writes an outbound conversation the agent started (theirs, outbound-started), its history entry,
 * its first message and, when the channel delivers it, the message's delivery job (outbox, same transaction).
 */
export async function insertOutboundConversation(
  tx: Tx,
  c: NewOutboundConversation,
): Promise<{ conversation: ConversationRecord; first: Prisma.MessageGetPayload<object> }> {
  const conversation = await tx.conversation.create({
    data: {
      tenantId: c.tenantId,
      workspaceId: c.workspaceId,
      contactId: c.contactId,
      channelId: c.channelId,
      sectorId: c.sectorId,
      userId: c.agent.id,
      state: 'outbound_started',
      type: 'outbound',
      ticketNumber: c.ticketNumber,
      timeAnswer: c.at,
      lastMessageAt: c.at,
    },
  });
  await tx.conversationEvent.create({
    data: {
      tenantId: c.tenantId,
      conversationId: conversation.id,
      type: 'associate-user',
      detail: { user_uuid: c.agent.uuid, user_email: c.agent.email, done_by: 'outbound' },
    },
  });
  const m = c.message;
  const first = await tx.message.create({
    data: {
      id: m.id,
      tenantId: c.tenantId,
      conversationId: conversation.id,
      author: 'USER',
      userId: c.agent.id,
      content: m.content,
      tags: [],
      state: 'pending',
      status: m.deliver ? 'sending' : null,
      createdAt: c.at,
      ...(m.templateMessage ? { templateMessage: m.templateMessage } : {}),
      ...(m.interactiveContent ? { interactiveContent: m.interactiveContent } : {}),
    },
  });
  if (m.deliver) await enqueue(tx, queues.channelDelivery.name, { tenant_uuid: c.tenantId, message_uuid: m.id });
  return { conversation, first };
}

// --- who may read a conversation ---

/**
 * Whether a reply to a live campaign the user sees (their own and the public ones; every one for
 * an admin) opened the conversation.
 */
export async function openedByVisibleCampaign(
  db: Db | Tx,
  tenantId: string,
  conversationId: string,
  viewer: { userId: number; admin: boolean },
): Promise<boolean> {
  const visible = viewer.admin ? {} : { OR: [{ createdById: viewer.userId }, { isPublic: true }] };
  const replies = await db.campaignSubscriber.count({ where: { tenantId, conversationId, campaign: { deletedAt: null, ...visible } } });
  return replies > 0;
}

/** Whether the agent holds an active conversation with the contact now. */
export async function isServingContact(db: Db | Tx, tenantId: string, contactId: string, userId: number): Promise<boolean> {
  const serving = await db.conversation.count({ where: { tenantId, contactId, userId, state: { in: [...ACTIVE_STATES] } } });
  return serving > 0;
}
