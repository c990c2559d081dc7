import { surveysReport } from '@atende/contract';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import { reportRange } from './export';
import { reportFilter, surveyAnswers, surveysByAgent, surveysByDay, surveysByOption, surveysBySurvey } from './service';
import { answerReport, type Column } from './table';

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
 * Reports > Surveys (flag surveys_report): the surveys sent in the caller's days, read
 * per survey, per answer option, per agent of the finished conversation, per day, or answer by answer,
 * with the same filters and downloads as the other reports. An answer is repeated
 * "repeated answers are flagged") when the same contact had already answered the same survey.
 */
export function surveyReportRoutes(app: FastifyInstance, ctx: AppContext): void {
  bind(app, surveysReport, 'reports.surveys', async ({ session, query, request, reply }) => {
    const period = reportRange(query);
    const f = { ...reportFilter(session, query), surveyId: query.survey_uuid ?? null };
    const name = `surveys-by-${query.report_type}`;

    if (query.report_type === 'survey') {
      return answerReport(
        request,
        reply,
        query,
        name,
        [
          ...SURVEY,
          ...SENT,
          { key: 'waiting', label: 'Waiting for an answer' },
          { key: 'no_answer', label: 'No answer' },
          RATE,
          SCORE,
          REPEATED,
        ],
        (limit) => surveysBySurvey(ctx.db, f, period, limit),
      );
    }

    if (query.report_type === 'option') {
      return answerReport(
        request,
        reply,
        query,
        name,
        [...SURVEY, { key: 'option', label: 'Option' }, { key: 'answers', label: 'Answers' }, { key: 'share', label: 'Share' }, REPEATED],
        (limit) => surveysByOption(ctx.db, f, period, limit),
      );
    }

    if (query.report_type === 'agent') {
      return answerReport(
        request,
        reply,
        query,
        name,
        [{ key: 'agent', label: 'Agent' }, SURVEY[0]!, ...SENT, RATE, SCORE, REPEATED],
        (limit) => surveysByAgent(ctx.db, f, period, limit),
      );
    }

    if (query.report_type === 'day') {
      return answerReport(request, reply, query, name, [{ key: 'day', label: 'Day' }, ...SENT, RATE, SCORE, REPEATED], (limit) =>
        surveysByDay(ctx.db, f, period, period.zone, limit),
      );
    }

    return answerReport(
      request,
      reply,
      query,
      name,
      [
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
      ],
      (limit, after) => surveyAnswers(ctx.db, f, period, after, limit),
      true,
    );
  });
}
