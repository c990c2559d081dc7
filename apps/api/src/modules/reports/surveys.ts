import { surveysReport, type QueryOf } from '@atende/contract';
import { Prisma } from '@atende/db';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { reportRange } from './export';
import { answerReport, n, rate, type Column } from './table';

type Query = QueryOf<typeof surveysReport>;

/** An answer that is a number ("5", "4,5") is a score; a worded one ("Good") has none. */
const NUMERIC = '^[[:space:]]*-?[0-9]+([.,][0-9]+)?[[:space:]]*$';
/** A number in the files too (Excel numbers as numbers), two decimals; null without numeric answers. */
const score = (v: number | null): number | null => (v === null ? null : Math.round(v * 100) / 100);

const SENT: Column[] = [
  { key: 'sent', label: 'Sent' },
  { key: 'answered', label: 'Answered' },
];
const SCORE: Column = { key: 'average_score', label: 'Average score' };
const SURVEY: Column[] = [
  { key: 'survey', label: 'Survey' },
  { key: 'question', label: 'Question' },
];
const RATE: Column = { key: 'answer_rate', label: 'Answer rate' };
const REPEATED: Column = { key: 'repeated', label: 'Repeated answers' };

/**
 * Reports > Surveys (spec 002 §2, flag surveys_report): the surveys sent in the caller's days, read
 * per survey, per answer option, per agent of the finished conversation, per day, or answer by answer,
 * with the same filters and downloads as the other reports. An answer is repeated (spec 002 §5
 * "repeated answers are flagged") when the same contact had already answered the same survey.
 */
export function surveyReportRoutes(app: FastifyInstance, ctx: AppContext): void {
  /** The survey runs of the report: sent in the range, of the caller's workspace, with the filters; a score and the repeated flag each. */
  function runs(session: Session, q: Query, from: Date, to: Date): Prisma.Sql {
    return Prisma.sql`runs AS (
      SELECT r.id, r."surveyId", r."conversationId", r."contactId", r."channelId", r."sectorId", r."userId", r.state, r."answerIndex", r.answer, r."sentAt", r."answeredAt",
        s.name AS survey, s.question,
        CASE WHEN r.state = 'answered' AND r.answer ~ ${NUMERIC} THEN replace(btrim(r.answer), ',', '.')::float8 END AS score,
        (r.state = 'answered' AND EXISTS (
          SELECT 1 FROM "SurveyRun" p WHERE p."tenantId" = r."tenantId" AND p."surveyId" = r."surveyId" AND p."contactId" = r."contactId" AND p.state = 'answered'
            AND (p."answeredAt" < r."answeredAt" OR (p."answeredAt" = r."answeredAt" AND p.id < r.id))
        )) AS repeated
      FROM "SurveyRun" r JOIN "Survey" s ON s.id = r."surveyId"
      WHERE r."tenantId" = ${session.tenantId}::uuid AND s."workspaceId" = ${session.workspaceId}::uuid AND r."sentAt" >= ${from} AND r."sentAt" < ${to}
        ${q.survey_uuid ? Prisma.sql`AND r."surveyId" = ${q.survey_uuid}::uuid` : Prisma.empty}
        ${q.sector_uuid ? Prisma.sql`AND r."sectorId" = ${q.sector_uuid}::uuid` : Prisma.empty}
        ${q.user_id ? Prisma.sql`AND r."userId" = ${q.user_id}` : Prisma.empty}
        ${q.channel_uuid ? Prisma.sql`AND r."channelId" = ${q.channel_uuid}::uuid` : Prisma.empty}
    )`;
  }
  const counts = Prisma.sql`count(*) AS sent, count(*) FILTER (WHERE runs.state = 'answered') AS answered, avg(runs.score) AS score, count(*) FILTER (WHERE runs.repeated) AS repeated`;
  type Counts = { sent: bigint; answered: bigint; score: number | null; repeated: bigint };

  bind(app, surveysReport, 'reports.surveys', async ({ session, query, request, reply }) => {
    const { from, to, zone } = reportRange(query);
    const base = runs(session, query, from, to);
    const name = `surveys-by-${query.report_type}`;

    if (query.report_type === 'survey') {
      return answerReport(request, reply, query, name, [
        ...SURVEY, ...SENT, { key: 'waiting', label: 'Waiting for an answer' }, { key: 'no_answer', label: 'No answer' }, RATE, SCORE, REPEATED,
      ], async (limit) => {
        const rows = await ctx.db.$queryRaw<(Counts & { survey: string; question: string; waiting: bigint })[]>`
          WITH ${base}
          SELECT survey, question, ${counts}, count(*) FILTER (WHERE state = 'pending') AS waiting
          FROM runs GROUP BY "surveyId", survey, question ORDER BY survey, "surveyId" LIMIT ${limit}`;
        return rows.map((r) => ({
          survey: r.survey, question: r.question, sent: n(r.sent), answered: n(r.answered), waiting: n(r.waiting),
          no_answer: n(r.sent) - n(r.answered) - n(r.waiting), answer_rate: rate(n(r.answered), n(r.sent)), average_score: score(r.score), repeated: n(r.repeated),
        }));
      });
    }

    if (query.report_type === 'option') {
      return answerReport(request, reply, query, name, [
        ...SURVEY, { key: 'option', label: 'Option' }, { key: 'answers', label: 'Answers' }, { key: 'share', label: 'Share' }, REPEATED,
      ], async (limit) => {
        // Every option of each survey sent in the period, unanswered ones too; an answer counts under
        // the option's position when it was sent (an option renamed since keeps its answers).
        const rows = await ctx.db.$queryRaw<{ survey: string; question: string; option: string; answers: bigint; total: bigint; repeated: bigint }[]>`
          WITH ${base}, surveys AS (SELECT DISTINCT "surveyId", survey, question FROM runs)
          SELECT sv.survey, sv.question, o.option,
            (SELECT count(*) FROM runs x WHERE x."surveyId" = sv."surveyId" AND x.state = 'answered' AND x."answerIndex" = o.idx - 1) AS answers,
            (SELECT count(*) FROM runs x WHERE x."surveyId" = sv."surveyId" AND x.state = 'answered') AS total,
            (SELECT count(*) FROM runs x WHERE x."surveyId" = sv."surveyId" AND x.repeated AND x."answerIndex" = o.idx - 1) AS repeated
          FROM surveys sv JOIN "Survey" s ON s.id = sv."surveyId" CROSS JOIN LATERAL unnest(s.options) WITH ORDINALITY AS o(option, idx)
          ORDER BY sv.survey, sv."surveyId", o.idx LIMIT ${limit}`;
        return rows.map((r) => ({ survey: r.survey, question: r.question, option: r.option, answers: n(r.answers), share: rate(n(r.answers), n(r.total)), repeated: n(r.repeated) }));
      });
    }

    if (query.report_type === 'agent') {
      return answerReport(request, reply, query, name, [{ key: 'agent', label: 'Agent' }, SURVEY[0]!, ...SENT, RATE, SCORE, REPEATED], async (limit) => {
        // The agent who held the conversation the survey followed; none ('--') for one no agent took.
        const rows = await ctx.db.$queryRaw<(Counts & { agent: string | null; survey: string })[]>`
          WITH ${base}
          SELECT u.username AS agent, runs.survey, ${counts}
          FROM runs LEFT JOIN "User" u ON u.id = runs."userId"
          GROUP BY u.id, u.username, runs."surveyId", runs.survey ORDER BY u.username NULLS LAST, u.id, runs.survey, runs."surveyId" LIMIT ${limit}`;
        return rows.map((r) => ({
          agent: r.agent, survey: r.survey, sent: n(r.sent), answered: n(r.answered), answer_rate: rate(n(r.answered), n(r.sent)), average_score: score(r.score), repeated: n(r.repeated),
        }));
      });
    }

    if (query.report_type === 'day') {
      return answerReport(request, reply, query, name, [{ key: 'day', label: 'Day' }, ...SENT, RATE, SCORE, REPEATED], async (limit) => {
        const rows = await ctx.db.$queryRaw<(Counts & { day: string })[]>`
          WITH ${base}
          SELECT to_char(d.day, 'YYYY-MM-DD') AS day, d.sent, d.answered, d.score, d.repeated FROM (
            SELECT ("sentAt" AT TIME ZONE ${zone})::date AS day, ${counts} FROM runs GROUP BY 1
          ) d ORDER BY d.day LIMIT ${limit}`;
        return rows.map((r) => ({ day: r.day, sent: n(r.sent), answered: n(r.answered), answer_rate: rate(n(r.answered), n(r.sent)), average_score: score(r.score), repeated: n(r.repeated) }));
      });
    }

    return answerReport(request, reply, query, name, [
      { key: 'answered_at', label: 'Answered at' },
      ...SURVEY,
      { key: 'answer', label: 'Answer' },
      { key: 'score', label: 'Score' },
      { key: 'repeated', label: 'Repeated', translated: true },
      { key: 'contact', label: 'Contact' },
      { key: 'phone', label: 'Phone' },
      { key: 'agent', label: 'Agent' },
      { key: 'sector', label: 'Sector' },
      { key: 'channel', label: 'Channel' },
      { key: 'ticket', label: 'Ticket' },
      { key: 'conversation_uuid', label: 'Conversation' },
    ], async (limit, after) => {
      // Keyset: the answers after the last one read, newest first (a run per conversation, so its id orders ties).
      const next = after
        ? Prisma.sql`AND (runs."answeredAt" < ${new Date(String(after.answered_at))} OR (runs."answeredAt" = ${new Date(String(after.answered_at))} AND runs."conversationId" > ${String(after.conversation_uuid)}::uuid))`
        : Prisma.empty;
      const rows = await ctx.db.$queryRaw<
        { answeredAt: Date; survey: string; question: string; answer: string | null; score: number | null; repeated: boolean; contact: string; phone: string | null; agent: string | null; sector: string | null; channel: string; ticket: number; conversationId: string }[]
      >`
        WITH ${base}
        SELECT runs."answeredAt", runs.survey, runs.question, runs.answer, runs.score, runs.repeated, ct.name AS contact, ct."phoneNumber" AS phone, u.username AS agent,
               sc.name AS sector, ch.name AS channel, c."ticketNumber" AS ticket, runs."conversationId"
        FROM runs JOIN "Conversation" c ON c.id = runs."conversationId" JOIN "Contact" ct ON ct.id = runs."contactId" JOIN "Channel" ch ON ch.id = runs."channelId"
        LEFT JOIN "User" u ON u.id = runs."userId" LEFT JOIN "Sector" sc ON sc.id = runs."sectorId"
        WHERE runs.state = 'answered' ${next}
        ORDER BY runs."answeredAt" DESC, runs."conversationId" LIMIT ${limit}`;
      return rows.map((r) => ({
        answered_at: r.answeredAt.toISOString(), survey: r.survey, question: r.question, answer: r.answer, score: score(r.score), repeated: r.repeated ? 'Yes' : 'No',
        contact: r.contact, phone: r.phone, agent: r.agent, sector: r.sector, channel: r.channel, ticket: r.ticket, conversation_uuid: r.conversationId,
      }));
    }, true);
  });
}
