import type { OutboundTemplate, Prisma } from '../generated/prisma/client';

type Tx = Prisma.TransactionClient;

/** What a template answer needs loaded with the row. */
export const templateInclude = { channel: { select: { id: true, name: true, type: true } } } as const;
export type TemplateRow = Prisma.OutboundTemplateGetPayload<{ include: typeof templateInclude }>;

/** A template, deleted or not, with what its answer needs. */
export function templateRowById(db: Pick<Tx, 'outboundTemplate'>, id: string): Promise<TemplateRow> {
  return db.outboundTemplate.findUniqueOrThrow({ where: { id }, include: templateInclude });
}

/** A live template of the channel, with what its answer needs; null when there is none. */
export function liveChannelTemplate(db: Pick<Tx, 'outboundTemplate'>, channelId: string, id: string): Promise<TemplateRow | null> {
  return db.outboundTemplate.findFirst({ where: { id, channelId, deletedAt: null }, include: templateInclude });
}

/**
 * Stores the status a provider answered to a template's submission, unless a status report changed
 * the template since the submission began (`statusAtStart`): the provider's webhook can beat its
 * answer, and the report is the newer news. Whether the answer's status was stored.
 */
export async function storeSubmissionStatus(
  db: Pick<Prisma.TransactionClient, 'outboundTemplate'>,
  templateId: string,
  statusAtStart: string,
  answer: { status: string; reason: string | null },
): Promise<boolean> {
  const stored = await db.outboundTemplate.updateMany({
    where: { id: templateId, status: statusAtStart },
    data: { status: answer.status, rejectedReason: answer.reason },
  });
  return stored.count > 0;
}

/** Which templates a list shows; each set field narrows it. */
export interface TemplateListFilter {
  channelId?: string | undefined;
  language?: string | undefined;
  category?: string | undefined;
  /** Any case. */
  status?: string | undefined;
  /** Part of the name, any case. */
  nameContains?: string | undefined;
}

/** A page of the live templates on live channels of the workspace, newest first, and how many there are. */
export async function listWorkspaceTemplates(
  db: Pick<Tx, 'outboundTemplate'>,
  scope: { tenantId: string; workspaceId: string },
  filter: TemplateListFilter,
  page: { skip: number; take: number },
): Promise<{ rows: TemplateRow[]; total: number }> {
  const where: Prisma.OutboundTemplateWhereInput = {
    tenantId: scope.tenantId,
    deletedAt: null,
    channel: { workspaceId: scope.workspaceId, deletedAt: null },
    ...(filter.channelId ? { channelId: filter.channelId } : {}),
    ...(filter.language ? { language: filter.language } : {}),
    ...(filter.category ? { category: filter.category } : {}),
    ...(filter.status ? { status: { equals: filter.status, mode: 'insensitive' as const } } : {}),
    ...(filter.nameContains ? { name: { contains: filter.nameContains, mode: 'insensitive' as const } } : {}),
  };
  const [rows, total] = await Promise.all([
    db.outboundTemplate.findMany({
      where,
      include: templateInclude,
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      skip: page.skip,
      take: page.take,
    }),
    db.outboundTemplate.count({ where }),
  ]);
  return { rows, total };
}

export interface NewTemplate {
  tenantId: string;
  channelId: string;
  name: string;
  language: string;
  category: string;
  components: Prisma.InputJsonValue;
  status: string;
  syncPending: string | null;
}

export function insertTemplate(tx: Pick<Tx, 'outboundTemplate'>, data: NewTemplate): Promise<TemplateRow> {
  return tx.outboundTemplate.create({ data, include: templateInclude });
}

/** The tenant's live template of a channel by name and language; null when there is none. */
export function findLiveTemplateByName(
  db: Pick<Tx, 'outboundTemplate'>,
  tenantId: string,
  channelId: string,
  name: string,
  language: string,
): Promise<OutboundTemplate | null> {
  return db.outboundTemplate.findFirst({ where: { tenantId, channelId, name, language, deletedAt: null } });
}

/** The tenant's live template on a channel of the workspace, with what its answer needs; null when there is none. */
export function findLiveWorkspaceTemplate(
  db: Pick<Tx, 'outboundTemplate'>,
  scope: { tenantId: string; workspaceId: string },
  id: string,
): Promise<TemplateRow | null> {
  return db.outboundTemplate.findFirst({
    where: { tenantId: scope.tenantId, id, deletedAt: null, channel: { workspaceId: scope.workspaceId } },
    include: templateInclude,
  });
}

/** The tenant's live campaigns using a template, oldest first. */
export function liveCampaignsUsingTemplate(
  db: Pick<Tx, 'campaign'>,
  tenantId: string,
  templateId: string,
): Promise<{ id: string; name: string }[]> {
  return db.campaign.findMany({
    where: { templateId, tenantId, deletedAt: null },
    select: { id: true, name: true },
    orderBy: { createdAt: 'asc' },
  });
}

/** Flags campaigns whose template's buttons changed: their reply actions must be saved again. */
export async function markCampaignActionsOutdated(tx: Pick<Tx, 'campaign'>, campaignIds: string[]): Promise<void> {
  await tx.campaign.updateMany({ where: { id: { in: campaignIds } }, data: { actionsOutdated: true } });
}

/**
 * A template's new components; `reviewed` (a provider reviews this channel's templates) puts it
 * back to PENDING with an edit to submit.
 */
export function updateTemplateComponents(
  tx: Pick<Tx, 'outboundTemplate'>,
  id: string,
  components: Prisma.InputJsonValue,
  reviewed: boolean,
): Promise<TemplateRow> {
  return tx.outboundTemplate.update({
    where: { id },
    data: { components, rejectedReason: null, ...(reviewed ? { status: 'PENDING', syncPending: 'edit', syncError: null } : {}) },
    include: templateInclude,
  });
}

/** Deletes a template (kept as a row); `atProvider`: the provider is still to be told. */
export function markTemplateDeleted(tx: Pick<Tx, 'outboundTemplate'>, id: string, atProvider: boolean): Promise<TemplateRow> {
  return tx.outboundTemplate.update({
    where: { id },
    data: { deletedAt: new Date(), status: 'DELETED', syncPending: atProvider ? 'delete' : null },
    include: templateInclude,
  });
}

/** A template of the tenant with its channel (credentials included), for syncing it with the provider; null when there is none. */
export function templateForSync(db: Pick<Tx, 'outboundTemplate'>, tenantId: string, id: string) {
  return db.outboundTemplate.findFirst({ where: { id, tenantId }, include: { channel: true } });
}

/** What a provider's answer to a sync changes on the template. */
export interface TemplateSyncResult {
  status?: string;
  externalId?: string | null;
  rejectedReason?: string | null;
  syncError?: string | null;
}

/** Stores a sync's result: nothing is left to do at the provider. */
export function finishTemplateSync(db: Pick<Tx, 'outboundTemplate'>, id: string, result: TemplateSyncResult): Promise<TemplateRow> {
  return db.outboundTemplate.update({ where: { id }, data: { ...result, syncPending: null }, include: templateInclude });
}

/** When the template was deleted; null while it is not. */
export async function templateDeletedAt(db: Pick<Tx, 'outboundTemplate'>, id: string): Promise<Date | null> {
  return (await db.outboundTemplate.findUniqueOrThrow({ where: { id }, select: { deletedAt: true } })).deletedAt;
}

/** Live channels, of every tenant, with a live template: what reconciling template statuses asks providers about. */
export function channelsWithLiveTemplates(
  db: Pick<Tx, 'channel'>,
): Promise<{ id: string; type: string; config: Prisma.JsonValue; credentialsEncrypted: string | null }[]> {
  return db.channel.findMany({
    where: { deletedAt: null, templates: { some: { deletedAt: null } } },
    select: { id: true, type: true, config: true, credentialsEncrypted: true },
  });
}

/** A channel's live template a provider's report is about: by provider id, else by name (and language); newest first. */
export function templateForProviderReport(
  db: Pick<Tx, 'outboundTemplate'>,
  channelId: string,
  report: { externalId: string | null; name: string; language: string | null },
) {
  const byName: Prisma.OutboundTemplateWhereInput = { name: report.name, ...(report.language ? { language: report.language } : {}) };
  return db.outboundTemplate.findFirst({
    where: { channelId, deletedAt: null, OR: [...(report.externalId ? [{ externalId: report.externalId }] : []), byName] },
    orderBy: { createdAt: 'desc' },
  });
}

/** Stores the status a provider reported for a template (a DELETED one is deleted here too). */
export function storeProviderStatus(
  db: Pick<Tx, 'outboundTemplate'>,
  row: { id: string; externalId: string | null },
  report: { externalId: string | null; status: string; reason: string | null },
): Promise<TemplateRow> {
  return db.outboundTemplate.update({
    where: { id: row.id },
    data: {
      status: report.status,
      rejectedReason: report.reason,
      externalId: row.externalId ?? report.externalId,
      ...(report.status === 'DELETED' ? { deletedAt: new Date() } : {}),
    },
    include: templateInclude,
  });
}
