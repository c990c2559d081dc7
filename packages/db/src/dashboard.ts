import type { DashboardState } from '@atende/contract';
import { Prisma } from '../generated/prisma/client';

type Reader = Pick<Prisma.TransactionClient, '$queryRaw'>;

/** The open states, as the Postgres enum spells them. */
const OPEN = Prisma.sql`ARRAY['waiting', 'bot', 'answered', 'outbound-started']::"ConversationState"[]`;

/** An open conversation as the dashboard lists it, with its last public message. */
export interface DashboardConversationRow {
  id: string;
  state: DashboardState;
  type: string;
  priority: number;
  ticketNumber: number;
  timeJoin: Date;
  timeAnswer: Date | null;
  contactId: string;
  contactName: string | null;
  contactPhone: string | null;
  userId: number | null;
  username: string | null;
  sectorId: string | null;
  sectorName: string | null;
  channelId: string;
  channelName: string;
  channelType: string;
  lastContent: string | null;
  lastAt: Date | null;
}

/** The tenant's open conversations (optionally in one state or sector), newest first, at most `limit`; and how many in all. */
export async function openConversationRows(
  db: Reader,
  tenantId: string,
  filter: { state?: DashboardState | undefined; sectorId?: string | undefined },
  limit: number,
): Promise<{ rows: DashboardConversationRow[]; total: number }> {
  const where = Prisma.sql`c."tenantId" = ${tenantId}::uuid AND c.state = ANY(${OPEN})
      ${filter.state ? Prisma.sql`AND c.state = ${filter.state}::"ConversationState"` : Prisma.empty}
      ${filter.sectorId ? Prisma.sql`AND c."sectorId" = ${filter.sectorId}::uuid` : Prisma.empty}`;
  const [rows, counted] = await Promise.all([
    db.$queryRaw<DashboardConversationRow[]>`
        SELECT c.id, c.state::text AS state, c.type, c.priority, c."ticketNumber", c."timeJoin", c."timeAnswer",
               ct.id AS "contactId", ct.name AS "contactName", ct."phoneNumber" AS "contactPhone",
               u.id AS "userId", u.username, s.id AS "sectorId", s.name AS "sectorName",
               ch.id AS "channelId", ch.name AS "channelName", ch.type AS "channelType",
               m.content AS "lastContent", m."createdAt" AS "lastAt"
        FROM "Conversation" c
        JOIN "Contact" ct ON ct.id = c."contactId"
        JOIN "Channel" ch ON ch.id = c."channelId"
        LEFT JOIN "User" u ON u.id = c."userId"
        LEFT JOIN "Sector" s ON s.id = c."sectorId"
        LEFT JOIN LATERAL (
          SELECT content, "createdAt" FROM "Message"
          WHERE "conversationId" = c.id AND internal = false
          ORDER BY "createdAt" DESC LIMIT 1
        ) m ON true
        WHERE ${where}
        ORDER BY c."timeJoin" DESC
        LIMIT ${limit}`,
    db.$queryRaw<{ total: bigint }[]>`SELECT count(*) AS total FROM "Conversation" c WHERE ${where}`,
  ]);
  return { rows, total: Number(counted[0]?.total ?? 0) };
}

export interface DashboardDayRow {
  date: string;
  newSessions: bigint;
  openedSessions: bigint;
  closedSessions: bigint;
  firstResponse: number | null;
  sessionTime: number | null;
}

/**
 * Today in `zone` (a zone Postgres knows): conversations started, open now, closed; the average first
 * response of inbound ones answered and the average session time of those closed today (seconds).
 */
export async function dashboardDay(db: Reader, tenantId: string, zone: string): Promise<DashboardDayRow> {
  const [row] = await db.$queryRaw<DashboardDayRow[]>`
      WITH day AS (SELECT (date_trunc('day', now() AT TIME ZONE ${zone}) AT TIME ZONE ${zone}) AS start)
      SELECT to_char(day.start AT TIME ZONE ${zone}, 'YYYY-MM-DD') AS date,
        (SELECT count(*) FROM "Conversation" WHERE "tenantId" = ${tenantId}::uuid AND "createdAt" >= day.start) AS "newSessions",
        (SELECT count(*) FROM "Conversation" WHERE "tenantId" = ${tenantId}::uuid AND state = ANY(${OPEN})) AS "openedSessions",
        (SELECT count(*) FROM "Conversation" WHERE "tenantId" = ${tenantId}::uuid AND "closedAt" >= day.start) AS "closedSessions",
        (SELECT avg(GREATEST(0, extract(epoch FROM "timeAnswer" - "createdAt")))::float8 FROM "Conversation"
          WHERE "tenantId" = ${tenantId}::uuid AND "timeAnswer" >= day.start AND type = 'inbound') AS "firstResponse",
        (SELECT avg(GREATEST(0, extract(epoch FROM "closedAt" - "createdAt")))::float8 FROM "Conversation"
          WHERE "tenantId" = ${tenantId}::uuid AND "closedAt" >= day.start) AS "sessionTime"
      FROM day`;
  return row!;
}

export interface SectorSlaRow {
  id: string;
  name: string;
  slaFirst: number | null;
  slaSession: number | null;
  waiting: bigint;
  answered: bigint;
  oldest: number | null;
  firstBreaches: bigint;
  sessionBreaches: bigint;
}

/** Each live sector of the tenant with its queue and the open conversations past its SLA seconds, by name. */
export function sectorSlaRows(db: Reader, tenantId: string): Promise<SectorSlaRow[]> {
  return db.$queryRaw<SectorSlaRow[]>`
      SELECT s.id, s.name, s."slaFirstResponseSeconds" AS "slaFirst", s."slaSessionSeconds" AS "slaSession",
        count(c.id) FILTER (WHERE c.state = 'waiting') AS waiting,
        count(c.id) FILTER (WHERE c.state = 'answered') AS answered,
        floor(extract(epoch FROM now() - min(c."timeJoin") FILTER (WHERE c.state = 'waiting')))::int AS oldest,
        count(c.id) FILTER (WHERE c.state = 'waiting' AND s."slaFirstResponseSeconds" IS NOT NULL
          AND c."timeJoin" < now() - make_interval(secs => s."slaFirstResponseSeconds")) AS "firstBreaches",
        count(c.id) FILTER (WHERE s."slaSessionSeconds" IS NOT NULL
          AND c."createdAt" < now() - make_interval(secs => s."slaSessionSeconds")) AS "sessionBreaches"
      FROM "Sector" s
      LEFT JOIN "Conversation" c ON c."sectorId" = s.id AND c."tenantId" = s."tenantId" AND c.state = ANY(${OPEN})
      WHERE s."tenantId" = ${tenantId}::uuid AND s."deletedAt" IS NULL
      GROUP BY s.id
      ORDER BY s.name`;
}
