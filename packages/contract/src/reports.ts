import { z } from 'zod';
import { DELIVERY_STATES, SUBSCRIBER_STATES } from './campaigns';
import { IsoDate, PageQuery, Pagination, Uuid } from './common';
import { REPORT_RANGE_ERRORS } from './admin-reports';
import { route } from './route';
import { fieldMessage } from './field-messages';

export const REPORT_MAX_DAYS = 31;
export const MIN_FILTER_LENGTH = 3;
/** Shared report filter rules, with the spec's messages (texts of the catalogue, field-messages.ts). */
export const REPORT_MESSAGES = {
  startRequired: fieldMessage('report_start_required'),
  endRequired: fieldMessage('report_end_required'),
  startFuture: fieldMessage('report_start_future'),
  endFuture: fieldMessage('report_end_future'),
  range: fieldMessage('report_range_too_long', { max_days: REPORT_MAX_DAYS }),
  order: fieldMessage('report_end_before_start'),
} as const;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, fieldMessage('date_format_invalid'));
const list = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(z.uuid({ message: fieldMessage('campaign_invalid') })).max(500));

export const CampaignReportQuery = PageQuery.extend({
  start: day.optional(),
  end: day.optional(),
  /** IANA zone of the caller: the range is its days, ends at the end of its day. */
  timezone: z.string().max(64).default('UTC'),
  campaigns: list.optional(),
  'campaigns[]': list.optional(),
  state: z.enum(SUBSCRIBER_STATES, { message: fieldMessage('state_invalid') }).optional(),
  template_uuid: Uuid.optional(),
  conversation_field_key: z.string().trim().max(120).optional(),
  conversation_field_value: z.string().trim().max(200).optional(),
  /** Export format when _limit is 0 (else the Accept header decides). */
  format: z.enum(['csv', 'excel', 'json']).optional(),
});

export const CampaignReportRowSchema = z.object({
  campaign_name: z.string(),
  name: z.string(),
  phone_number: z.string(),
  state: z.enum(SUBSCRIBER_STATES),
  error_message: z.string().nullable(),
  template: z.string(),
  sent_at: IsoDate.nullable(),
  /** The provider's latest receipt: sent, delivered, read, failed. */
  delivery: z.enum(DELIVERY_STATES).nullable(),
  delivered_at: IsoDate.nullable(),
  read_at: IsoDate.nullable(),
  replied_at: IsoDate.nullable(),
  reply_action: z.string().nullable(),
  reply_text: z.string().nullable(),
  conversation_uuid: Uuid.nullable(),
  conversation_field_values: z.record(z.string(), z.string()),
});
export type CampaignReportRow = z.infer<typeof CampaignReportRowSchema>;

export const CampaignSummarySchema = z.object({
  subscribers_count: z.number().int(),
  sent_count: z.number().int(),
  error_count: z.number().int(),
  completed_count: z.number().int(),
  /**
   * A funnel over the messages the provider accepted (sent_count): delivered
   * (a delivered or read receipt, or a reply), read (a read receipt, or a reply), replied, and
   * failed after acceptance (also counted in error_count, with the sends the provider refused).
   * Rates are of sent_count, 0 to 1 (0 when nothing was sent).
   */
  delivered_count: z.number().int(),
  read_count: z.number().int(),
  replied_count: z.number().int(),
  failed_count: z.number().int(),
  /** Sends whose outcome is unknown: they may have reached the provider; not in sent_count. */
  unknown_count: z.number().int(),
  delivered_rate: z.number(),
  read_rate: z.number(),
  replied_rate: z.number(),
  failed_rate: z.number(),
});
export type CampaignSummary = z.infer<typeof CampaignSummarySchema>;

export const campaignSubscribersReport = route({
  method: 'GET',
  path: '/api/v1/reports/campaign/subscribers',
  tags: ['reports'],
  summary: 'Campaign subscribers report; with _limit=0 it is an export: CSV, Excel or JSON by format or Accept.',
  query: CampaignReportQuery,
  response: z.object({ data: z.array(CampaignReportRowSchema), pagination: Pagination }),
  errors: [...REPORT_RANGE_ERRORS, 'report_filter_too_short'],
});
export const campaignSummaryReport = route({
  method: 'GET',
  path: '/api/v1/reports/campaign/summary',
  tags: ['reports'],
  summary:
    'Campaign summary: subscribers, sent, error, completed, delivered, read, replied, failed and unknown counts and rates, in total and per campaign; with _limit=0 an export (CSV, Excel or JSON) of it, one line per campaign plus the total.',
  query: CampaignReportQuery,
  response: z.object({
    data: CampaignSummarySchema.extend({ campaigns: z.array(CampaignSummarySchema.extend({ uuid: Uuid, name: z.string() })) }),
  }),
  errors: [...REPORT_RANGE_ERRORS, 'report_filter_too_short'],
});
