import {
  AppError,
  createSurvey,
  deleteSurvey,
  getSurvey,
  listSurveys,
  updateSurvey,
  type Survey,
  type SurveyResult,
} from '@atende/contract';
import { surveyIssues, type SurveyInput } from '@atende/core';
import {
  countLiveSectors,
  enabledSurveyOfSectors,
  findSurvey,
  insertSurvey,
  listSurveyRows,
  softDeleteSurvey,
  surveyRunTallies,
  updateSurveyFields,
  type SurveyRow,
} from '@atende/db';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';

const present = (r: SurveyRow): Survey => ({
  uuid: r.id,
  name: r.name,
  question: r.question,
  options: r.options,
  greeting_message: r.greetingMessage,
  sector_uuids: r.sectorIds,
  enabled: r.enabled,
  created_at: r.createdAt.toISOString(),
});

/** Satisfaction surveys (GET /api/v1/surveys): supervisors read, admins write. */
export function surveyRoutes(app: FastifyInstance, ctx: AppContext): void {
  async function find(session: Session, id: string): Promise<SurveyRow> {
    const row = await findSurvey(ctx.db, session, id);
    if (!row) throw new AppError('survey_not_found', 'Survey not found');
    return row;
  }

  /** The spec's rules, then the sectors: of this workspace, and not already followed by another enabled survey. */
  async function check(
    session: Session,
    input: SurveyInput & { sector_uuids: string[]; enabled: boolean },
    self: string | null,
  ): Promise<void> {
    const issues = surveyIssues(input);
    if (issues.length) throw new AppError('validation_failed', issues[0]!.message, issues);
    const sectors = [...new Set(input.sector_uuids)];
    const found = await countLiveSectors(ctx.db, session, sectors);
    if (found !== sectors.length)
      throw new AppError('sector_not_found', 'Sector not found', [{ path: 'sector_uuids', message: 'Sector not found' }]);
    if (!input.enabled || sectors.length === 0) return;
    const clash = await enabledSurveyOfSectors(ctx.db, session, sectors, self);
    if (clash) {
      const message = `A sector already has the survey "${clash.name}"`;
      throw new AppError(
        'survey_sector_taken',
        message,
        [{ path: 'sector_uuids', message, code: 'survey_sector_taken', params: { survey: clash.name } }],
        { survey: clash.name },
      );
    }
  }

  bind(app, listSurveys, 'settings.surveys.read', async ({ session }) => {
    const rows = await listSurveyRows(ctx.db, session);
    return { data: rows.map(present) };
  });

  bind(app, getSurvey, 'settings.surveys.read', async ({ session, params, query }) => {
    const survey = await find(session, params.id);
    const { byState, byAnswer } = await surveyRunTallies(ctx.db, session.tenantId, survey.id, {
      start: query.start ? new Date(query.start) : undefined,
      end: query.end ? new Date(query.end) : undefined,
    });
    const count = (state: string) => byState.find((s) => s.state === state)?.count ?? 0;
    const result: SurveyResult = {
      survey: present(survey),
      sent: byState.reduce((sum, s) => sum + s.count, 0),
      answered: count('answered'),
      pending: count('pending'),
      answers: survey.options.map((option, i) => ({ option, count: byAnswer.find((a) => a.answerIndex === i)?.count ?? 0 })),
    };
    return { data: result };
  });

  bind(app, createSurvey, 'settings.surveys.write', async ({ session, body }) => {
    await check(session, body, null);
    const row = await insertSurvey(ctx.db, session, {
      name: body.name.trim(),
      question: body.question.trim(),
      options: body.options.map((o) => o.trim()),
      greetingMessage: body.greeting_message.trim(),
      sectorIds: [...new Set(body.sector_uuids)],
      enabled: body.enabled,
    });
    return { data: present(row) };
  });

  bind(app, updateSurvey, 'settings.surveys.write', async ({ session, params, body }) => {
    const current = await find(session, params.id);
    const next = {
      name: body.name ?? current.name,
      question: body.question ?? current.question,
      options: body.options ?? current.options,
      greeting_message: body.greeting_message ?? current.greetingMessage,
      sector_uuids: body.sector_uuids ?? current.sectorIds,
      enabled: body.enabled ?? current.enabled,
    };
    await check(session, next, current.id);
    const row = await updateSurveyFields(ctx.db, session.tenantId, current.id, {
      name: next.name.trim(),
      question: next.question.trim(),
      options: next.options.map((o) => o.trim()),
      greetingMessage: next.greeting_message.trim(),
      sectorIds: [...new Set(next.sector_uuids)],
      enabled: next.enabled,
    });
    return { data: present(row) };
  });

  bind(app, deleteSurvey, 'settings.surveys.write', async ({ session, params }) => {
    const current = await find(session, params.id);
    await softDeleteSurvey(ctx.db, session.tenantId, current.id);
    return { data: { uuid: current.id } };
  });
}
