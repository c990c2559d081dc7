import { AppError, BotNodeSchema, botHistory, createBot, deleteBot, getBot, listBots, updateBot, type Bot } from '@atende/contract';
import { botFlowIssues, type BotNode } from '@atende/core';
import {
  botNameTaken,
  countChannelsEnteringBot,
  countLiveSectors,
  findBot,
  insertBot,
  listBotRows,
  softDeleteBot,
  updateBotFields,
  type BotRow as Row,
} from '@atende/db';
import type { FastifyInstance } from 'fastify';
import { bind, type Access } from '../../bind';
import type { AppContext } from '../../context';
import { reportRange } from '../reports/export';
import type { Session } from '../session/session';
import { botHistoryPage } from './history';

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

/** Bot flows (settings/bots and the bot editor, flow rules, 'There is already a bot with this name'): admin + bots_interface. */
export function botRoutes(app: FastifyInstance, ctx: AppContext): void {
  const find = async (session: Session, id: string) => {
    const row = await findBot(ctx.db, session, id);
    if (!row) throw new AppError('bot_not_found', 'Bot not found');
    return row;
  };
  async function check(session: Session, name: string, nodes: BotNode[], self: string | null) {
    const issues = botFlowIssues(name, nodes);
    if (issues.length) throw new AppError('validation_failed', issues[0]!.message, issues);
    const taken = await botNameTaken(ctx.db, session, name.trim(), self);
    if (taken)
      throw new AppError('bot_name_taken', 'There is already a bot with this name', [
        { path: 'name', message: 'There is already a bot with this name' },
      ]);
    const sectors = [...new Set(nodes.map((n) => n.sector_uuid).filter((v): v is string => !!v))];
    if (sectors.length && (await countLiveSectors(ctx.db, session, sectors)) !== sectors.length) {
      throw new AppError('sector_unknown', 'Sector not found', [{ path: 'nodes', message: 'Sector not found' }]);
    }
  }

  bind(app, listBots, listAccess, async ({ session }) => ({
    data: (await listBotRows(ctx.db, session)).map(present),
  }));
  bind(app, getBot, access, async ({ session, params }) => ({ data: present(await find(session, params.id)) }));
  bind(app, createBot, access, async ({ session, body }) => {
    await check(session, body.name, body.nodes, null);
    const row = await insertBot(ctx.db, session, { name: body.name.trim(), nodes: body.nodes });
    return { data: present(row) };
  });
  bind(app, updateBot, access, async ({ session, params, body }) => {
    const current = await find(session, params.id);
    const name = body.name ?? current.name;
    const nodes = body.nodes ?? present(current).nodes;
    await check(session, name, nodes, current.id);
    const row = await updateBotFields(ctx.db, session.tenantId, current.id, { name: name.trim(), nodes });
    return { data: present(row) };
  });
  bind(app, deleteBot, access, async ({ session, params }) => {
    const current = await find(session, params.id);
    // A bot greeting a channel's conversations stays until the channel changes.
    const bound = await countChannelsEnteringBot(ctx.db, session.tenantId, current.id);
    if (bound) throw new AppError('bot_in_use', 'Some channels depend on this bot');
    await softDeleteBot(ctx.db, session.tenantId, current.id);
    return { data: { uuid: current.id } };
  });

  // Each pass of a conversation through a bot flow or an automated
  // menu. A pass ends with the flow's last history entry (into a queue, or closed), which names the
  // flow or menu; a conversation still in one is listed from the conversation itself.
  bind(app, botHistory, 'reports.bots', async ({ session, query }) => {
    const { from, to } = reportRange(query);
    return botHistoryPage(ctx.db, session, { from, to }, query.bot_uuid, query);
  });
}
