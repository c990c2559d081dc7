import { AppError, BotNodeSchema, createBot, deleteBot, getBot, listBots, updateBot, type Bot } from '@atende/contract';
import { botFlowIssues, type BotNode } from '@atende/core';
import { scoped, type Prisma } from '@atende/db';
import type { FastifyInstance } from 'fastify';
import { bind, type Access } from '../../bind';
import type { AppContext } from '../../context';
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
}
