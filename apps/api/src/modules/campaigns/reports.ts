import { campaignSubscribersReport, campaignSummaryReport, DELIVERY_STATES, type CampaignReportRow, type CampaignSummary, type QueryOf } from '@atende/contract';
import { hasAnyRole } from '@atende/core';
import { Prisma } from '@atende/db';
import type { FastifyInstance } from 'fastify';
import { bind, type Access } from '../../bind';
import type { AppContext } from '../../context';
import { exportFormat, reportRange, sendExport } from '../reports/export';
import type { Session } from '../session/session';

type Query = QueryOf<typeof campaignSubscribersReport>;
const COLUMNS: (keyof CampaignReportRow)[] = [
  'campaign_name', 'name', 'phone_number', 'state', 'error_message', 'template', 'sent_at', 'delivery', 'delivered_at', 'read_at', 'replied_at', 'reply_action', 'reply_text', 'conversation_uuid',
];
type Summary = CampaignSummary & { uuid: string; name: string };
const SUMMARY_COLUMNS: (keyof Summary)[] = [
  'name', 'subscribers_count', 'sent_count', 'delivered_count', 'delivered_rate', 'read_count', 'read_rate', 'replied_count', 'replied_rate', 'failed_count', 'failed_rate', 'error_count', 'completed_count', 'unknown_count',
];
type Counts = Pick<CampaignSummary, 'subscribers_count' | 'sent_count' | 'error_count' | 'completed_count' | 'delivered_count' | 'read_count' | 'replied_count' | 'failed_count' | 'unknown_count'>;
const rate = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000);
/** Issue 14 item 5: the funnel's rates, of the messages the provider accepted. */
const withRates = <T extends Counts>(c: T): T & Pick<CampaignSummary, 'delivered_rate' | 'read_rate' | 'replied_rate' | 'failed_rate'> => ({
  ...c,
  delivered_rate: rate(c.delivered_count, c.sent_count),
  read_rate: rate(c.read_count, c.sent_count),
  replied_rate: rate(c.replied_count, c.sent_count),
  failed_rate: rate(c.failed_count, c.sent_count),
});
const EXPORT_MAX_ROWS = 200_000;

/** Spec 001 §5 rules for the campaign report (its one text filter is the conversation field's value). */
export const campaignReportRange = (query: Pick<Query, 'start' | 'end' | 'timezone' | 'conversation_field_value'>, now = new Date()) =>
  reportRange(query, { Value: query.conversation_field_value }, now);

export function reportRoutes(app: FastifyInstance, ctx: AppContext, access: Access): void {
  function where(session: Session, query: Query): Prisma.Sql {
    const { from, to } = campaignReportRange(query);
    const campaigns = query.campaigns ?? query['campaigns[]'] ?? [];
    const admin = hasAnyRole(session.roles, ['admin']);
    return Prisma.sql`s."tenantId" = ${session.tenantId}::uuid AND c."workspaceId" = ${session.workspaceId}::uuid AND c."deletedAt" IS NULL
      AND COALESCE(s."sentAt", s."createdAt") >= ${from} AND COALESCE(s."sentAt", s."createdAt") < ${to}
      ${admin ? Prisma.empty : Prisma.sql`AND (c."createdById" = ${session.userId} OR c."isPublic")`}
      ${campaigns.length ? Prisma.sql`AND c.id = ANY(${campaigns}::uuid[])` : Prisma.empty}
      ${query.state ? Prisma.sql`AND s.state = ${query.state}` : Prisma.empty}
      ${query.template_uuid ? Prisma.sql`AND c."templateId" = ${query.template_uuid}::uuid` : Prisma.empty}
      ${query.conversation_field_key && query.conversation_field_value
        ? Prisma.sql`AND EXISTS (SELECT 1 FROM "ConversationFieldValue" v JOIN "ConversationFieldDefinition" d ON d.id = v."fieldId"
                     WHERE v."conversationId" = s."conversationId" AND d.name = ${query.conversation_field_key} AND v.value ILIKE ${`%${query.conversation_field_value}%`})`
        : Prisma.empty}`;
  }

  async function rows(filter: Prisma.Sql, limit: number, offset: number): Promise<CampaignReportRow[]> {
    const found = await ctx.db.$queryRaw<
      {
        campaign_name: string; name: string; phone_number: string; state: string; error_message: string | null; template: string; sent_at: Date | null; delivery: string | null;
        delivered_at: Date | null; read_at: Date | null; replied_at: Date | null; reply_action: string | null; reply_text: string | null; conversation_uuid: string | null; fields: Record<string, string> | null;
      }[]
    >`SELECT c.name AS campaign_name, s.name, s."phoneNumber" AS phone_number, s.state, s."errorMessage" AS error_message, t.name AS template, s."sentAt" AS sent_at,
             s.delivery, s."deliveredAt" AS delivered_at, s."readAt" AS read_at,
             s."repliedAt" AS replied_at, s."replyAction" AS reply_action, s."replyText" AS reply_text, s."conversationId"::text AS conversation_uuid,
             (SELECT jsonb_object_agg(d.name, v.value) FROM "ConversationFieldValue" v JOIN "ConversationFieldDefinition" d ON d.id = v."fieldId" WHERE v."conversationId" = s."conversationId") AS fields
      FROM "CampaignSubscriber" s JOIN "Campaign" c ON c.id = s."campaignId" JOIN "OutboundTemplate" t ON t.id = c."templateId"
      WHERE ${filter}
      ORDER BY COALESCE(s."sentAt", s."createdAt") DESC, s.id LIMIT ${limit} OFFSET ${offset}`;
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

  bind(app, campaignSubscribersReport, access, async ({ session, query, request, reply }) => {
    // Checked before any query starts: a bad filter is one 400, nothing left running.
    const filter = where(session, query);
    if (query._limit === 0) {
      return sendExport(reply, 'campaign-report', exportFormat(query.format, request.headers.accept), COLUMNS, await rows(filter, EXPORT_MAX_ROWS, 0), query.timezone);
    }
    const [data, [count]] = await Promise.all([
      rows(filter, query._limit, query._offset),
      ctx.db.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM "CampaignSubscriber" s JOIN "Campaign" c ON c.id = s."campaignId" WHERE ${filter}`,
    ]);
    return { data, pagination: { total: count?.total ?? 0, limit: query._limit, offset: query._offset } };
  });

  bind(app, campaignSummaryReport, access, async ({ session, query, request, reply }) => {
    // Issue 14 item 5: sent is what the provider accepted (a send refused is an error, a message that
    // failed after acceptance is both sent and failed); a reply counts as delivered and read, so the
    // funnel sent ≥ delivered ≥ read ≥ replied holds even where read receipts are switched off.
    const per = await ctx.db.$queryRaw<(Counts & { uuid: string; name: string })[]>`
      SELECT c.id::text AS uuid, c.name, count(*)::int AS subscribers_count,
             count(*) FILTER (WHERE s.state IN ('sent', 'completed') OR (s.state = 'error' AND s.delivery = 'failed'))::int AS sent_count,
             count(*) FILTER (WHERE s.state = 'error')::int AS error_count,
             count(*) FILTER (WHERE s.state = 'completed')::int AS completed_count,
             count(*) FILTER (WHERE s.state IN ('sent', 'completed') AND (s.delivery IN ('delivered', 'read') OR s."repliedAt" IS NOT NULL))::int AS delivered_count,
             count(*) FILTER (WHERE s.state IN ('sent', 'completed') AND (s.delivery = 'read' OR s."repliedAt" IS NOT NULL))::int AS read_count,
             count(*) FILTER (WHERE s.state = 'completed' AND s."repliedAt" IS NOT NULL)::int AS replied_count,
             count(*) FILTER (WHERE s.state = 'error' AND s.delivery = 'failed')::int AS failed_count,
             count(*) FILTER (WHERE s.state = 'unknown')::int AS unknown_count
      FROM "CampaignSubscriber" s JOIN "Campaign" c ON c.id = s."campaignId"
      WHERE ${where(session, query)} GROUP BY c.id, c.name ORDER BY c.name`;
    const sum = (k: keyof Counts) => per.reduce((n, r) => n + r[k], 0);
    const total = withRates({
      subscribers_count: sum('subscribers_count'), sent_count: sum('sent_count'), error_count: sum('error_count'), completed_count: sum('completed_count'),
      delivered_count: sum('delivered_count'), read_count: sum('read_count'), replied_count: sum('replied_count'), failed_count: sum('failed_count'),
      unknown_count: sum('unknown_count'),
    });
    const campaigns = per.map(withRates);
    if (query._limit === 0) {
      // The summary's export: one line per campaign, then the total.
      const lines: Summary[] = [...campaigns, { uuid: '', name: 'Total', ...total }];
      return sendExport(reply, 'campaign-summary', exportFormat(query.format, request.headers.accept), SUMMARY_COLUMNS, lines, query.timezone);
    }
    return { data: { ...total, campaigns } };
  });
}
