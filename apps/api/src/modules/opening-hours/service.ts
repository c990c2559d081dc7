import { AppError, OpeningHoursSchema, WEEKDAYS, type BodyOf, type OpeningHours, type updateOpeningHours } from '@atende/contract';
import { DEFAULT_OPENING_HOURS } from '@atende/core';
import { findOpeningHours, storeOpeningHours } from '@atende/db';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';

/** The workspace's opening hours; the out-of-hours reply is sent by @atende/conversations replyOutOfHours. */
export class OpeningHoursService {
  constructor(private readonly ctx: AppContext) {}

  async read(session: Session): Promise<OpeningHours> {
    const row = await findOpeningHours(this.ctx.db, session);
    if (!row) return DEFAULT_OPENING_HOURS;
    const days = OpeningHoursSchema.shape.days.safeParse(row.days);
    return {
      enabled: row.enabled,
      timezone: row.timezone,
      days: days.success ? days.data : DEFAULT_OPENING_HOURS.days,
      out_of_hours_message: row.outOfHoursMessage,
    };
  }

  async update(session: Session, body: BodyOf<typeof updateOpeningHours>): Promise<OpeningHours> {
    const days = [...body.days].sort((a, b) => WEEKDAYS.indexOf(a.weekday) - WEEKDAYS.indexOf(b.weekday));
    const stored = await storeOpeningHours(this.ctx.db, session, {
      enabled: body.enabled,
      timezone: body.timezone,
      days,
      outOfHoursMessage: body.out_of_hours_message,
    });
    if (!stored) throw new AppError('workspace_not_found', 'Workspace not found');
    return this.read(session);
  }
}
