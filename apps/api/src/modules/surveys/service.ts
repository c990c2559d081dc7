import {
  AppError,
  refuseFieldIssues,
  type BodyOf,
  type createSurvey,
  type Survey,
  type SurveyResult,
  type updateSurvey,
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

/** Satisfaction surveys: their definitions and the tallies of their runs. */
export class SurveyService {
  constructor(private readonly ctx: AppContext) {}

  private async find(session: Session, id: string): Promise<SurveyRow> {
    const row = await findSurvey(this.ctx.db, session, id);
    if (!row) throw new AppError('survey_not_found', 'Survey not found');
    return row;
  }

  /** The spec's rules, then the sectors: of this workspace, and not already followed by another enabled survey. */
  private async check(
    session: Session,
    input: SurveyInput & { sector_uuids: string[]; enabled: boolean },
    self: string | null,
  ): Promise<void> {
    const issues = surveyIssues(input);
    refuseFieldIssues(issues);
    const sectors = [...new Set(input.sector_uuids)];
    const found = await countLiveSectors(this.ctx.db, session, sectors);
    if (found !== sectors.length)
      throw new AppError('sector_not_found', 'Sector not found', [{ path: 'sector_uuids', message: 'Sector not found' }]);
    if (!input.enabled || sectors.length === 0) return;
    const clash = await enabledSurveyOfSectors(this.ctx.db, session, sectors, self);
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

  async list(session: Session): Promise<Survey[]> {
    const rows = await listSurveyRows(this.ctx.db, session);
    return rows.map(present);
  }

  /** The survey and its runs (sent, answered, pending, per option) in the optional period. */
  async result(session: Session, id: string, period: { start: Date | undefined; end: Date | undefined }): Promise<SurveyResult> {
    const survey = await this.find(session, id);
    const { byState, byAnswer } = await surveyRunTallies(this.ctx.db, session.tenantId, survey.id, period);
    const count = (state: string) => byState.find((s) => s.state === state)?.count ?? 0;
    return {
      survey: present(survey),
      sent: byState.reduce((sum, s) => sum + s.count, 0),
      answered: count('answered'),
      pending: count('pending'),
      answers: survey.options.map((option, i) => ({ option, count: byAnswer.find((a) => a.answerIndex === i)?.count ?? 0 })),
    };
  }

  async create(session: Session, body: BodyOf<typeof createSurvey>): Promise<Survey> {
    await this.check(session, body, null);
    const row = await insertSurvey(this.ctx.db, session, {
      name: body.name.trim(),
      question: body.question.trim(),
      options: body.options.map((o) => o.trim()),
      greetingMessage: body.greeting_message.trim(),
      sectorIds: [...new Set(body.sector_uuids)],
      enabled: body.enabled,
    });
    return present(row);
  }

  async update(session: Session, id: string, body: BodyOf<typeof updateSurvey>): Promise<Survey> {
    const current = await this.find(session, id);
    const next = {
      name: body.name ?? current.name,
      question: body.question ?? current.question,
      options: body.options ?? current.options,
      greeting_message: body.greeting_message ?? current.greetingMessage,
      sector_uuids: body.sector_uuids ?? current.sectorIds,
      enabled: body.enabled ?? current.enabled,
    };
    await this.check(session, next, current.id);
    const row = await updateSurveyFields(this.ctx.db, session.tenantId, current.id, {
      name: next.name.trim(),
      question: next.question.trim(),
      options: next.options.map((o) => o.trim()),
      greetingMessage: next.greeting_message.trim(),
      sectorIds: [...new Set(next.sector_uuids)],
      enabled: next.enabled,
    });
    return present(row);
  }

  /** Soft-deletes the survey (its pending runs expire); returns its id. */
  async remove(session: Session, id: string): Promise<string> {
    const current = await this.find(session, id);
    await softDeleteSurvey(this.ctx.db, session.tenantId, current.id);
    return current.id;
  }
}
