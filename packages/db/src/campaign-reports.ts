import { Prisma } from '../generated/prisma/client';

type Reader = Pick<Prisma.TransactionClient, '$queryRaw'>;

/** Which subscribers a campaign report covers. */
export interface CampaignReportScope {
  tenantId: string;
  workspaceId: string;
  userId: number;
  /** Admins see every campaign; others their own and the public ones. */
  admin: boolean;
  /** By the send's time (the row's creation while unsent), from inclusive, to exclusive. */
  from: Date;
  to: Date;
  campaignIds: string[];
  state?: string | undefined;
  templateId?: string | undefined;
  /** Only subscribers whose conversation has this field with a value containing this text (any case). */
  field?: { key: string; value: string } | undefined;
}

/** The filter of a campaign report, over subscribers `s` of campaigns `c`. */
export function campaignReportFilter(scope: CampaignReportScope): Prisma.Sql {
  const { from, to, campaignIds: campaigns, field } = scope;
  return Prisma.sql`s."tenantId" = ${scope.tenantId}::uuid AND c."workspaceId" = ${scope.workspaceId}::uuid AND c."deletedAt" IS NULL
      AND COALESCE(s."sentAt", s."createdAt") >= ${from} AND COALESCE(s."sentAt", s."createdAt") < ${to}
      ${scope.admin ? Prisma.empty : Prisma.sql`AND (c."createdById" = ${scope.userId} OR c."isPublic")`}
      ${campaigns.length ? Prisma.sql`AND c.id = ANY(${campaigns}::uuid[])` : Prisma.empty}
      ${scope.state ? Prisma.sql`AND s.state = ${scope.state}` : Prisma.empty}
      ${scope.templateId ? Prisma.sql`AND c."templateId" = ${scope.templateId}::uuid` : Prisma.empty}
      ${
        field
          ? Prisma.sql`AND EXISTS (SELECT 1 FROM "ConversationFieldValue" v JOIN "ConversationFieldDefinition" d ON d.id = v."fieldId"
                     WHERE v."conversationId" = s."conversationId" AND d.name = ${field.key} AND v.value ILIKE ${`%${field.value}%`})`
          : Prisma.empty
      }`;
}

/** One subscriber of a campaign report, with its conversation's fields by name. */
export interface CampaignReportLine {
  campaign_name: string;
  name: string;
  phone_number: string;
  state: string;
  error_message: string | null;
  template: string;
  sent_at: Date | null;
  delivery: string | null;
  delivered_at: Date | null;
  read_at: Date | null;
  replied_at: Date | null;
  reply_action: string | null;
  reply_text: string | null;
  conversation_uuid: string | null;
  fields: Record<string, string> | null;
}

/** A page of the report's subscribers, latest send first. */
export function campaignReportLines(db: Reader, filter: Prisma.Sql, limit: number, offset: number): Promise<CampaignReportLine[]> {
  return db.$queryRaw<
    CampaignReportLine[]
  >`SELECT c.name AS campaign_name, s.name, s."phoneNumber" AS phone_number, s.state, s."errorMessage" AS error_message, t.name AS template, s."sentAt" AS sent_at,
             s.delivery, s."deliveredAt" AS delivered_at, s."readAt" AS read_at,
             s."repliedAt" AS replied_at, s."replyAction" AS reply_action, s."replyText" AS reply_text, s."conversationId"::text AS conversation_uuid,
             (SELECT jsonb_object_agg(d.name, v.value) FROM "ConversationFieldValue" v JOIN "ConversationFieldDefinition" d ON d.id = v."fieldId" WHERE v."conversationId" = s."conversationId") AS fields
      FROM "CampaignSubscriber" s JOIN "Campaign" c ON c.id = s."campaignId" JOIN "OutboundTemplate" t ON t.id = c."templateId"
      WHERE ${filter}
      ORDER BY COALESCE(s."sentAt", s."createdAt") DESC, s.id LIMIT ${limit} OFFSET ${offset}`;
}

/** How many subscribers the report covers. */
export async function campaignReportTotal(db: Reader, filter: Prisma.Sql): Promise<number> {
  const [count] = await db.$queryRaw<
    { total: number }[]
  >`SELECT count(*)::int AS total FROM "CampaignSubscriber" s JOIN "Campaign" c ON c.id = s."campaignId" WHERE ${filter}`;
  return count?.total ?? 0;
}

/** A campaign's funnel counts in the summary report. */
export interface CampaignFunnelCounts {
  uuid: string;
  name: string;
  subscribers_count: number;
  sent_count: number;
  error_count: number;
  completed_count: number;
  delivered_count: number;
  read_count: number;
  replied_count: number;
  failed_count: number;
  unknown_count: number;
}

/**
 * The funnel of each campaign the report covers, by name. Sent is what the provider accepted (a
 * send refused is an error, a message that failed after acceptance is both sent and failed); a
 * reply counts as delivered and read, so sent ≥ delivered ≥ read ≥ replied holds even where read
 * receipts are switched off.
 */
export function campaignFunnels(db: Reader, filter: Prisma.Sql): Promise<CampaignFunnelCounts[]> {
  return db.$queryRaw<CampaignFunnelCounts[]>`
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
      WHERE ${filter} GROUP BY c.id, c.name ORDER BY c.name`;
}
