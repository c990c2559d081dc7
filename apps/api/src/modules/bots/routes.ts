import { AppError, BotNodeSchema, PAGE_LIMIT_MAX, botHistory, createBot, deleteBot, getBot, listBots, updateBot, type Bot, type BotHistoryRow } from '@atende/contract';
import { botFlowIssues, type BotNode } from '@atende/core';
import { Prisma, scoped } from '@atende/db';
import type { FastifyInstance } from 'fastify';
import { bind, type Access } from '../../bind';
import type { AppContext } from '../../context';
import { reportRange } from '../reports/export';
import type { Session } from '../session/session';

type Row = Prisma.BotGetPayload<object>;
const access: Access = 'bots.manage';
/** Campaign managers pick a bot for the chatbot_outbound reply action: they list bots, nothing more. */
const listAccess: Access = 'bots.read';
const present = (r: Row): Bot => ({
  uuid: r.id,
  name: r.name,
  nodes: BotNodeSchema.array().catch([]).parse(r.nodes),
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
});

/** Bot flows (spec 002 §2 settings/bots and the bot editor, §5 flow rules, §8 'There is already a bot with this name'): admin + bots_interface. */
export function botRoutes(app: FastifyInstance, ctx: AppContext): void {
  const db = (session: Session) => scoped(ctx.db, session);
  const find = async (session: Session, id: string) => {
    const row = await db(session).bot.findFirst({ where: { id, workspaceId: session.workspaceId, deletedAt: null } });
    if (!row) throw new AppError('not_found', 'Bot not found');
    return row;
  };
  async function check(session: Session, name: string, nodes: BotNode[], self: string | null) {
    const issues = botFlowIssues(name, nodes);
    if (issues.length) throw new AppError('validation_failed', issues[0]!.message, issues);
    const taken = await db(session).bot.findFirst({
      where: { workspaceId: session.workspaceId, deletedAt: null, name: { equals: name.trim(), mode: 'insensitive' }, ...(self ? { id: { not: self } } : {}) },
    });
    if (taken) throw new AppError('conflict', 'There is already a bot with this name', [{ path: 'name', message: 'There is already a bot with this name' }]);
    const sectors = [...new Set(nodes.map((n) => n.sector_uuid).filter((v): v is string => !!v))];
    if (sectors.length && (await db(session).sector.count({ where: { id: { in: sectors }, workspaceId: session.workspaceId, deletedAt: null } })) !== sectors.length) {
      throw new AppError('validation_failed', 'Sector not found', [{ path: 'nodes', message: 'Sector not found' }]);
    }
  }

  bind(app, listBots, listAccess, async ({ session }) => ({
    data: (await db(session).bot.findMany({ where: { workspaceId: session.workspaceId, deletedAt: null }, orderBy: { name: 'asc' } })).map(present),
  }));
  bind(app, getBot, access, async ({ session, params }) => ({ data: present(await find(session, params.id)) }));
  bind(app, createBot, access, async ({ session, body }) => {
    await check(session, body.name, body.nodes, null);
    const row = await db(session).bot.create({ data: { tenantId: session.tenantId, workspaceId: session.workspaceId, name: body.name.trim(), nodes: body.nodes } });
    return { data: present(row) };
  });
  bind(app, updateBot, access, async ({ session, params, body }) => {
    const current = await find(session, params.id);
    const name = body.name ?? current.name;
    const nodes = body.nodes ?? present(current).nodes;
    await check(session, name, nodes, current.id);
    const row = await db(session).bot.update({ where: { id: current.id }, data: { name: name.trim(), nodes } });
    return { data: present(row) };
  });
  bind(app, deleteBot, access, async ({ session, params }) => {
    const current = await find(session, params.id);
    // Spec 002 §8: a bot greeting a channel's conversations stays until the channel changes.
    const bound = await db(session).channel.count({ where: { entryBotId: current.id, deletedAt: null } });
    if (bound) throw new AppError('conflict', 'Some channels depend on this bot');
    await db(session).bot.update({ where: { id: current.id }, data: { deletedAt: new Date() } });
    return { data: { uuid: current.id } };
  });

  // Issue 16 item 18 (spec 002 §7): each pass of a conversation through a bot flow or an automated
  // menu. A pass ends with the flow's last history entry (into a queue, or closed), which names the
  // flow or menu; a conversation still in one is listed from the conversation itself.
  bind(app, botHistory, 'reports.bots', async ({ session, query }) => {
    const { from, to } = reportRange(query);
    const only = query.bot_uuid ? Prisma.sql`WHERE h."botId" = ${query.bot_uuid}::uuid` : Prisma.empty;
    const rows = await ctx.db.$queryRaw<
      { id: string; ticket: number; contact: string; phone: string | null; channelId: string; channel: string; botId: string; bot: string; kind: 'bot' | 'menu'; outcome: BotHistoryRow['outcome']; at: Date; total: bigint }[]
    >`
      WITH h AS (
        SELECT c.id, c."ticketNumber" AS ticket, ct.name AS contact, ct."phoneNumber" AS phone, ch.id AS "channelId", ch.name AS channel,
               COALESCE(b.id, m.id) AS "botId", COALESCE(b.name, m.name) AS bot, CASE WHEN b.id IS NOT NULL THEN 'bot' ELSE 'menu' END AS kind,
               CASE WHEN e.type = 'closed' THEN 'ended' ELSE 'sent_to_queue' END AS outcome, e.at
        FROM "ConversationEvent" e
        JOIN "Conversation" c ON c.id = e."conversationId"
        JOIN "Contact" ct ON ct.id = c."contactId" JOIN "Channel" ch ON ch.id = c."channelId"
        LEFT JOIN "Bot" b ON b.id::text = e.detail->>'bot_uuid' AND b."tenantId" = e."tenantId"
        LEFT JOIN "AutomatedMenu" m ON m.id::text = e.detail->>'menu_uuid' AND m."tenantId" = e."tenantId"
        WHERE e."tenantId" = ${session.tenantId}::uuid AND c."workspaceId" = ${session.workspaceId}::uuid
          AND e.type IN ('enter-queue', 'closed') AND e.at >= ${from} AND e.at < ${to} AND (b.id IS NOT NULL OR m.id IS NOT NULL)
        UNION ALL
        SELECT c.id, c."ticketNumber", ct.name, ct."phoneNumber", ch.id, ch.name,
               COALESCE(b.id, m.id), COALESCE(b.name, m.name), CASE WHEN b.id IS NOT NULL THEN 'bot' ELSE 'menu' END, 'in_bot', c."createdAt"
        FROM "Conversation" c
        JOIN "Contact" ct ON ct.id = c."contactId" JOIN "Channel" ch ON ch.id = c."channelId"
        LEFT JOIN "Bot" b ON b.id = c."botId" LEFT JOIN "AutomatedMenu" m ON m.id = c."botMenuId"
        WHERE c."tenantId" = ${session.tenantId}::uuid AND c."workspaceId" = ${session.workspaceId}::uuid AND c.state = 'bot'::"ConversationState"
          AND c."createdAt" >= ${from} AND c."createdAt" < ${to} AND (b.id IS NOT NULL OR m.id IS NOT NULL)
      )
      , f AS (SELECT * FROM h ${only})
      -- The total from its own count, joined to the page: a page past the last row still carries it
      -- (a window count over the page's rows was 0 there).
      SELECT p.*, t.total FROM (SELECT count(*) AS total FROM f) t
      LEFT JOIN LATERAL (SELECT * FROM f ORDER BY f.at DESC, f.id LIMIT ${query._limit === 0 ? PAGE_LIMIT_MAX : query._limit} OFFSET ${query._offset}) p ON true
      ORDER BY p.at DESC, p.id`;
    return {
      data: rows.filter((r) => r.id !== null).map((r) => ({
        conversation_uuid: r.id, ticket_number: r.ticket, contact: { name: r.contact, phone: r.phone }, channel: { uuid: r.channelId, name: r.channel },
        bot: { uuid: r.botId, name: r.bot, kind: r.kind }, outcome: r.outcome, at: r.at.toISOString(),
      })),
      pagination: { total: Number(rows[0]?.total ?? 0), limit: query._limit, offset: query._offset },
    };
  });
}
