import { AppError, getOpeningHours, OpeningHoursSchema, updateOpeningHours, WEEKDAYS, type OpeningHours } from '@atende/contract';
import { DEFAULT_OPENING_HOURS } from '@atende/core';
import { findOpeningHours, storeOpeningHours } from '@atende/db';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';

/** The workspace's opening hours; the out-of-hours reply is sent by @atende/conversations replyOutOfHours. */
export function openingHoursRoutes(app: FastifyInstance, ctx: AppContext): void {
  async function read(session: Session): Promise<OpeningHours> {
    const row = await findOpeningHours(ctx.db, session);
    if (!row) return DEFAULT_OPENING_HOURS;
    const days = OpeningHoursSchema.shape.days.safeParse(row.days);
    return {
      enabled: row.enabled,
      timezone: row.timezone,
      days: days.success ? days.data : DEFAULT_OPENING_HOURS.days,
      out_of_hours_message: row.outOfHoursMessage,
    };
  }

  bind(app, getOpeningHours, 'settings.opening_hours.read', async ({ session }) => ({ data: await read(session) }));
  // Changing when the workspace answers is a manager's call, as the rest of the workspace settings (PATCH /workspaces/me).
  bind(app, updateOpeningHours, 'settings.opening_hours.write', async ({ session, body }) => {
    const days = [...body.days].sort((a, b) => WEEKDAYS.indexOf(a.weekday) - WEEKDAYS.indexOf(b.weekday));
    const stored = await storeOpeningHours(ctx.db, session, {
      enabled: body.enabled,
      timezone: body.timezone,
      days,
      outOfHoursMessage: body.out_of_hours_message,
    });
    if (!stored) throw new AppError('workspace_not_found', 'Workspace not found');
    return { data: await read(session) };
  });
}
