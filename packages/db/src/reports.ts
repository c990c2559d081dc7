import { Prisma } from '../generated/prisma/client';

/** The reports only read, with raw SQL. */
type Reader = Pick<Prisma.TransactionClient, '$queryRaw'>;

/** The conversations a report covers: a tenant's workspace and the optional sector, agent and channel. */
export interface ReportFilter {
  tenantId: string;
  workspaceId: string;
  sectorId?: string | null;
  userId?: number | null;
  channelId?: string | null;
}

/** A report's instants, `to` excluded. */
export interface ReportPeriod {
  from: Date;
  to: Date;
}

function scope(f: ReportFilter): Prisma.Sql {
  return Prisma.sql`c."tenantId" = ${f.tenantId}::uuid AND c."workspaceId" = ${f.workspaceId}::uuid
      ${f.sectorId ? Prisma.sql`AND c."sectorId" = ${f.sectorId}::uuid` : Prisma.empty}
      ${f.userId ? Prisma.sql`AND c."userId" = ${f.userId}` : Prisma.empty}
      ${f.channelId ? Prisma.sql`AND c."channelId" = ${f.channelId}::uuid` : Prisma.empty}`;
}

/**
 * The caller's calendar day of a conversation's start. Queries group on this date and format it as
 * YYYY-MM-DD only for the few grouped rows: grouping on to_char's text cost 30 days of 100,000
 * conversations 167-222 ms, on the date 67-82 ms (bench admin-reports database).
 */
const localDay = (zone: string) => Prisma.sql`(c."createdAt" AT TIME ZONE ${zone})::date`;

export interface AgentProductivityRow {
  agent: string;
  answered: bigint;
  closed: bigint;
  afr: number | null;
  ast: number | null;
  messages: bigint;
}

/** Per agent of the workspace: conversations answered and closed in the period, their average first response and session time, messages sent. */
export function agentProductivityRows(
  db: Reader,
  f: ReportFilter,
  { from, to }: ReportPeriod,
  limit: number,
): Promise<AgentProductivityRow[]> {
  const s = scope(f);
  // Messages are counted per author (a user of this workspace); only a sector or channel filter needs their conversations.
  const byConversation = Boolean(f.sectorId || f.channelId);
  return db.$queryRaw<AgentProductivityRow[]>`
        WITH answered AS (
          SELECT c."userId" AS uid, count(*) AS n, avg(GREATEST(0, extract(epoch FROM c."timeAnswer" - c."createdAt"))) FILTER (WHERE c.type = 'inbound') AS afr
          FROM "Conversation" c WHERE ${s} AND c."timeAnswer" >= ${from} AND c."timeAnswer" < ${to} AND c."userId" IS NOT NULL GROUP BY 1
        ), closed AS (
          SELECT c."userId" AS uid, count(*) AS n, avg(GREATEST(0, extract(epoch FROM c."closedAt" - c."createdAt"))) AS ast
          FROM "Conversation" c WHERE ${s} AND c."closedAt" >= ${from} AND c."closedAt" < ${to} AND c."userId" IS NOT NULL GROUP BY 1
        ), sent AS (
          SELECT m."userId" AS uid, count(*) AS n FROM "Message" m
          ${byConversation ? Prisma.sql`JOIN "Conversation" c ON c.id = m."conversationId" AND ${s}` : Prisma.empty}
          WHERE m."tenantId" = ${f.tenantId}::uuid AND m."createdAt" >= ${from} AND m."createdAt" < ${to}
            AND m.author = 'USER'::"MessageAuthor" AND m.internal = false AND m."userId" IS NOT NULL GROUP BY 1
        )
        SELECT u.username AS agent, COALESCE(a.n, 0) AS answered, COALESCE(cl.n, 0) AS closed, a.afr::float8 AS afr, cl.ast::float8 AS ast, COALESCE(m.n, 0) AS messages
        FROM "User" u LEFT JOIN answered a ON a.uid = u.id LEFT JOIN closed cl ON cl.uid = u.id LEFT JOIN sent m ON m.uid = u.id
        WHERE u."tenantId" = ${f.tenantId}::uuid AND u."workspaceId" = ${f.workspaceId}::uuid
          AND (a.n IS NOT NULL OR cl.n IS NOT NULL OR m.n IS NOT NULL) ${f.userId ? Prisma.sql`AND u.id = ${f.userId}` : Prisma.empty}
        ORDER BY u.username, u.id LIMIT ${limit}`;
}

/** `key` null: the conversations no agent took. */
export interface ConversationCountRow {
  key: string | null;
  created: bigint;
  answered: bigint;
  closed: bigint;
  unanswered: bigint;
}

const conversationCounts = Prisma.sql`count(*) AS created, count(*) FILTER (WHERE c."timeAnswer" IS NOT NULL) AS answered,
      count(*) FILTER (WHERE c.state = 'closed'::"ConversationState") AS closed,
      count(*) FILTER (WHERE c.state = 'closed'::"ConversationState" AND c."timeAnswer" IS NULL) AS unanswered`;

/** Conversations started in the period, counted per agent (key: the agent's username). */
export function conversationCountsByAgent(
  db: Reader,
  f: ReportFilter,
  { from, to }: ReportPeriod,
  limit: number,
): Promise<ConversationCountRow[]> {
  return db.$queryRaw<ConversationCountRow[]>`
            SELECT u.username AS key, ${conversationCounts}
            FROM "Conversation" c LEFT JOIN "User" u ON u.id = c."userId"
            WHERE ${scope(f)} AND c."createdAt" >= ${from} AND c."createdAt" < ${to}
            GROUP BY u.id, u.username ORDER BY u.username NULLS LAST, u.id LIMIT ${limit}`;
}

/** Conversations started in the period, counted per day of `zone` (key: YYYY-MM-DD). */
export function conversationCountsByDay(
  db: Reader,
  f: ReportFilter,
  { from, to }: ReportPeriod,
  zone: string,
  limit: number,
): Promise<ConversationCountRow[]> {
  return db.$queryRaw<ConversationCountRow[]>`
          SELECT to_char(d.day, 'YYYY-MM-DD') AS key, d.created, d.answered, d.closed, d.unanswered FROM (
            SELECT ${localDay(zone)} AS day, ${conversationCounts}
            FROM "Conversation" c WHERE ${scope(f)} AND c."createdAt" >= ${from} AND c."createdAt" < ${to} GROUP BY 1
          ) d ORDER BY d.day LIMIT ${limit}`;
}

/** Conversations started in the period per hour (0-23) or ISO weekday (1-7) of `zone`; only the buckets that have some. */
export function conversationVolume(
  db: Reader,
  f: ReportFilter,
  { from, to }: ReportPeriod,
  zone: string,
  by: 'hour' | 'weekday',
): Promise<{ bucket: number; sessions: bigint }[]> {
  const part =
    by === 'hour'
      ? Prisma.sql`extract(hour FROM c."createdAt" AT TIME ZONE ${zone})`
      : Prisma.sql`extract(isodow FROM c."createdAt" AT TIME ZONE ${zone})`;
  return db.$queryRaw<{ bucket: number; sessions: bigint }[]>`
        SELECT ${part}::int AS bucket, count(*) AS sessions FROM "Conversation" c
        WHERE ${scope(f)} AND c."createdAt" >= ${from} AND c."createdAt" < ${to} GROUP BY 1`;
}

export interface ConversationMetricsRow {
  day: string;
  sessions: bigint;
  wait: number | null;
  maxWait: number | null;
  afr: number | null;
  ast: number | null;
}

/** Per day of `zone`: conversations started, their average and longest wait, average first response and session time (seconds). */
export function conversationMetricsByDay(
  db: Reader,
  f: ReportFilter,
  { from, to }: ReportPeriod,
  zone: string,
  limit: number,
): Promise<ConversationMetricsRow[]> {
  return db.$queryRaw<ConversationMetricsRow[]>`
        SELECT to_char(d.day, 'YYYY-MM-DD') AS day, d.sessions, d.wait, d."maxWait", d.afr, d.ast FROM (
          SELECT ${localDay(zone)} AS day, count(*) AS sessions,
            -- GREATEST(0, NULL) is 0: the FILTERs keep unanswered or open sessions out of the averages.
            (avg(GREATEST(0, extract(epoch FROM c."timeAnswer" - c."timeJoin"))) FILTER (WHERE c."timeAnswer" IS NOT NULL))::float8 AS wait,
            (max(GREATEST(0, extract(epoch FROM c."timeAnswer" - c."timeJoin"))) FILTER (WHERE c."timeAnswer" IS NOT NULL))::float8 AS "maxWait",
            (avg(GREATEST(0, extract(epoch FROM c."timeAnswer" - c."createdAt"))) FILTER (WHERE c.type = 'inbound' AND c."timeAnswer" IS NOT NULL))::float8 AS afr,
            (avg(GREATEST(0, extract(epoch FROM c."closedAt" - c."createdAt"))) FILTER (WHERE c."closedAt" IS NOT NULL))::float8 AS ast
          FROM "Conversation" c WHERE ${scope(f)} AND c."createdAt" >= ${from} AND c."createdAt" < ${to} GROUP BY 1
        ) d ORDER BY d.day LIMIT ${limit}`;
}

export interface LoginHistoryRow {
  at: Date;
  user: string;
  email: string;
  event: string;
  ip: string | null;
}

/** Sign-ins and sign-outs of the workspace's users in the period, newest first. */
export function loginHistoryRows(
  db: Reader,
  f: Pick<ReportFilter, 'tenantId' | 'workspaceId' | 'userId'>,
  { from, to }: ReportPeriod,
  limit: number,
): Promise<LoginHistoryRow[]> {
  return db.$queryRaw<LoginHistoryRow[]>`
        SELECT h.at, u.username AS "user", u.email, h.event, h.ip FROM "LoginHistory" h JOIN "User" u ON u.id = h."userId"
        WHERE h."tenantId" = ${f.tenantId}::uuid AND u."workspaceId" = ${f.workspaceId}::uuid AND h.at >= ${from} AND h.at < ${to}
          ${f.userId ? Prisma.sql`AND h."userId" = ${f.userId}` : Prisma.empty}
        ORDER BY h.at DESC, h.id LIMIT ${limit}`;
}

/** A LIKE pattern matching `text` anywhere, its own %, _ and \ taken literally. */
const containing = (text: string): string => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

export interface ChatHistoryRow {
  ticket: number;
  contact: string;
  phone: string | null;
  agent: string | null;
  sector: string | null;
  channel: string;
  createdAt: Date;
  closedAt: Date;
  endedBy: string | null;
  reason: string | null;
  id: string;
}

/**
 * Conversations closed in the period, newest closing first, optionally of a contact whose name or
 * phone contains `contact`; `after` (keyset) reads the rows after the last one read, in the same order.
 */
export function chatHistoryRows(
  db: Reader,
  f: ReportFilter,
  { from, to }: ReportPeriod,
  contact: string | null | undefined,
  after: { closedAt: Date; id: string } | null,
  limit: number,
): Promise<ChatHistoryRow[]> {
  const pattern = contact ? containing(contact) : null;
  const next = after
    ? Prisma.sql`AND (c."closedAt" < ${after.closedAt} OR (c."closedAt" = ${after.closedAt} AND c.id > ${after.id}::uuid))`
    : Prisma.empty;
  return db.$queryRaw<ChatHistoryRow[]>`
        SELECT c."ticketNumber" AS ticket, ct.name AS contact, ct."phoneNumber" AS phone, u.username AS agent, sc.name AS sector, ch.name AS channel,
               c."createdAt", c."closedAt", c."endedBy", r.name AS reason, c.id
        FROM "Conversation" c JOIN "Contact" ct ON ct.id = c."contactId" JOIN "Channel" ch ON ch.id = c."channelId"
        LEFT JOIN "User" u ON u.id = c."userId" LEFT JOIN "Sector" sc ON sc.id = c."sectorId" LEFT JOIN "ConversationReason" r ON r.id = c."endReasonId"
        WHERE ${scope(f)} AND c.state = 'closed'::"ConversationState" AND c."closedAt" >= ${from} AND c."closedAt" < ${to}
          ${pattern ? Prisma.sql`AND (ct.name ILIKE ${pattern} OR ct."phoneNumber" ILIKE ${pattern})` : Prisma.empty} ${next}
        ORDER BY c."closedAt" DESC, c.id LIMIT ${limit}`;
}

/**
 * The last step of a menu or a bot flow in the period, recorded on the conversation's history: into
 * the queue (enter-queue) or ended (closed); a menu's with the answer that led there.
 */
export function botOutcomeRows(
  db: Reader,
  f: ReportFilter,
  { from, to }: ReportPeriod,
  limit: number,
): Promise<{ menu: string; answer: string | null; type: string; conversations: bigint }[]> {
  const s = scope(f);
  return db.$queryRaw<{ menu: string; answer: string | null; type: string; conversations: bigint }[]>`
        SELECT menu, answer, type, conversations FROM (
          SELECT m.name AS menu, e.detail->>'answer' AS answer, e.type, count(DISTINCT e."conversationId") AS conversations
          FROM "ConversationEvent" e
          JOIN "Conversation" c ON c.id = e."conversationId"
          JOIN "AutomatedMenu" m ON m.id::text = e.detail->>'menu_uuid'
          WHERE e."tenantId" = ${f.tenantId}::uuid AND e.type IN ('enter-queue', 'closed') AND e.at >= ${from} AND e.at < ${to}
            AND e.detail ? 'menu_uuid' AND ${s}
          GROUP BY 1, 2, 3
          UNION ALL
          SELECT b.name, NULL, e.type, count(DISTINCT e."conversationId")
          FROM "ConversationEvent" e
          JOIN "Conversation" c ON c.id = e."conversationId"
          JOIN "Bot" b ON b.id::text = e.detail->>'bot_uuid'
          WHERE e."tenantId" = ${f.tenantId}::uuid AND e.type IN ('enter-queue', 'closed') AND e.at >= ${from} AND e.at < ${to}
            AND e.detail ? 'bot_uuid' AND ${s}
          GROUP BY 1, 2, 3
        ) t ORDER BY 1, 2 NULLS FIRST, 3 LIMIT ${limit}`;
}

/** The survey report's filter: the conversation filter and optionally one survey. */
export interface SurveyReportFilter extends ReportFilter {
  surveyId?: string | null;
}

/** An answer that is a number ("5", "4,5") is a score; a worded one ("Good") has none. */
const NUMERIC = '^[[:space:]]*-?[0-9]+([.,][0-9]+)?[[:space:]]*$';

/**
 * The survey runs of a report: sent in the period, of the workspace, with the filters; a score and
 * the repeated flag each. An answer is repeated when the same contact had already answered the same survey.
 */
function surveyRuns(f: SurveyReportFilter, { from, to }: ReportPeriod): Prisma.Sql {
  return Prisma.sql`runs AS (
      SELECT r.id, r."surveyId", r."conversationId", r."contactId", r."channelId", r."sectorId", r."userId", r.state, r."answerIndex", r.answer, r."sentAt", r."answeredAt",
        s.name AS survey, s.question,
        CASE WHEN r.state = 'answered' AND r.answer ~ ${NUMERIC} THEN replace(btrim(r.answer), ',', '.')::float8 END AS score,
        (r.state = 'answered' AND EXISTS (
          SELECT 1 FROM "SurveyRun" p WHERE p."tenantId" = r."tenantId" AND p."surveyId" = r."surveyId" AND p."contactId" = r."contactId" AND p.state = 'answered'
            AND (p."answeredAt" < r."answeredAt" OR (p."answeredAt" = r."answeredAt" AND p.id < r.id))
        )) AS repeated
      FROM "SurveyRun" r JOIN "Survey" s ON s.id = r."surveyId"
      WHERE r."tenantId" = ${f.tenantId}::uuid AND s."workspaceId" = ${f.workspaceId}::uuid AND r."sentAt" >= ${from} AND r."sentAt" < ${to}
        ${f.surveyId ? Prisma.sql`AND r."surveyId" = ${f.surveyId}::uuid` : Prisma.empty}
        ${f.sectorId ? Prisma.sql`AND r."sectorId" = ${f.sectorId}::uuid` : Prisma.empty}
        ${f.userId ? Prisma.sql`AND r."userId" = ${f.userId}` : Prisma.empty}
        ${f.channelId ? Prisma.sql`AND r."channelId" = ${f.channelId}::uuid` : Prisma.empty}
    )`;
}
const surveyCounts = Prisma.sql`count(*) AS sent, count(*) FILTER (WHERE runs.state = 'answered') AS answered, avg(runs.score) AS score, count(*) FILTER (WHERE runs.repeated) AS repeated`;
export interface SurveyCounts {
  sent: bigint;
  answered: bigint;
  score: number | null;
  repeated: bigint;
}

/** Per survey: runs sent, answered, still waiting, the average score and repeated answers. */
export function surveyCountsBySurvey(
  db: Reader,
  f: SurveyReportFilter,
  period: ReportPeriod,
  limit: number,
): Promise<(SurveyCounts & { survey: string; question: string; waiting: bigint })[]> {
  return db.$queryRaw<(SurveyCounts & { survey: string; question: string; waiting: bigint })[]>`
          WITH ${surveyRuns(f, period)}
          SELECT survey, question, ${surveyCounts}, count(*) FILTER (WHERE state = 'pending') AS waiting
          FROM runs GROUP BY "surveyId", survey, question ORDER BY survey, "surveyId" LIMIT ${limit}`;
}

/**
 * Every option of each survey sent in the period, unanswered ones too; an answer counts under the
 * option's position when it was sent (an option renamed since keeps its answers).
 */
export function surveyCountsByOption(
  db: Reader,
  f: SurveyReportFilter,
  period: ReportPeriod,
  limit: number,
): Promise<{ survey: string; question: string; option: string; answers: bigint; total: bigint; repeated: bigint }[]> {
  return db.$queryRaw<{ survey: string; question: string; option: string; answers: bigint; total: bigint; repeated: bigint }[]>`
          WITH ${surveyRuns(f, period)}, surveys AS (SELECT DISTINCT "surveyId", survey, question FROM runs)
          SELECT sv.survey, sv.question, o.option,
            (SELECT count(*) FROM runs x WHERE x."surveyId" = sv."surveyId" AND x.state = 'answered' AND x."answerIndex" = o.idx - 1) AS answers,
            (SELECT count(*) FROM runs x WHERE x."surveyId" = sv."surveyId" AND x.state = 'answered') AS total,
            (SELECT count(*) FROM runs x WHERE x."surveyId" = sv."surveyId" AND x.repeated AND x."answerIndex" = o.idx - 1) AS repeated
          FROM surveys sv JOIN "Survey" s ON s.id = sv."surveyId" CROSS JOIN LATERAL unnest(s.options) WITH ORDINALITY AS o(option, idx)
          ORDER BY sv.survey, sv."surveyId", o.idx LIMIT ${limit}`;
}

/** Per agent who held the conversation the survey followed (null for one no agent took) and survey. */
export function surveyCountsByAgent(
  db: Reader,
  f: SurveyReportFilter,
  period: ReportPeriod,
  limit: number,
): Promise<(SurveyCounts & { agent: string | null; survey: string })[]> {
  return db.$queryRaw<(SurveyCounts & { agent: string | null; survey: string })[]>`
          WITH ${surveyRuns(f, period)}
          SELECT u.username AS agent, runs.survey, ${surveyCounts}
          FROM runs LEFT JOIN "User" u ON u.id = runs."userId"
          GROUP BY u.id, u.username, runs."surveyId", runs.survey ORDER BY u.username NULLS LAST, u.id, runs.survey, runs."surveyId" LIMIT ${limit}`;
}

/** Per day of `zone` the survey was sent (day: YYYY-MM-DD). */
export function surveyCountsByDay(
  db: Reader,
  f: SurveyReportFilter,
  period: ReportPeriod,
  zone: string,
  limit: number,
): Promise<(SurveyCounts & { day: string })[]> {
  return db.$queryRaw<(SurveyCounts & { day: string })[]>`
          WITH ${surveyRuns(f, period)}
          SELECT to_char(d.day, 'YYYY-MM-DD') AS day, d.sent, d.answered, d.score, d.repeated FROM (
            SELECT ("sentAt" AT TIME ZONE ${zone})::date AS day, ${surveyCounts} FROM runs GROUP BY 1
          ) d ORDER BY d.day LIMIT ${limit}`;
}

export interface SurveyAnswerRow {
  answeredAt: Date;
  survey: string;
  question: string;
  answer: string | null;
  score: number | null;
  repeated: boolean;
  contact: string;
  phone: string | null;
  agent: string | null;
  sector: string | null;
  channel: string;
  ticket: number;
  conversationId: string;
}

/**
 * The answers of the runs sent in the period, newest first; `after` (keyset) reads the answers after
 * the last one read (a run per conversation, so its id orders ties).
 */
export function surveyAnswerRows(
  db: Reader,
  f: SurveyReportFilter,
  period: ReportPeriod,
  after: { answeredAt: Date; conversationId: string } | null,
  limit: number,
): Promise<SurveyAnswerRow[]> {
  const next = after
    ? Prisma.sql`AND (runs."answeredAt" < ${after.answeredAt} OR (runs."answeredAt" = ${after.answeredAt} AND runs."conversationId" > ${after.conversationId}::uuid))`
    : Prisma.empty;
  return db.$queryRaw<SurveyAnswerRow[]>`
        WITH ${surveyRuns(f, period)}
        SELECT runs."answeredAt", runs.survey, runs.question, runs.answer, runs.score, runs.repeated, ct.name AS contact, ct."phoneNumber" AS phone, u.username AS agent,
               sc.name AS sector, ch.name AS channel, c."ticketNumber" AS ticket, runs."conversationId"
        FROM runs JOIN "Conversation" c ON c.id = runs."conversationId" JOIN "Contact" ct ON ct.id = runs."contactId" JOIN "Channel" ch ON ch.id = runs."channelId"
        LEFT JOIN "User" u ON u.id = runs."userId" LEFT JOIN "Sector" sc ON sc.id = runs."sectorId"
        WHERE runs.state = 'answered' ${next}
        ORDER BY runs."answeredAt" DESC, runs."conversationId" LIMIT ${limit}`;
}
