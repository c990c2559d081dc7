import { z } from 'zod';
import { DELIVERY_STATES, SUBSCRIBER_STATES } from './campaigns';
import { IsoDate, PageQuery, Pagination, Uuid } from './common';
import { route } from './route';

/** Shared report filter rules, with the spec's messages. */
export const REPORT_MESSAGES = {
  startRequired: 'Please define a start date for this report.',
  endRequired: 'Please define an end date for this report.',
  startFuture: 'Cannot load report for a start date in future.',
  endFuture: 'Cannot load report for an end date in future.',
  range: 'O intervalo máximo é de 31 dias.',
  order: 'The start date must not be after the end date.',
} as const;
export const REPORT_MAX_DAYS = 31;
export const MIN_FILTER_LENGTH = 3;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use the date format YYYY-MM-DD');
const list = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(z.uuid({ message: 'Invalid campaign' })).max(500));

export const CampaignReportQuery = PageQuery.extend({
  start: day.optional(),
  end: day.optional(),
  /** IANA zone of the caller: the range is its days, ends at the end of its day. */
  timezone: z.string().max(64).default('UTC'),
  campaigns: list.optional(),
  'campaigns[]': list.optional(),
  state: z.enum(SUBSCRIBER_STATES, { message: 'Invalid state' }).optional(),
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
});
