import { botHistory, createBot, deleteBot, getBot, listBots, updateBot } from '@atende/contract';
import type { FastifyInstance } from 'fastify';
import { bind, type Access } from '../../bind';
import type { AppContext } from '../../context';
import { BotService } from './service';

const access: Access = 'bots.manage';
/** Campaign managers pick a bot for the chatbot_outbound reply action: they list bots, nothing more. */
const listAccess: Access = 'bots.read';

/** Bot flows (settings/bots and the bot editor): admin + bots_interface. */
export function botRoutes(app: FastifyInstance, ctx: AppContext): void {
  const bots = new BotService(ctx);

  bind(app, listBots, listAccess, async ({ session }) => ({ data: await bots.list(session) }));
  bind(app, getBot, access, async ({ session, params }) => ({ data: await bots.get(session, params.id) }));
  bind(app, createBot, access, async ({ session, body }) => ({ data: await bots.create(session, body) }));
  bind(app, updateBot, access, async ({ session, params, body }) => ({ data: await bots.update(session, params.id, body) }));
  bind(app, deleteBot, access, async ({ session, params }) => ({ data: { uuid: await bots.remove(session, params.id) } }));

  bind(app, botHistory, 'reports.bots', async ({ session, query }) => bots.history(session, query));
}
