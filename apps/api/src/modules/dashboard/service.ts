import { DASHBOARD_MAX_ROWS, type DashboardConversation, type DashboardState, type DashboardStats, type SectorSla } from '@atende/contract';
import { formatHms } from '@atende/core';
import { Prisma } from '@atende/db';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';

/** The open states of spec 002 §3, as the Postgres enum spells them. */
const OPEN = Prisma.sql`ARRAY['waiting', 'bot', 'answered', 'outbound-started']::"ConversationState"[]`;

/** An IANA zone Postgres and Intl both know, else UTC (a bad zone never fails the dashboard). */
function safeZone(zone: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

interface ConversationRow {
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

/**
 * Admin dashboard figures (spec 002 §3), computed by Postgres from the conversation rows: nothing is
 * counted in memory or kept as a running counter that could drift. Live updates come from the
 * conversation events the engine already emits to tenant_{uuid}_metrics; the screens refetch on them.
 */
export class DashboardService {
  constructor(private readonly ctx: AppContext) {}

  async conversations(session: Session, filter: { state?: DashboardState; sectorUuid?: string }): Promise<{ data: DashboardConversation[]; total: number }> {
    const where = Prisma.sql`c."tenantId" = ${session.tenantId}::uuid AND c.state = ANY(${OPEN})
      ${filter.state ? Prisma.sql`AND c.state = ${filter.state}::"ConversationState"` : Prisma.empty}
      ${filter.sectorUuid ? Prisma.sql`AND c."sectorId" = ${filter.sectorUuid}::uuid` : Prisma.empty}`;
    const [rows, counted] = await Promise.all([
      this.ctx.db.$queryRaw<ConversationRow[]>`
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
        LIMIT ${DASHBOARD_MAX_ROWS}`,
      this.ctx.db.$queryRaw<{ total: bigint }[]>`SELECT count(*) AS total FROM "Conversation" c WHERE ${where}`,
    ]);
    return {
      total: Number(counted[0]?.total ?? 0),
      data: rows.map((r) => ({
        uuid: r.id,
        state: r.state,
        type: r.type,
        priority: r.priority,
        ticket_number: r.ticketNumber,
        contact: { uuid: r.contactId, name: r.contactName, phone: r.contactPhone },
        user: r.userId !== null && r.username !== null ? { id: r.userId, username: r.username } : null,
        sector: r.sectorId !== null && r.sectorName !== null ? { uuid: r.sectorId, name: r.sectorName } : null,
        channel: { uuid: r.channelId, name: r.channelName, type: r.channelType },
        time_join: r.timeJoin.toISOString(),
        time_answer: r.timeAnswer?.toISOString() ?? null,
        last_message: r.lastAt ? { content: r.lastContent || null, created_at: r.lastAt.toISOString() } : null,
      })),
    };
  }

  /**
   * Today in the caller's zone. First response: from the start of an inbound session to its first
   * answer (outbound sessions begin with the agent's own message, so they have none). Session time:
   * from start to close of the sessions closed today.
   */
  async stats(session: Session, timezone: string): Promise<DashboardStats> {
    const zone = safeZone(timezone);
    const [row] = await this.ctx.db.$queryRaw<
      { date: string; newSessions: bigint; openedSessions: bigint; closedSessions: bigint; firstResponse: number | null; sessionTime: number | null }[]
    >`
      WITH day AS (SELECT (date_trunc('day', now() AT TIME ZONE ${zone}) AT TIME ZONE ${zone}) AS start)
      SELECT to_char(day.start AT TIME ZONE ${zone}, 'YYYY-MM-DD') AS date,
        (SELECT count(*) FROM "Conversation" WHERE "tenantId" = ${session.tenantId}::uuid AND "createdAt" >= day.start) AS "newSessions",
        (SELECT count(*) FROM "Conversation" WHERE "tenantId" = ${session.tenantId}::uuid AND state = ANY(${OPEN})) AS "openedSessions",
        (SELECT count(*) FROM "Conversation" WHERE "tenantId" = ${session.tenantId}::uuid AND "closedAt" >= day.start) AS "closedSessions",
        (SELECT avg(GREATEST(0, extract(epoch FROM "timeAnswer" - "createdAt")))::float8 FROM "Conversation"
          WHERE "tenantId" = ${session.tenantId}::uuid AND "timeAnswer" >= day.start AND type = 'inbound') AS "firstResponse",
        (SELECT avg(GREATEST(0, extract(epoch FROM "closedAt" - "createdAt")))::float8 FROM "Conversation"
          WHERE "tenantId" = ${session.tenantId}::uuid AND "closedAt" >= day.start) AS "sessionTime"
      FROM day`;
    const duration = (seconds: number | null) => ({ time: formatHms(seconds ?? 0), seconds: Math.round(seconds ?? 0) });
    return {
      date: row!.date,
      timezone: zone,
      avg_first_response_time: duration(row!.firstResponse),
      avg_session_time: duration(row!.sessionTime),
      new_sessions: Number(row!.newSessions),
      opened_sessions: Number(row!.openedSessions),
      closed_sessions: Number(row!.closedSessions),
    };
  }

  /** Each live sector with its queue and the conversations past its SLA seconds (spec 002 §3 Sector). */
  async sectorSla(session: Session): Promise<SectorSla[]> {
    const rows = await this.ctx.db.$queryRaw<
      {
        id: string;
        name: string;
        slaFirst: number | null;
        slaSession: number | null;
        waiting: bigint;
        answered: bigint;
        oldest: number | null;
        firstBreaches: bigint;
        sessionBreaches: bigint;
      }[]
    >`
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
      WHERE s."tenantId" = ${session.tenantId}::uuid AND s."deletedAt" IS NULL
      GROUP BY s.id
      ORDER BY s.name`;
    return rows.map((r) => ({
      uuid: r.id,
      name: r.name,
      sla_first_response_seconds: r.slaFirst,
      sla_session_seconds: r.slaSession,
      waiting: Number(r.waiting),
      answered: Number(r.answered),
      oldest_waiting_seconds: r.oldest,
      first_response_breaches: Number(r.firstBreaches),
      session_breaches: Number(r.sessionBreaches),
    }));
  }
}
