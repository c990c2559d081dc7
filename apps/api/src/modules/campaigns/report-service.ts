import {
  DELIVERY_STATES,
  type CampaignReportRow,
  type CampaignSummary,
  type campaignSubscribersReport,
  type QueryOf,
} from '@atende/contract';
import { hasAnyRole } from '@atende/core';
import { campaignFunnels, campaignReportFilter, campaignReportLines, campaignReportTotal, type Prisma } from '@atende/db';
import type { AppContext } from '../../context';
import { reportRange } from '../reports/export';
import type { Session } from '../session/session';

type Query = QueryOf<typeof campaignSubscribersReport>;
type Counts = Pick<
  CampaignSummary,
  | 'subscribers_count'
  | 'sent_count'
  | 'error_count'
  | 'completed_count'
  | 'delivered_count'
  | 'read_count'
  | 'replied_count'
  | 'failed_count'
  | 'unknown_count'
>;
const rate = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000);
/** The funnel's rates, of the messages the provider accepted. */
const withRates = <T extends Counts>(c: T): T & Pick<CampaignSummary, 'delivered_rate' | 'read_rate' | 'replied_rate' | 'failed_rate'> => ({
  ...c,
  delivered_rate: rate(c.delivered_count, c.sent_count),
  read_rate: rate(c.read_count, c.sent_count),
  replied_rate: rate(c.replied_count, c.sent_count),
  failed_rate: rate(c.failed_count, c.sent_count),
});

/** The campaign report's period rules (its one text filter is the conversation field's value). */
export const campaignReportRange = (query: Pick<Query, 'start' | 'end' | 'timezone' | 'conversation_field_value'>, now = new Date()) =>
  reportRange(query, { Value: query.conversation_field_value }, now);

/** The campaign report's subscribers and its funnel summary, of the campaigns the caller sees. */
export class CampaignReportService {
  constructor(private readonly ctx: AppContext) {}

  /** The report's filter; a bad one throws before any query starts. */
  filter(session: Session, query: Query): Prisma.Sql {
    const { from, to } = campaignReportRange(query);
    return campaignReportFilter({
      tenantId: session.tenantId,
      workspaceId: session.workspaceId,
      userId: session.userId,
      admin: hasAnyRole(session.roles, ['admin']),
      from,
      to,
      campaignIds: query.campaigns ?? query['campaigns[]'] ?? [],
      state: query.state,
      templateId: query.template_uuid,
      field:
        query.conversation_field_key && query.conversation_field_value
          ? { key: query.conversation_field_key, value: query.conversation_field_value }
          : undefined,
    });
  }

  /** A page of the report's subscribers, latest send first. */
  async rows(filter: Prisma.Sql, limit: number, offset: number): Promise<CampaignReportRow[]> {
    const found = await campaignReportLines(this.ctx.db, filter, limit, offset);
    return found.map((r) => ({
      ...r,
      state: r.state as CampaignReportRow['state'],
      sent_at: r.sent_at?.toISOString() ?? null,
      delivery: (DELIVERY_STATES as readonly string[]).includes(r.delivery ?? '') ? (r.delivery as CampaignReportRow['delivery']) : null,
      delivered_at: r.delivered_at?.toISOString() ?? null,
      read_at: r.read_at?.toISOString() ?? null,
      replied_at: r.replied_at?.toISOString() ?? null,
      conversation_field_values: r.fields ?? {},
    }));
  }

  /** How many subscribers the report covers. */
  total(filter: Prisma.Sql): Promise<number> {
    return campaignReportTotal(this.ctx.db, filter);
  }

  /** Each campaign's funnel, by name, and their total. */
  async summary(session: Session, query: Query) {
    const per = await campaignFunnels(this.ctx.db, this.filter(session, query));
    const sum = (k: keyof Counts) => per.reduce((n, r) => n + r[k], 0);
    const total = withRates({
      subscribers_count: sum('subscribers_count'),
      sent_count: sum('sent_count'),
      error_count: sum('error_count'),
      completed_count: sum('completed_count'),
      delivered_count: sum('delivered_count'),
      read_count: sum('read_count'),
      replied_count: sum('replied_count'),
      failed_count: sum('failed_count'),
      unknown_count: sum('unknown_count'),
    });
    return { total, campaigns: per.map(withRates) };
  }
}
