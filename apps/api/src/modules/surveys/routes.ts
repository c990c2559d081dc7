import { AppError, createSurvey, deleteSurvey, getSurvey, listSurveys, updateSurvey, type Survey, type SurveyResult } from '@atende/contract';
import { surveyIssues, type SurveyInput } from '@atende/core';
import { scoped, type Prisma } from '@atende/db';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';

type SurveyRow = Prisma.SurveyGetPayload<object>;

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

/** Satisfaction surveys (spec 002 §3, §5, §7 GET /api/v1/surveys): supervisors read, admins write. */
export function surveyRoutes(app: FastifyInstance, ctx: AppContext): void {
  const db = (session: Session) => scoped(ctx.db, session);

  async function find(session: Session, id: string): Promise<SurveyRow> {
    const row = await db(session).survey.findFirst({ where: { id, workspaceId: session.workspaceId, deletedAt: null } });
    if (!row) throw new AppError('not_found', 'Survey not found');
    return row;
  }

  /** The spec's rules, then the sectors: of this workspace, and not already followed by another enabled survey. */
  async function check(session: Session, input: SurveyInput & { sector_uuids: string[]; enabled: boolean }, self: string | null): Promise<void> {
    const issues = surveyIssues(input);
    if (issues.length) throw new AppError('validation_failed', issues[0]!.message, issues);
    const sectors = [...new Set(input.sector_uuids)];
    const found = await db(session).sector.count({ where: { id: { in: sectors }, workspaceId: session.workspaceId, deletedAt: null } });
    if (found !== sectors.length) throw new AppError('not_found', 'Sector not found', [{ path: 'sector_uuids', message: 'Sector not found' }]);
    if (!input.enabled || sectors.length === 0) return;
    const clash = await db(session).survey.findFirst({
      where: { workspaceId: session.workspaceId, deletedAt: null, enabled: true, sectorIds: { hasSome: sectors }, ...(self ? { id: { not: self } } : {}) },
    });
    if (clash) {
      const message = `A sector already has the survey "${clash.name}"`;
      throw new AppError('conflict', message, [{ path: 'sector_uuids', message }]);
    }
  }

  bind(app, listSurveys, 'settings.surveys.read', async ({ session }) => {
    const rows = await db(session).survey.findMany({ where: { workspaceId: session.workspaceId, deletedAt: null }, orderBy: { name: 'asc' } });
    return { data: rows.map(present) };
  });

  bind(app, getSurvey, 'settings.surveys.read', async ({ session, params, query }) => {
    const survey = await find(session, params.id);
    const range = { ...(query.start ? { gte: new Date(query.start) } : {}), ...(query.end ? { lt: new Date(query.end) } : {}) };
    const where = { surveyId: survey.id, tenantId: session.tenantId, ...(query.start || query.end ? { sentAt: range } : {}) };
    const [byState, byAnswer] = await Promise.all([
      db(session).surveyRun.groupBy({ by: ['state'], where, _count: { _all: true } }),
      db(session).surveyRun.groupBy({ by: ['answerIndex'], where: { ...where, state: 'answered' }, _count: { _all: true } }),
    ]);
    const count = (state: string) => byState.find((s) => s.state === state)?._count._all ?? 0;
    const result: SurveyResult = {
      survey: present(survey),
      sent: byState.reduce((sum, s) => sum + s._count._all, 0),
      answered: count('answered'),
      pending: count('pending'),
      answers: survey.options.map((option, i) => ({ option, count: byAnswer.find((a) => a.answerIndex === i)?._count._all ?? 0 })),
    };
    return { data: result };
  });

  bind(app, createSurvey, 'settings.surveys.write', async ({ session, body }) => {
    await check(session, body, null);
    const row = await ctx.db.survey.create({
      data: {
        tenantId: session.tenantId, workspaceId: session.workspaceId, name: body.name.trim(), question: body.question.trim(), options: body.options.map((o) => o.trim()),
        greetingMessage: body.greeting_message.trim(), sectorIds: [...new Set(body.sector_uuids)], enabled: body.enabled,
      },
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
    const row = await ctx.db.survey.update({
      where: { id: current.id },
      data: {
        name: next.name.trim(), question: next.question.trim(), options: next.options.map((o) => o.trim()), greetingMessage: next.greeting_message.trim(),
        sectorIds: [...new Set(next.sector_uuids)], enabled: next.enabled,
      },
    });
    return { data: present(row) };
  });

  bind(app, deleteSurvey, 'settings.surveys.write', async ({ session, params }) => {
    const current = await find(session, params.id);
    await ctx.db.$transaction([
      ctx.db.survey.update({ where: { id: current.id }, data: { deletedAt: new Date(), enabled: false } }),
      // Contacts still holding its question are no longer waited on.
      ctx.db.surveyRun.updateMany({ where: { surveyId: current.id, state: 'pending' }, data: { state: 'expired' } }),
    ]);
    return { data: { uuid: current.id } };
  });
}
