import { z } from 'zod';
import { IsoDate, Uuid } from './common';
import { route } from './route';

/** Survey: question, answers (options), greeting message, and the sectors it follows. */
export const SurveySchema = z.object({
  uuid: Uuid,
  name: z.string(),
  question: z.string(),
  options: z.array(z.string()),
  greeting_message: z.string(),
  sector_uuids: z.array(Uuid),
  enabled: z.boolean(),
  created_at: IsoDate,
});
export type Survey = z.infer<typeof SurveySchema>;

/** The form's shape; the rules (packages/core surveyIssues) are checked by the api with the same messages. */
const surveyFields = {
  name: z.string().max(1000),
  question: z.string().max(5000),
  options: z.array(z.string().max(1000)).max(50),
  greeting_message: z.string().max(5000),
  sector_uuids: z.array(Uuid).max(500),
  enabled: z.boolean(),
};
export const SurveyBody = z.object({
  ...surveyFields,
  sector_uuids: surveyFields.sector_uuids.default([]),
  enabled: surveyFields.enabled.default(true),
});
export const SurveyPatchBody = z.object(surveyFields).partial();

export const SurveyResultSchema = z.object({
  survey: SurveySchema,
  sent: z.number().int(),
  answered: z.number().int(),
  pending: z.number().int(),
  /** Count per answer, in the survey's order (answers given to an option since renamed count under its position). */
  answers: z.array(z.object({ option: z.string(), count: z.number().int() })),
});
export type SurveyResult = z.infer<typeof SurveyResultSchema>;

const SurveyParam = z.object({ id: Uuid });

export const listSurveys = route({
  method: 'GET',
  path: '/api/v1/surveys',
  tags: ['surveys'],
  summary: 'Satisfaction surveys of the workspace.',
  response: z.object({ data: z.array(SurveySchema) }),
});
export const getSurvey = route({
  method: 'GET',
  path: '/api/v1/surveys/:id',
  tags: ['surveys'],
  summary: 'One survey with its answers so far.',
  params: SurveyParam,
  query: z.object({ start: IsoDate.optional(), end: IsoDate.optional() }),
  response: z.object({ data: SurveyResultSchema }),
  errors: ['survey_not_found'],
});
export const createSurvey = route({
  method: 'POST',
  path: '/api/v1/surveys',
  tags: ['surveys'],
  summary: 'Creates a survey (admin).',
  status: 201,
  body: SurveyBody,
  response: z.object({ data: SurveySchema }),
  errors: ['sector_not_found', 'survey_sector_taken'],
});
export const updateSurvey = route({
  method: 'PATCH',
  path: '/api/v1/surveys/:id',
  tags: ['surveys'],
  summary: 'Edits a survey (admin); runs already sent keep the answers they offered.',
  params: SurveyParam,
  body: SurveyPatchBody,
  response: z.object({ data: SurveySchema }),
  errors: ['survey_not_found', 'sector_not_found', 'survey_sector_taken'],
});
export const deleteSurvey = route({
  method: 'DELETE',
  path: '/api/v1/surveys/:id',
  tags: ['surveys'],
  summary: 'Deletes a survey (admin); its results stay readable in reports.',
  params: SurveyParam,
  response: z.object({ data: z.object({ uuid: Uuid }) }),
  errors: ['survey_not_found'],
});
