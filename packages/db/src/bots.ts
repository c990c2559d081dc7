import { Prisma } from '../generated/prisma/client';
import type { ReportPeriod } from './reports';
import type { WorkspaceScope } from './workspace';

type Client = Pick<Prisma.TransactionClient, 'bot' | 'channel'>;

export type BotRow = Prisma.BotGetPayload<object>;

/** The workspace's live bot, or null. */
export function findBot(db: Client, ws: WorkspaceScope, id: string): Promise<BotRow | null> {
  return db.bot.findFirst({ where: { id, tenantId: ws.tenantId, workspaceId: ws.workspaceId, deletedAt: null } });
}

/** The workspace's live bots by name. */
export function listBotRows(db: Client, ws: WorkspaceScope): Promise<BotRow[]> {
  return db.bot.findMany({ where: { tenantId: ws.tenantId, workspaceId: ws.workspaceId, deletedAt: null }, orderBy: { name: 'asc' } });
}

/** Whether another live bot of the workspace has this name, case aside. */
export async function botNameTaken(db: Client, ws: WorkspaceScope, name: string, exceptId: string | null): Promise<boolean> {
  const taken = await db.bot.findFirst({
    where: {
      tenantId: ws.tenantId,
      workspaceId: ws.workspaceId,
      deletedAt: null,
      name: { equals: name, mode: 'insensitive' },
      ...(exceptId ? { id: { not: exceptId } } : {}),
    },
    select: { id: true },
  });
  return taken !== null;
}

export function insertBot(db: Client, ws: WorkspaceScope, bot: { name: string; nodes: Prisma.InputJsonValue }): Promise<BotRow> {
  return db.bot.create({ data: { tenantId: ws.tenantId, workspaceId: ws.workspaceId, name: bot.name, nodes: bot.nodes } });
}

export function updateBotFields(
  db: Client,
  tenantId: string,
  id: string,
  bot: { name: string; nodes: Prisma.InputJsonValue },
): Promise<BotRow> {
  return db.bot.update({ where: { id, tenantId }, data: { name: bot.name, nodes: bot.nodes } });
}

/** How many live channels greet their conversations with the bot. */
export function countChannelsEnteringBot(db: Client, tenantId: string, botId: string): Promise<number> {
  return db.channel.count({ where: { tenantId, entryBotId: botId, deletedAt: null } });
}

export async function softDeleteBot(db: Client, tenantId: string, id: string): Promise<void> {
  await db.bot.update({ where: { id, tenantId }, data: { deletedAt: new Date() } });
}

/** A pass of a conversation through a bot flow or menu; `id` is null on the row of a page past the last (it still carries the total). */
export interface BotPassRow {
  id: string;
  ticket: number;
  contact: string;
  phone: string | null;
  channelId: string;
  channel: string;
  botId: string;
  bot: string;
  kind: 'bot' | 'menu';
  outcome: 'ended' | 'sent_to_queue' | 'in_bot';
  at: Date;
  total: bigint;
}

/**
 * Each pass of a conversation through a bot flow or an automated menu in the period, newest first.
 * A pass ends with the flow's last history entry (into a queue, or closed), which names the flow or
 * menu; a conversation still in one is listed from the conversation itself.
 */
export function botPassRows(
  db: Pick<Prisma.TransactionClient, '$queryRaw'>,
  ws: WorkspaceScope,
  { from, to }: ReportPeriod,
  botId: string | null | undefined,
  page: { limit: number; offset: number },
): Promise<BotPassRow[]> {
  const only = botId ? Prisma.sql`WHERE h."botId" = ${botId}::uuid` : Prisma.empty;
  return db.$queryRaw<BotPassRow[]>`
      WITH h AS (
        SELECT c.id, c."ticketNumber" AS ticket, ct.name AS contact, ct."phoneNumber" AS phone, ch.id AS "channelId", ch.name AS channel,
               COALESCE(b.id, m.id) AS "botId", COALESCE(b.name, m.name) AS bot, CASE WHEN b.id IS NOT NULL THEN 'bot' ELSE 'menu' END AS kind,
               CASE WHEN e.type = 'closed' THEN 'ended' ELSE 'sent_to_queue' END AS outcome, e.at
        FROM "ConversationEvent" e
        JOIN "Conversation" c ON c.id = e."conversationId"
        JOIN "Contact" ct ON ct.id = c."contactId" JOIN "Channel" ch ON ch.id = c."channelId"
        LEFT JOIN "Bot" b ON b.id::text = e.detail->>'bot_uuid' AND b."tenantId" = e."tenantId"
        LEFT JOIN "AutomatedMenu" m ON m.id::text = e.detail->>'menu_uuid' AND m."tenantId" = e."tenantId"
        WHERE e."tenantId" = ${ws.tenantId}::uuid AND c."workspaceId" = ${ws.workspaceId}::uuid
          AND e.type IN ('enter-queue', 'closed') AND e.at >= ${from} AND e.at < ${to} AND (b.id IS NOT NULL OR m.id IS NOT NULL)
        UNION ALL
        SELECT c.id, c."ticketNumber", ct.name, ct."phoneNumber", ch.id, ch.name,
               COALESCE(b.id, m.id), COALESCE(b.name, m.name), CASE WHEN b.id IS NOT NULL THEN 'bot' ELSE 'menu' END, 'in_bot', c."createdAt"
        FROM "Conversation" c
        JOIN "Contact" ct ON ct.id = c."contactId" JOIN "Channel" ch ON ch.id = c."channelId"
        LEFT JOIN "Bot" b ON b.id = c."botId" LEFT JOIN "AutomatedMenu" m ON m.id = c."botMenuId"
        WHERE c."tenantId" = ${ws.tenantId}::uuid AND c."workspaceId" = ${ws.workspaceId}::uuid AND c.state = 'bot'::"ConversationState"
          AND c."createdAt" >= ${from} AND c."createdAt" < ${to} AND (b.id IS NOT NULL OR m.id IS NOT NULL)
      )
      , f AS (SELECT * FROM h ${only})
      -- The total from its own count, joined to the page: a page past the last row still carries it
      -- (a window count over the page's rows was 0 there).
      SELECT p.*, t.total FROM (SELECT count(*) AS total FROM f) t
      LEFT JOIN LATERAL (SELECT * FROM f ORDER BY f.at DESC, f.id LIMIT ${page.limit} OFFSET ${page.offset}) p ON true
      ORDER BY p.at DESC, p.id`;
}

/** A live bot of the tenant with its flow, if it exists. */
export function liveBot(
  db: Pick<Prisma.TransactionClient, 'bot'>,
  tenantId: string,
  botId: string,
): Promise<{ id: string; nodes: Prisma.JsonValue } | null> {
  return db.bot.findFirst({ where: { id: botId, tenantId, deletedAt: null }, select: { id: true, nodes: true } });
}
