import { createSurvey, deleteSurvey, getSurvey, listSurveys, updateSurvey } from '@atende/contract';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import { SurveyService } from './service';

/** Satisfaction surveys (GET /api/v1/surveys): supervisors read, admins write. */
export function surveyRoutes(app: FastifyInstance, ctx: AppContext): void {
  const surveys = new SurveyService(ctx);

  bind(app, listSurveys, 'settings.surveys.read', async ({ session }) => ({ data: await surveys.list(session) }));

  bind(app, getSurvey, 'settings.surveys.read', async ({ session, params, query }) => ({
    data: await surveys.result(session, params.id, {
      start: query.start ? new Date(query.start) : undefined,
      end: query.end ? new Date(query.end) : undefined,
    }),
  }));

  bind(app, createSurvey, 'settings.surveys.write', async ({ session, body }) => ({ data: await surveys.create(session, body) }));

  bind(app, updateSurvey, 'settings.surveys.write', async ({ session, params, body }) => ({
    data: await surveys.update(session, params.id, body),
  }));

  bind(app, deleteSurvey, 'settings.surveys.write', async ({ session, params }) => ({
    data: { uuid: await surveys.remove(session, params.id) },
  }));
}
