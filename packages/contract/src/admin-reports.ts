import { z } from 'zod';
import { Uuid } from './common';
import { route } from './route';
import { fieldMessage } from './field-messages';
import type { ErrorCode } from './error-status';

/** What a report's date range may be refused for: every report route answers these. */
export const REPORT_RANGE_ERRORS = [
  'report_start_required',
  'report_end_required',
  'report_start_future',
  'report_end_future',
  'report_end_before_start',
  'report_range_too_long',
] as const satisfies readonly ErrorCode[];

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, fieldMessage('date_format_invalid'));

/** Filters every admin report takes (reports, rules for the dates). */
export const AdminReportQuery = z.object({
  start: day.optional(),
  end: day.optional(),
  /** IANA zone of the caller: the range is its days; days, weekdays and hours are read in it. */
  timezone: z.string().max(64).default('UTC'),
  sector_uuid: Uuid.optional(),
  user_id: z.coerce.number().int().positive().optional(),
  channel_uuid: Uuid.optional(),
  /** A download of the same rows instead of the table: CSV, Excel or JSON. */
  format: z.enum(['csv', 'excel', 'json']).optional(),
});

/** A report as a table: its columns (key and English label, translated on screen) and rows keyed by column. */
export const ReportTableSchema = z.object({
  /** `translated`: the values are English phrases (weekdays, outcomes, yes / no) shown in the reader's language. */
  columns: z.array(z.object({ key: z.string(), label: z.string(), translated: z.boolean().optional() })),
  rows: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))),
  /** True when more rows matched than a screen shows (the download has them all). */
  truncated: z.boolean(),
});
export type ReportTable = z.infer<typeof ReportTableSchema>;
const table = z.object({ data: ReportTableSchema });

export const agentsProductivityReport = route({
  method: 'GET',
  path: '/api/v1/reports/agents/productivity',
  tags: ['reports'],
  summary: 'Per agent: sessions answered and closed, average first response and session time, messages sent.',
  query: AdminReportQuery,
  response: table,
  errors: REPORT_RANGE_ERRORS,
});
export const conversationSummaryReport = route({
  method: 'GET',
  path: '/api/v1/reports/summary/conversations',
  tags: ['reports'],
  summary: 'Session rate: per day (report_type=trend) or per agent (report_type=agent): new, answered, closed, unanswered.',
  query: AdminReportQuery.extend({
    report_type: z.enum(['agent', 'trend'], { message: fieldMessage('report_type_invalid') }).default('trend'),
  }),
  response: table,
  errors: REPORT_RANGE_ERRORS,
});
export const conversationTrendsReport = route({
  method: 'GET',
  path: '/api/v1/reports/trends/conversations',
  tags: ['reports'],
  summary: "Session volume by weekday or by hour of the day, in the caller's time zone.",
  query: AdminReportQuery.extend({
    report_type: z.enum(['weekday', 'hour'], { message: fieldMessage('report_type_invalid') }).default('weekday'),
  }),
  response: table,
  errors: REPORT_RANGE_ERRORS,
});
export const conversationMetricsReport = route({
  method: 'GET',
  path: '/api/v1/reports/metrics/conversations',
  tags: ['reports'],
  summary: 'Per day: average and longest wait in the queue, average first response and session time (flag session_metrics_report).',
  query: AdminReportQuery,
  response: table,
  errors: REPORT_RANGE_ERRORS,
});
export const loginHistoryReport = route({
  method: 'GET',
  path: '/api/v1/reports/login_history',
  tags: ['reports'],
  summary: "Sign-ins and sign-outs of the workspace's users (role manager).",
  query: AdminReportQuery,
  response: table,
  errors: REPORT_RANGE_ERRORS,
});
export const chatHistoryReport = route({
  method: 'GET',
  path: '/api/v1/reports/chat_history',
  tags: ['reports'],
  summary: 'Finished conversations of the period with contact, agent, sector, channel, times and how they ended.',
  query: AdminReportQuery.extend({ contact: z.string().trim().max(200).optional() }),
  response: table,
  errors: [...REPORT_RANGE_ERRORS, 'report_filter_too_short'],
});
export const botsReport = route({
  method: 'GET',
  path: '/api/v1/reports/bots',
  tags: ['reports'],
  summary:
    'Automated menus and bot flows: per menu and answer (bots: per bot), the conversations handed to a sector or ended (flag bots_report).',
  query: AdminReportQuery,
  response: table,
  errors: REPORT_RANGE_ERRORS,
});
export const surveysReport = route({
  method: 'GET',
  path: '/api/v1/reports/surveys',
  tags: ['reports'],
  summary:
    'Satisfaction surveys sent in the period (flag surveys_report): per survey (report_type=survey), per answer option (option), per agent of the conversation (agent), ' +
    'per day (day) or each answer (answers); an answer is repeated when the contact had already answered that survey; the score is the average of numeric answers.',
  query: AdminReportQuery.extend({
    report_type: z
      .enum(['survey', 'option', 'agent', 'day', 'answers'], { message: fieldMessage('report_type_invalid') })
      .default('survey'),
    survey_uuid: Uuid.optional(),
  }),
  response: table,
  errors: REPORT_RANGE_ERRORS,
});
