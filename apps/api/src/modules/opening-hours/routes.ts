import { getOpeningHours, updateOpeningHours } from '@atende/contract';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import { OpeningHoursService } from './service';

/** The workspace's opening hours; the out-of-hours reply is sent by @atende/conversations replyOutOfHours. */
export function openingHoursRoutes(app: FastifyInstance, ctx: AppContext): void {
  const hours = new OpeningHoursService(ctx);
  bind(app, getOpeningHours, 'settings.opening_hours.read', async ({ session }) => ({ data: await hours.read(session) }));
  // Changing when the workspace answers is a manager's call, as the rest of the workspace settings (PATCH /workspaces/me).
  bind(app, updateOpeningHours, 'settings.opening_hours.write', async ({ session, body }) => ({
    data: await hours.update(session, body),
  }));
}
