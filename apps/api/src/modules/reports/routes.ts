import {
  agentsProductivityReport, botsReport, chatHistoryReport, conversationMetricsReport, conversationSummaryReport, conversationTrendsReport, loginHistoryReport,
  type QueryOf,
} from '@atende/contract';
import { formatHms } from '@atende/core';
import { Prisma } from '@atende/db';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { reportRange } from './export';
import { answerReport, n, rate } from './table';

type Query = QueryOf<typeof agentsProductivityReport>;
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const duration = (seconds: number | null): string | null => (seconds === null ? null : formatHms(seconds));
/**
 * The caller's calendar day of a conversation's start. Queries group on this date and format it as
 * YYYY-MM-DD only for the few grouped rows: grouping on to_char's text cost 30 days of 100,000
 * conversations 167-222 ms, on the date 67-82 ms (bench admin-reports database).
 */
const localDay = (zone: string) => Prisma.sql`(c."createdAt" AT TIME ZONE ${zone})::date`;

/**
 * Admin reports (spec 002 §2 reports, §7 calls; spec 001 §5 filter rules). Each is one SQL query over
 * indexed columns; the screen gets a table, `format` turns the same rows into a CSV, Excel or JSON
 * download. Supervisor-level roles; login history needs manager; session metrics its flag.
 */
export function adminReportRoutes(app: FastifyInstance, ctx: AppContext): void {
  /** The conversations a report covers: the caller's workspace and the optional sector, agent and channel. */
  function scope(session: Session, q: Query): Prisma.Sql {
    return Prisma.sql`c."tenantId" = ${session.tenantId}::uuid AND c."workspaceId" = ${session.workspaceId}::uuid
      ${q.sector_uuid ? Prisma.sql`AND c."sectorId" = ${q.sector_uuid}::uuid` : Prisma.empty}
      ${q.user_id ? Prisma.sql`AND c."userId" = ${q.user_id}` : Prisma.empty}
      ${q.channel_uuid ? Prisma.sql`AND c."channelId" = ${q.channel_uuid}::uuid` : Prisma.empty}`;
  }

  bind(app, agentsProductivityReport, 'reports', async ({ session, query, request, reply }) => {
    const { from, to } = reportRange(query);
    const s = scope(session, query);
    // Messages are counted per author (a user of this workspace); only a sector or channel filter needs their conversations.
    const byConversation = Boolean(query.sector_uuid || query.channel_uuid);
    return answerReport(request, reply, query, 'agents-productivity', [
      { key: 'agent', label: 'Agent' },
      { key: 'answered', label: 'Answered sessions' },
      { key: 'closed', label: 'Closed sessions' },
      { key: 'avg_first_response', label: 'Average first response time' },
      { key: 'avg_session', label: 'Average session time' },
      { key: 'messages', label: 'Messages sent' },
    ], async (limit) => {
      const rows = await ctx.db.$queryRaw<{ agent: string; answered: bigint; closed: bigint; afr: number | null; ast: number | null; messages: bigint }[]>`
        WITH answered AS (
          SELECT c."userId" AS uid, count(*) AS n, avg(GREATEST(0, extract(epoch FROM c."timeAnswer" - c."createdAt"))) FILTER (WHERE c.type = 'inbound') AS afr
          FROM "Conversation" c WHERE ${s} AND c."timeAnswer" >= ${from} AND c."timeAnswer" < ${to} AND c."userId" IS NOT NULL GROUP BY 1
        ), closed AS (
          SELECT c."userId" AS uid, count(*) AS n, avg(GREATEST(0, extract(epoch FROM c."closedAt" - c."createdAt"))) AS ast
          FROM "Conversation" c WHERE ${s} AND c."closedAt" >= ${from} AND c."closedAt" < ${to} AND c."userId" IS NOT NULL GROUP BY 1
        ), sent AS (
          SELECT m."userId" AS uid, count(*) AS n FROM "Message" m
          ${byConversation ? Prisma.sql`JOIN "Conversation" c ON c.id = m."conversationId" AND ${s}` : Prisma.empty}
          WHERE m."tenantId" = ${session.tenantId}::uuid AND m."createdAt" >= ${from} AND m."createdAt" < ${to}
            AND m.author = 'USER'::"MessageAuthor" AND m.internal = false AND m."userId" IS NOT NULL GROUP BY 1
        )
        SELECT u.username AS agent, COALESCE(a.n, 0) AS answered, COALESCE(cl.n, 0) AS closed, a.afr::float8 AS afr, cl.ast::float8 AS ast, COALESCE(m.n, 0) AS messages
        FROM "User" u LEFT JOIN answered a ON a.uid = u.id LEFT JOIN closed cl ON cl.uid = u.id LEFT JOIN sent m ON m.uid = u.id
        WHERE u."tenantId" = ${session.tenantId}::uuid AND u."workspaceId" = ${session.workspaceId}::uuid
          AND (a.n IS NOT NULL OR cl.n IS NOT NULL OR m.n IS NOT NULL) ${query.user_id ? Prisma.sql`AND u.id = ${query.user_id}` : Prisma.empty}
        ORDER BY u.username, u.id LIMIT ${limit}`;
      return rows.map((r) => ({ agent: r.agent, answered: n(r.answered), closed: n(r.closed), avg_first_response: duration(r.afr), avg_session: duration(r.ast), messages: n(r.messages) }));
    });
  });

  bind(app, conversationSummaryReport, 'reports', async ({ session, query, request, reply }) => {
    const { from, to, zone } = reportRange(query);
    const s = scope(session, query);
    const counts = Prisma.sql`count(*) AS created, count(*) FILTER (WHERE c."timeAnswer" IS NOT NULL) AS answered,
      count(*) FILTER (WHERE c.state = 'closed'::"ConversationState") AS closed,
      count(*) FILTER (WHERE c.state = 'closed'::"ConversationState" AND c."timeAnswer" IS NULL) AS unanswered`;
    /** `key` null: the conversations no agent took (an empty cell, '--' on screen). */
    type Counted = { key: string | null; created: bigint; answered: bigint; closed: bigint; unanswered: bigint };
    const shape = (rows: Counted[], key: string) =>
      rows.map((r) => ({
        [key]: r.key, new_sessions: n(r.created), answered: n(r.answered), closed: n(r.closed), unanswered: n(r.unanswered), answer_rate: rate(n(r.answered), n(r.created)),
      }));
    const tail = [
      { key: 'new_sessions', label: 'New sessions' },
      { key: 'answered', label: 'Answered' },
      { key: 'closed', label: 'Closed sessions' },
      { key: 'unanswered', label: 'Closed without answer' },
      { key: 'answer_rate', label: 'Answer rate' },
    ];
    if (query.report_type === 'agent') {
      return answerReport(request, reply, query, 'session-rate-by-agent', [{ key: 'agent', label: 'Agent' }, ...tail], async (limit) =>
        shape(
          await ctx.db.$queryRaw<Counted[]>`
            SELECT u.username AS key, ${counts}
            FROM "Conversation" c LEFT JOIN "User" u ON u.id = c."userId"
            WHERE ${s} AND c."createdAt" >= ${from} AND c."createdAt" < ${to}
            GROUP BY u.id, u.username ORDER BY u.username NULLS LAST, u.id LIMIT ${limit}`,
          'agent',
        ),
      );
    }
    return answerReport(request, reply, query, 'session-rate', [{ key: 'day', label: 'Day' }, ...tail], async (limit) =>
      shape(
        await ctx.db.$queryRaw<Counted[]>`
          SELECT to_char(d.day, 'YYYY-MM-DD') AS key, d.created, d.answered, d.closed, d.unanswered FROM (
            SELECT ${localDay(zone)} AS day, ${counts}
            FROM "Conversation" c WHERE ${s} AND c."createdAt" >= ${from} AND c."createdAt" < ${to} GROUP BY 1
          ) d ORDER BY d.day LIMIT ${limit}`,
        'day',
      ),
    );
  });

  bind(app, conversationTrendsReport, 'reports', async ({ session, query, request, reply }) => {
    const { from, to, zone } = reportRange(query);
    const s = scope(session, query);
    const byHour = query.report_type === 'hour';
    const part = byHour ? Prisma.sql`extract(hour FROM c."createdAt" AT TIME ZONE ${zone})` : Prisma.sql`extract(isodow FROM c."createdAt" AT TIME ZONE ${zone})`;
    const key = byHour ? 'hour' : 'weekday';
    return answerReport(request, reply, query, `session-volume-by-${key}`, [
      { key, label: byHour ? 'Hour' : 'Weekday', translated: !byHour },
      { key: 'sessions', label: 'Sessions' },
      { key: 'share', label: 'Share' },
    ], async () => {
      const rows = await ctx.db.$queryRaw<{ bucket: number; sessions: bigint }[]>`
        SELECT ${part}::int AS bucket, count(*) AS sessions FROM "Conversation" c
        WHERE ${s} AND c."createdAt" >= ${from} AND c."createdAt" < ${to} GROUP BY 1`;
      const total = rows.reduce((sum, r) => sum + n(r.sessions), 0);
      // Every weekday or hour, empty ones too: a trend needs its zeros.
      const buckets = byHour ? Array.from({ length: 24 }, (_, h) => h) : [1, 2, 3, 4, 5, 6, 7];
      return buckets.map((b) => {
        const sessions = n(rows.find((r) => r.bucket === b)?.sessions);
        return { [key]: byHour ? `${String(b).padStart(2, '0')}:00` : WEEKDAYS[b - 1]!, sessions, share: rate(sessions, total) };
      });
    });
  });

  bind(app, conversationMetricsReport, 'reports.session_metrics', async ({ session, query, request, reply }) => {
    const { from, to, zone } = reportRange(query);
    const s = scope(session, query);
    return answerReport(request, reply, query, 'session-metrics', [
      { key: 'day', label: 'Day' },
      { key: 'sessions', label: 'Sessions' },
      { key: 'avg_wait', label: 'Average wait' },
      { key: 'max_wait', label: 'Longest wait' },
      { key: 'avg_first_response', label: 'Average first response time' },
      { key: 'avg_session', label: 'Average session time' },
    ], async (limit) => {
      const rows = await ctx.db.$queryRaw<{ day: string; sessions: bigint; wait: number | null; maxWait: number | null; afr: number | null; ast: number | null }[]>`
        SELECT to_char(d.day, 'YYYY-MM-DD') AS day, d.sessions, d.wait, d."maxWait", d.afr, d.ast FROM (
          SELECT ${localDay(zone)} AS day, count(*) AS sessions,
            -- GREATEST(0, NULL) is 0: the FILTERs keep unanswered or open sessions out of the averages.
            (avg(GREATEST(0, extract(epoch FROM c."timeAnswer" - c."timeJoin"))) FILTER (WHERE c."timeAnswer" IS NOT NULL))::float8 AS wait,
            (max(GREATEST(0, extract(epoch FROM c."timeAnswer" - c."timeJoin"))) FILTER (WHERE c."timeAnswer" IS NOT NULL))::float8 AS "maxWait",
            (avg(GREATEST(0, extract(epoch FROM c."timeAnswer" - c."createdAt"))) FILTER (WHERE c.type = 'inbound' AND c."timeAnswer" IS NOT NULL))::float8 AS afr,
            (avg(GREATEST(0, extract(epoch FROM c."closedAt" - c."createdAt"))) FILTER (WHERE c."closedAt" IS NOT NULL))::float8 AS ast
          FROM "Conversation" c WHERE ${s} AND c."createdAt" >= ${from} AND c."createdAt" < ${to} GROUP BY 1
        ) d ORDER BY d.day LIMIT ${limit}`;
      return rows.map((r) => ({ day: r.day, sessions: n(r.sessions), avg_wait: duration(r.wait), max_wait: duration(r.maxWait), avg_first_response: duration(r.afr), avg_session: duration(r.ast) }));
    });
  });

  bind(app, loginHistoryReport, 'reports.login_history', async ({ session, query, request, reply }) => {
    const { from, to } = reportRange(query);
    return answerReport(request, reply, query, 'login-history', [
      { key: 'at', label: 'Date' },
      { key: 'user', label: 'User' },
      { key: 'email', label: 'Email' },
      { key: 'event', label: 'Event' },
      { key: 'ip', label: 'IP address' },
    ], async (limit) => {
      const rows = await ctx.db.$queryRaw<{ at: Date; user: string; email: string; event: string; ip: string | null }[]>`
        SELECT h.at, u.username AS "user", u.email, h.event, h.ip FROM "LoginHistory" h JOIN "User" u ON u.id = h."userId"
        WHERE h."tenantId" = ${session.tenantId}::uuid AND u."workspaceId" = ${session.workspaceId}::uuid AND h.at >= ${from} AND h.at < ${to}
          ${query.user_id ? Prisma.sql`AND h."userId" = ${query.user_id}` : Prisma.empty}
        ORDER BY h.at DESC, h.id LIMIT ${limit}`;
      return rows.map((r) => ({ ...r, at: r.at.toISOString() }));
    });
  });

  bind(app, chatHistoryReport, 'reports', async ({ session, query, request, reply }) => {
    const { from, to } = reportRange(query, { contact: query.contact });
    const s = scope(session, query);
    const contact = query.contact ? `%${query.contact.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` : null;
    return answerReport(request, reply, query, 'chat-history', [
      { key: 'ticket', label: 'Ticket' },
      { key: 'contact', label: 'Contact' },
      { key: 'phone', label: 'Phone' },
      { key: 'agent', label: 'Agent' },
      { key: 'sector', label: 'Sector' },
      { key: 'channel', label: 'Channel' },
      { key: 'started_at', label: 'Start' },
      { key: 'closed_at', label: 'End' },
      { key: 'duration', label: 'Duration' },
      { key: 'ended_by', label: 'Ended by' },
      { key: 'reason', label: 'Finish reason' },
      { key: 'conversation_uuid', label: 'Conversation' },
    ], async (limit, after) => {
      // Keyset: the rows after the last one read, in the same order (closedAt descending, then id).
      const next = after
        ? Prisma.sql`AND (c."closedAt" < ${new Date(String(after.closed_at))} OR (c."closedAt" = ${new Date(String(after.closed_at))} AND c.id > ${String(after.conversation_uuid)}::uuid))`
        : Prisma.empty;
      const rows = await ctx.db.$queryRaw<
        { ticket: number; contact: string; phone: string | null; agent: string | null; sector: string | null; channel: string; createdAt: Date; closedAt: Date; endedBy: string | null; reason: string | null; id: string }[]
      >`
        SELECT c."ticketNumber" AS ticket, ct.name AS contact, ct."phoneNumber" AS phone, u.username AS agent, sc.name AS sector, ch.name AS channel,
               c."createdAt", c."closedAt", c."endedBy", r.name AS reason, c.id
        FROM "Conversation" c JOIN "Contact" ct ON ct.id = c."contactId" JOIN "Channel" ch ON ch.id = c."channelId"
        LEFT JOIN "User" u ON u.id = c."userId" LEFT JOIN "Sector" sc ON sc.id = c."sectorId" LEFT JOIN "ConversationReason" r ON r.id = c."endReasonId"
        WHERE ${s} AND c.state = 'closed'::"ConversationState" AND c."closedAt" >= ${from} AND c."closedAt" < ${to}
          ${contact ? Prisma.sql`AND (ct.name ILIKE ${contact} OR ct."phoneNumber" ILIKE ${contact})` : Prisma.empty} ${next}
        ORDER BY c."closedAt" DESC, c.id LIMIT ${limit}`;
      return rows.map((r) => ({
        ticket: r.ticket, contact: r.contact, phone: r.phone, agent: r.agent, sector: r.sector, channel: r.channel, started_at: r.createdAt.toISOString(),
        closed_at: r.closedAt.toISOString(), duration: formatHms((r.closedAt.getTime() - r.createdAt.getTime()) / 1000), ended_by: r.endedBy, reason: r.reason, conversation_uuid: r.id,
      }));
    }, true);
  });

  bind(app, botsReport, 'reports.bots', async ({ session, query, request, reply }) => {
    const { from, to } = reportRange(query);
    const s = scope(session, query);
    return answerReport(request, reply, query, 'bots', [
      { key: 'menu', label: 'Menu' },
      { key: 'answer', label: 'Answer' },
      { key: 'outcome', label: 'Outcome', translated: true },
      { key: 'conversations', label: 'Conversations' },
    ], async (limit) => {
      // The last step of a menu or a bot flow is recorded on the conversation's history: into the
      // queue (enter-queue) or ended (closed); a menu's with the answer that led there.
      const rows = await ctx.db.$queryRaw<{ menu: string; answer: string | null; type: string; conversations: bigint }[]>`
        SELECT menu, answer, type, conversations FROM (
          SELECT m.name AS menu, e.detail->>'answer' AS answer, e.type, count(DISTINCT e."conversationId") AS conversations
          FROM "ConversationEvent" e
          JOIN "Conversation" c ON c.id = e."conversationId"
          JOIN "AutomatedMenu" m ON m.id::text = e.detail->>'menu_uuid'
          WHERE e."tenantId" = ${session.tenantId}::uuid AND e.type IN ('enter-queue', 'closed') AND e.at >= ${from} AND e.at < ${to}
            AND e.detail ? 'menu_uuid' AND ${s}
          GROUP BY 1, 2, 3
          UNION ALL
          SELECT b.name, NULL, e.type, count(DISTINCT e."conversationId")
          FROM "ConversationEvent" e
          JOIN "Conversation" c ON c.id = e."conversationId"
          JOIN "Bot" b ON b.id::text = e.detail->>'bot_uuid'
          WHERE e."tenantId" = ${session.tenantId}::uuid AND e.type IN ('enter-queue', 'closed') AND e.at >= ${from} AND e.at < ${to}
            AND e.detail ? 'bot_uuid' AND ${s}
          GROUP BY 1, 2, 3
        ) t ORDER BY 1, 2 NULLS FIRST, 3 LIMIT ${limit}`;
      return rows.map((r) => ({ menu: r.menu, answer: r.answer, outcome: r.type === 'closed' ? 'Ended' : 'Sent to the queue', conversations: n(r.conversations) }));
    });
  });
}
