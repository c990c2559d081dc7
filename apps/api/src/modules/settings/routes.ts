import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { cannedRoutes } from './canned';
import { pauseRoutes } from './pauses';
import { conversationReasonRoutes } from './reasons';
import { sectorRoutes } from './sectors';

/** The admin settings resources: sectors, pauses, conversation reasons, canned responses. */
export function settingsRoutes(app: FastifyInstance, ctx: AppContext): void {
  sectorRoutes(app, ctx);
  pauseRoutes(app, ctx);
  conversationReasonRoutes(app, ctx);
  cannedRoutes(app, ctx);
}
