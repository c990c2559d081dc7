import type { Prisma, PrismaClient } from '../generated/prisma/client';
import type { WorkspaceScope } from './workspace';

type Client = Pick<Prisma.TransactionClient, 'survey' | 'surveyRun'>;

export type SurveyRow = Prisma.SurveyGetPayload<object>;

export interface SurveyFields {
  name: string;
  question: string;
  options: string[];
  greetingMessage: string;
  sectorIds: string[];
  enabled: boolean;
}

/** The workspace's live survey, or null. */
export function findSurvey(db: Client, ws: WorkspaceScope, id: string): Promise<SurveyRow | null> {
  return db.survey.findFirst({ where: { id, tenantId: ws.tenantId, workspaceId: ws.workspaceId, deletedAt: null } });
}

/** The workspace's live surveys by name. */
export function listSurveyRows(db: Client, ws: WorkspaceScope): Promise<SurveyRow[]> {
  return db.survey.findMany({ where: { tenantId: ws.tenantId, workspaceId: ws.workspaceId, deletedAt: null }, orderBy: { name: 'asc' } });
}

/** Another live, enabled survey of the workspace following one of these sectors, or null. */
export function enabledSurveyOfSectors(
  db: Client,
  ws: WorkspaceScope,
  sectorIds: readonly string[],
  exceptId: string | null,
): Promise<SurveyRow | null> {
  return db.survey.findFirst({
    where: {
      tenantId: ws.tenantId,
      workspaceId: ws.workspaceId,
      deletedAt: null,
      enabled: true,
      sectorIds: { hasSome: [...sectorIds] },
      ...(exceptId ? { id: { not: exceptId } } : {}),
    },
  });
}

/** A survey's runs, sent in [start, end) when given: how many per state, and the answered ones per option index. */
export async function surveyRunTallies(
  db: Client,
  tenantId: string,
  surveyId: string,
  range: { start?: Date | undefined; end?: Date | undefined },
): Promise<{ byState: { state: string; count: number }[]; byAnswer: { answerIndex: number | null; count: number }[] }> {
  const sentAt = { ...(range.start ? { gte: range.start } : {}), ...(range.end ? { lt: range.end } : {}) };
  const where = { surveyId, tenantId, ...(range.start || range.end ? { sentAt } : {}) };
  const [byState, byAnswer] = await Promise.all([
    db.surveyRun.groupBy({ by: ['state'], where, _count: { _all: true } }),
    db.surveyRun.groupBy({ by: ['answerIndex'], where: { ...where, state: 'answered' }, _count: { _all: true } }),
  ]);
  return {
    byState: byState.map((s) => ({ state: s.state, count: s._count._all })),
    byAnswer: byAnswer.map((a) => ({ answerIndex: a.answerIndex, count: a._count._all })),
  };
}

export function insertSurvey(db: Client, ws: WorkspaceScope, fields: SurveyFields): Promise<SurveyRow> {
  return db.survey.create({ data: { tenantId: ws.tenantId, workspaceId: ws.workspaceId, ...fields } });
}

export function updateSurveyFields(db: Client, tenantId: string, id: string, fields: SurveyFields): Promise<SurveyRow> {
  return db.survey.update({ where: { id, tenantId }, data: fields });
}

/** Deletes (softly) and disables the survey; contacts still holding its question are no longer waited on. */
export async function softDeleteSurvey(
  db: Pick<PrismaClient, '$transaction' | 'survey' | 'surveyRun'>,
  tenantId: string,
  id: string,
): Promise<void> {
  await db.$transaction([
    db.survey.update({ where: { id, tenantId }, data: { deletedAt: new Date(), enabled: false } }),
    db.surveyRun.updateMany({ where: { surveyId: id, tenantId, state: 'pending' }, data: { state: 'expired' } }),
  ]);
}

/** The oldest enabled survey of a workspace that covers a sector (the one a finished conversation sends). */
export function surveyForSector(
  db: Pick<Prisma.TransactionClient, 'survey'>,
  ws: WorkspaceScope,
  sectorId: string,
): Promise<SurveyRow | null> {
  return db.survey.findFirst({
    where: { tenantId: ws.tenantId, workspaceId: ws.workspaceId, enabled: true, deletedAt: null, sectorIds: { has: sectorId } },
    orderBy: { createdAt: 'asc' },
  });
}

/**
 * Records that a survey was sent at the end of a conversation. Only the newest survey of a contact
 * on a channel waits for an answer: any earlier pending one expires.
 */
export async function startSurveyRun(
  tx: Pick<Prisma.TransactionClient, 'surveyRun'>,
  run: {
    tenantId: string;
    surveyId: string;
    conversationId: string;
    contactId: string;
    channelId: string;
    sectorId: string;
    userId: number | null;
    sentAt: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await tx.surveyRun.updateMany({
    where: { tenantId: run.tenantId, channelId: run.channelId, contactId: run.contactId, state: 'pending' },
    data: { state: 'expired' },
  });
  await tx.surveyRun.create({ data: run });
}

/** The contact's newest pending survey on the channel, locked, with the survey's options and greeting. */
export async function lockPendingSurveyRun(
  tx: Pick<Prisma.TransactionClient, '$queryRaw'>,
  tenantId: string,
  channelId: string,
  identifier: string,
) {
  const [run] = await tx.$queryRaw<
    { id: string; conversationId: string; contactId: string; options: string[]; greeting: string; expiresAt: Date }[]
  >`
    SELECT r.id, r."conversationId", r."contactId", s.options, s."greetingMessage" AS greeting, r."expiresAt"
    FROM "ContactIdentity" ci
    JOIN "SurveyRun" r ON r."tenantId" = ${tenantId}::uuid AND r."channelId" = ci."channelId" AND r."contactId" = ci."contactId" AND r.state = 'pending'
    JOIN "Survey" s ON s.id = r."surveyId"
    WHERE ci."channelId" = ${channelId}::uuid AND ci.identifier = ${identifier}
    ORDER BY r."sentAt" DESC LIMIT 1
    FOR UPDATE OF r`;
  return run ?? null;
}

/** A pending survey run ends without an answer: expired or skipped (the contact wrote something else). */
export async function endSurveyRun(
  tx: Pick<Prisma.TransactionClient, 'surveyRun'>,
  runId: string,
  state: 'expired' | 'skipped',
): Promise<void> {
  await tx.surveyRun.update({ where: { id: runId }, data: { state } });
}

/** The contact answered a survey run with option `index`. */
export async function answerSurveyRun(
  tx: Pick<Prisma.TransactionClient, 'surveyRun'>,
  runId: string,
  index: number,
  answer: string,
  at: Date,
): Promise<void> {
  await tx.surveyRun.update({
    where: { id: runId },
    data: { state: 'answered', answerIndex: index, answer: answer.slice(0, 200), answeredAt: at },
  });
}
