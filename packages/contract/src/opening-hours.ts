import { z } from 'zod';
import { dataOf } from './common';
import { route } from './route';
import { fieldMessage } from './field-messages';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export const WeekdaySchema = z.enum(WEEKDAYS);
export type Weekday = z.infer<typeof WeekdaySchema>;

// Opening hours need at least one weekday and the message.
export const AT_LEAST_ONE_WEEKDAY = fieldMessage('weekday_required');
export const MESSAGE_REQUIRED = fieldMessage('message_required');
export const OUT_OF_HOURS_MESSAGE_MAX = 1000;

/** 'HH:MM' of a 24-hour day; '24:00' may close the last range of a day. */
const TIME = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;
const Time = z.string().regex(TIME, fieldMessage('time_format_invalid'));
export const TimeRangeSchema = z
  .object({ start: Time, end: Time })
  // Only well-formed times are compared ('HH:MM' strings order as times do).
  .refine((r) => !TIME.test(r.start) || !TIME.test(r.end) || r.start < r.end, {
    message: fieldMessage('time_range_order'),
    path: ['end'],
  });
export type TimeRange = z.infer<typeof TimeRangeSchema>;

export const OpeningDaySchema = z.object({
  weekday: WeekdaySchema,
  ranges: z
    .array(TimeRangeSchema)
    .min(1, fieldMessage('time_ranges_required'))
    .max(6)
    .refine(
      (ranges) => [...ranges].sort((a, b) => a.start.localeCompare(b.start)).every((r, i, all) => i === 0 || all[i - 1]!.end <= r.start),
      {
        message: fieldMessage('time_ranges_overlap'),
      },
    ),
});
export type OpeningDay = z.infer<typeof OpeningDaySchema>;

/** Whether the runtime knows an IANA time zone name. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const Days = z
  .array(OpeningDaySchema, { message: AT_LEAST_ONE_WEEKDAY })
  .min(1, AT_LEAST_ONE_WEEKDAY)
  .max(7)
  .refine((days) => new Set(days.map((d) => d.weekday)).size === days.length, fieldMessage('weekday_repeated'));

/** Opening hours of a workspace as read: weekdays with their time ranges, the out-of-hours message and the time zone. */
export const OpeningHoursSchema = z.object({
  /** Off: no out-of-hours reply is sent, whatever the hours say. */
  enabled: z.boolean(),
  timezone: z.string(),
  days: z.array(OpeningDaySchema),
  /** Empty until first saved. */
  out_of_hours_message: z.string(),
});
export type OpeningHours = z.infer<typeof OpeningHoursSchema>;

/** What may be saved (at least one weekday; message required). The settings form validates with it too. */
export const OpeningHoursInputSchema = z.strictObject({
  enabled: z.boolean(),
  timezone: z.string().min(1).max(64).refine(isTimeZone, fieldMessage('time_zone_invalid')),
  days: Days,
  out_of_hours_message: z
    .string({ message: MESSAGE_REQUIRED })
    .trim()
    .min(1, MESSAGE_REQUIRED)
    .max(OUT_OF_HOURS_MESSAGE_MAX, fieldMessage('field_max_characters', { max: OUT_OF_HOURS_MESSAGE_MAX })),
});
export type OpeningHoursInput = z.infer<typeof OpeningHoursInputSchema>;

export const getOpeningHours = route({
  method: 'GET',
  path: '/api/v1/workspaces/me/opening_hours',
  tags: ['workspaces'],
  summary: "The caller's workspace opening hours (supervisor and above); defaults (off, Monday to Friday 08:00-18:00) until first saved.",
  response: dataOf(OpeningHoursSchema),
});
export const updateOpeningHours = route({
  method: 'PUT',
  path: '/api/v1/workspaces/me/opening_hours',
  tags: ['workspaces'],
  summary:
    'Replaces the workspace opening hours (manager and above). While enabled, a contact writing outside them gets out_of_hours_message ' +
    'once per conversation, sent through the channel like an agent message; the conversation still enters the queue.',
  body: OpeningHoursInputSchema,
  response: dataOf(OpeningHoursSchema),
});
