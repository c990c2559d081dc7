import { SUBSCRIBER_REFUSALS } from '@atende/core';
import { Prisma, type Campaign } from '../generated/prisma/client';

type Tx = Prisma.TransactionClient;

/** What a campaign answer needs loaded with the row. */
export const campaignInclude = {
  channel: { select: { id: true, name: true, type: true } },
  template: { select: { id: true, name: true, status: true, deletedAt: true } },
  dndLists: { include: { list: { select: { id: true, name: true } } } },
} as const;
export type CampaignRow = Prisma.CampaignGetPayload<{ include: typeof campaignInclude }>;

/** Who looks at campaigns: admins see every one of their workspace, others their own and the public ones. */
export interface CampaignViewer {
  tenantId: string;
  workspaceId: string;
  userId: number;
  admin: boolean;
}

/** A list page's rows: how many to skip, how many to take. */
export interface CampaignPage {
  skip: number;
  take: number;
}

/** Where a campaign lives: its tenant and workspace. */
export interface CampaignWorkspace {
  tenantId: string;
  workspaceId: string;
}

function visibleTo(viewer: CampaignViewer): Prisma.CampaignWhereInput {
  const base: Prisma.CampaignWhereInput = { tenantId: viewer.tenantId, workspaceId: viewer.workspaceId, deletedAt: null };
  return viewer.admin ? base : { ...base, OR: [{ createdById: viewer.userId }, { isPublic: true }] };
}

/** A live campaign the viewer may see, with what its answer needs; null when there is none. */
export function findVisibleCampaign(db: Pick<Tx, 'campaign'>, viewer: CampaignViewer, id: string): Promise<CampaignRow | null> {
  return db.campaign.findFirst({ where: { id, ...visibleTo(viewer) }, include: campaignInclude });
}

export interface CampaignListFilter {
  onlyMine?: boolean | undefined;
  state?: string | undefined;
  /** Part of the name, any case. */
  name?: string | undefined;
}

/** A page of the campaigns the viewer sees, newest first, and how many there are in all. */
export async function listVisibleCampaigns(
  db: Pick<Tx, 'campaign'>,
  viewer: CampaignViewer,
  filter: CampaignListFilter,
  page: CampaignPage,
): Promise<{ rows: CampaignRow[]; total: number }> {
  const where: Prisma.CampaignWhereInput = {
    ...visibleTo(viewer),
    ...(filter.onlyMine ? { createdById: viewer.userId } : {}),
    ...(filter.state ? { state: filter.state } : {}),
    ...(filter.name ? { name: { contains: filter.name, mode: 'insensitive' as const } } : {}),
  };
  const [rows, total] = await Promise.all([
    db.campaign.findMany({
      where,
      include: campaignInclude,
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      skip: page.skip,
      take: page.take,
    }),
    db.campaign.count({ where }),
  ]);
  return { rows, total };
}

/** Every column of a campaign, deleted or not. */
export function campaignById(db: Pick<Tx, 'campaign'>, id: string): Promise<Campaign> {
  return db.campaign.findUniqueOrThrow({ where: { id } });
}

/** The live sectors, menus and bots of a workspace a campaign can send replies to, each by name. */
export async function campaignEntrypointChoices(
  db: Pick<Tx, 'sector' | 'automatedMenu' | 'bot'>,
  scope: CampaignWorkspace,
): Promise<{
  sectors: { id: string; name: string }[];
  menus: { id: string; name: string; enabled: boolean }[];
  bots: { id: string; name: string }[];
}> {
  const where = { tenantId: scope.tenantId, workspaceId: scope.workspaceId, deletedAt: null };
  const byName = { name: 'asc' as const };
  const [sectors, menus, bots] = await Promise.all([
    db.sector.findMany({ where, orderBy: byName, select: { id: true, name: true } }),
    db.automatedMenu.findMany({ where, orderBy: byName, select: { id: true, name: true, enabled: true } }),
    db.bot.findMany({ where, orderBy: byName, select: { id: true, name: true } }),
  ]);
  return { sectors, menus, bots };
}

/** A live menu of the workspace, and whether it is switched on; null when there is none. */
export function liveWorkspaceMenu(
  db: Pick<Tx, 'automatedMenu'>,
  scope: CampaignWorkspace,
  id: string,
): Promise<{ id: string; enabled: boolean } | null> {
  return db.automatedMenu.findFirst({
    where: { id, tenantId: scope.tenantId, workspaceId: scope.workspaceId, deletedAt: null },
    select: { id: true, enabled: true },
  });
}

/** The id of a live bot of the workspace; null when there is none. */
export async function liveWorkspaceBotId(db: Pick<Tx, 'bot'>, scope: CampaignWorkspace, id: string): Promise<string | null> {
  return (
    (
      await db.bot.findFirst({
        where: { id, tenantId: scope.tenantId, workspaceId: scope.workspaceId, deletedAt: null },
        select: { id: true },
      })
    )?.id ?? null
  );
}

/** The id of a live sector of the workspace; null when there is none. */
export async function liveWorkspaceSectorId(db: Pick<Tx, 'sector'>, scope: CampaignWorkspace, id: string): Promise<string | null> {
  return (
    (
      await db.sector.findFirst({
        where: { id, tenantId: scope.tenantId, workspaceId: scope.workspaceId, deletedAt: null },
        select: { id: true },
      })
    )?.id ?? null
  );
}

/** Whether a live bot with this id is in the workspace (any tenant's workspace ids are unique). */
export async function liveBotInWorkspace(db: Pick<Tx, 'bot'>, workspaceId: string, id: string): Promise<boolean> {
  return (await db.bot.findFirst({ where: { id, workspaceId, deletedAt: null } })) !== null;
}

/** A live channel of the workspace, its id and type; null when there is none. */
export function liveWorkspaceChannel(
  db: Pick<Tx, 'channel'>,
  scope: CampaignWorkspace,
  id: string,
): Promise<{ id: string; type: string } | null> {
  return db.channel.findFirst({
    where: { id, tenantId: scope.tenantId, workspaceId: scope.workspaceId, deletedAt: null },
    select: { id: true, type: true },
  });
}

/** The live channel a campaign sends through, with its credentials and settings; null when it is gone. */
export function liveCampaignChannel(db: Pick<Tx, 'channel'>, tenantId: string, channelId: string) {
  return db.channel.findFirst({ where: { id: channelId, tenantId, deletedAt: null } });
}

export interface NewCampaign {
  tenantId: string;
  workspaceId: string;
  name: string;
  mode: string;
  channelId: string;
  templateId: string;
  entrySectorId?: string | null | undefined;
  entryMenuId?: string | null | undefined;
  entryBotId?: string | null | undefined;
  config: Prisma.InputJsonValue;
  isPublic: boolean;
  startAt: Date | null;
  state: string;
  desiredState: string;
  createdById: number;
  dndListIds: string[];
}

/** Creates a campaign with its DND lists; its id. */
export async function insertCampaign(tx: Pick<Tx, 'campaign'>, input: NewCampaign): Promise<string> {
  const { dndListIds, ...data } = input;
  const created = await tx.campaign.create({ data: { ...data, dndLists: { create: dndListIds.map((dndListId) => ({ dndListId })) } } });
  return created.id;
}

/** The settings a campaign's edit may change. */
export type CampaignChanges = Pick<
  Prisma.CampaignUncheckedUpdateInput,
  'mode' | 'isPublic' | 'config' | 'actionsOutdated' | 'entrySectorId' | 'entryMenuId' | 'entryBotId' | 'startAt' | 'state' | 'desiredState'
>;

export async function updateCampaignSettings(tx: Pick<Tx, 'campaign'>, id: string, changes: CampaignChanges): Promise<void> {
  await tx.campaign.update({ where: { id }, data: changes });
}

/** The campaign's DND lists become exactly these. */
export async function replaceCampaignDndLists(tx: Pick<Tx, 'campaignDndList'>, campaignId: string, dndListIds: string[]): Promise<void> {
  await tx.campaignDndList.deleteMany({ where: { campaignId } });
  await tx.campaignDndList.createMany({ data: dndListIds.map((dndListId) => ({ campaignId, dndListId })) });
}

/** Deletes a campaign of the tenant (kept as a row) and tells any run of it to stop. */
export async function softDeleteCampaign(db: Pick<Tx, 'campaign'>, tenantId: string, id: string): Promise<void> {
  await db.campaign.update({ where: { id, tenantId }, data: { deletedAt: new Date(), desiredState: 'stopped' } });
}

/** Asks for a new run of the campaign: its number, which the dispatch job carries. */
export async function requestCampaignRun(tx: Pick<Tx, 'campaign'>, id: string): Promise<number> {
  const updated = await tx.campaign.update({
    where: { id },
    data: { desiredState: 'running', runNumber: { increment: 1 }, scheduledStartErrors: [] },
  });
  return updated.runNumber;
}

/** Asks the campaign to stop; one not running (`running` false) is stopped at once. */
export async function requestCampaignStop(tx: Pick<Tx, 'campaign'>, id: string, running: boolean): Promise<void> {
  await tx.campaign.update({ where: { id }, data: { desiredState: 'stopped', ...(!running ? { state: 'stopped' } : {}) } });
}

/** The ids of the live DND lists a campaign consults. */
export async function liveCampaignDndListIds(db: Pick<Tx, 'campaignDndList'>, campaignId: string): Promise<string[]> {
  return (await db.campaignDndList.findMany({ where: { campaignId, list: { deletedAt: null } }, select: { dndListId: true } })).map(
    (l) => l.dndListId,
  );
}

/**
 * A new stopped campaign with the original's settings (every column but the run's own, so settings
 * added later are copied too) and these DND lists; its id.
 */
export async function insertCampaignCopy(
  tx: Pick<Tx, 'campaign'>,
  original: Campaign,
  copy: { name: string; createdById: number; dndListIds: string[] },
): Promise<string> {
  const {
    id: _id,
    name: _name,
    state: _state,
    desiredState: _desired,
    startAt: _startAt,
    startedAt: _startedAt,
    scheduledStartErrors: _errors,
    runNumber: _run,
    dispatchOwner: _owner,
    dispatchLeaseUntil: _lease,
    finishedAt: _finished,
    importStatus: _import,
    importSummary: _summary,
    createdById: _by,
    createdAt: _created,
    updatedAt: _updated,
    deletedAt: _deleted,
    config,
    ...settings
  } = original;
  const created = await tx.campaign.create({
    data: {
      ...settings,
      config: config ?? {},
      name: copy.name,
      state: 'stopped',
      desiredState: 'stopped',
      createdById: copy.createdById,
      dndLists: { create: copy.dndListIds.map((dndListId) => ({ dndListId })) },
    },
  });
  return created.id;
}

/** A row the import refused (apps/worker import-rows.ts): it stays refused in a copy. */
const ROW_INVALID = Prisma.sql`(s."errorMessage" IN (${SUBSCRIBER_REFUSALS.noName}, ${SUBSCRIBER_REFUSALS.badPhone}) OR s."errorMessage" LIKE ${SUBSCRIBER_REFUSALS.parameterLike})`;

/**
 * Copies a campaign's subscribers to its copy, set-based, one statement whatever the list's size,
 * with the import's rules: a number on one of the copy's DND lists now is 'dnd' (never sent), a row
 * in error stays in error with its reason (the screen re-checks it when put back to pending), every
 * other row (a provider's refusal included: worth another try) is pending again.
 */
export async function copyCampaignSubscribers(tx: Pick<Tx, '$executeRaw'>, originalId: string, copyId: string): Promise<void> {
  await tx.$executeRaw`
        INSERT INTO "CampaignSubscriber" (id, "tenantId", "campaignId", "contactId", name, "phoneNumber", parameters, state, "errorMessage", "createdAt", "updatedAt")
        SELECT gen_random_uuid(), s."tenantId", ${copyId}::uuid, s."contactId", s.name, s."phoneNumber", s.parameters,
          CASE WHEN EXISTS (
                 SELECT 1 FROM "CampaignDndList" cl JOIN "DndContact" d ON d."dndListId" = cl."dndListId" JOIN "Contact" ct ON ct.id = d."contactId"
                 WHERE cl."campaignId" = ${copyId}::uuid AND ct."tenantId" = s."tenantId" AND ct."phoneNumber" = s."phoneNumber") THEN 'dnd'
               WHEN s.state = 'error' AND ${ROW_INVALID} THEN 'error'
               ELSE 'pending' END,
          CASE WHEN s.state = 'error' AND ${ROW_INVALID} THEN s."errorMessage" END,
          now(), now()
        FROM "CampaignSubscriber" s
        WHERE s."campaignId" = ${originalId}::uuid`;
}

/**
 * Claims the campaign's subscriber import (none running: never started or done) with its counters
 * reset; false when one is already pending or running.
 */
export async function claimSubscriberImport(tx: Pick<Tx, 'campaign'>, campaignId: string): Promise<boolean> {
  const claimed = await tx.campaign.updateMany({
    where: { id: campaignId, OR: [{ importStatus: null }, { importStatus: 'done' }] },
    data: { importStatus: 'pending', importSummary: { imported: 0, ignored: 0, imported_with_error: 0 } },
  });
  return claimed.count > 0;
}

/** The stored file of a subscriber import, for the worker to read. */
export interface SubscriberImportFile {
  id: string;
  tenantId: string;
  originalFilename: string;
  contentType: string;
  size: number;
  service: string;
  storageKey: string;
  uploadedById: number;
  campaignId: string;
}

export async function recordSubscriberImportFile(tx: Pick<Tx, 'storedFile'>, file: SubscriberImportFile): Promise<void> {
  await tx.storedFile.create({ data: file });
}

/** Scheduled campaigns whose start time has come (at most 100), with what their answer needs. */
export function dueScheduledCampaigns(db: Pick<Tx, 'campaign'>, now: Date): Promise<CampaignRow[]> {
  return db.campaign.findMany({
    where: { state: 'scheduled', desiredState: 'scheduled', startAt: { lte: now }, deletedAt: null },
    include: campaignInclude,
    take: 100,
  });
}

/**
 * Claims a scheduled campaign's start in one atomic update: failed with `errors` when it cannot
 * start, else asked to run a new run. False when it was no longer scheduled (another scheduler won).
 */
export async function claimScheduledStart(tx: Pick<Tx, 'campaign'>, id: string, errors: string[]): Promise<boolean> {
  const won = await tx.campaign.updateMany({
    where: { id, state: 'scheduled', desiredState: 'scheduled' },
    data: errors.length
      ? { state: 'failed', desiredState: 'failed', scheduledStartErrors: errors }
      : { desiredState: 'running', runNumber: { increment: 1 }, scheduledStartErrors: [] },
  });
  return won.count > 0;
}

/** A campaign of the tenant with its DND lists' ids, for importing subscribers into it; null when there is none. */
export function campaignForImport(db: Pick<Tx, 'campaign'>, tenantId: string, id: string) {
  return db.campaign.findFirst({ where: { id, tenantId }, include: { dndLists: true } });
}

/** The stored file of a subscriber import; null when the tenant has no such file. */
export function subscriberImportFile(db: Pick<Tx, 'storedFile'>, tenantId: string, id: string) {
  return db.storedFile.findFirst({ where: { id, tenantId } });
}

/** The tenant's settings (JSON), as the import reads its default country. */
export async function tenantConfigForImport(db: Pick<Tx, 'tenant'>, tenantId: string): Promise<Prisma.JsonValue> {
  return (await db.tenant.findUniqueOrThrow({ where: { id: tenantId }, select: { config: true } })).config;
}

/** The state of the campaign's subscriber import and its counters. */
export async function setImportStatus(
  db: Pick<Tx, 'campaign'>,
  id: string,
  status: 'in_progress' | 'done',
  summary: Prisma.InputJsonObject,
): Promise<void> {
  await db.campaign.update({ where: { id }, data: { importStatus: status, importSummary: summary } });
}

/** A campaign, deleted or not, with what its answer needs; null when there is none. */
export function campaignRowById(db: Pick<Tx, 'campaign'>, id: string): Promise<CampaignRow | null> {
  return db.campaign.findUnique({ where: { id }, include: campaignInclude });
}

/** How many subscribers each of these campaigns has in each state. */
export async function subscriberStateCounts(
  db: Pick<Tx, 'campaignSubscriber'>,
  campaignIds: string[],
): Promise<{ campaignId: string; state: string; count: number }[]> {
  if (!campaignIds.length) return [];
  const groups = await db.campaignSubscriber.groupBy({
    by: ['campaignId', 'state'],
    where: { campaignId: { in: campaignIds } },
    _count: { _all: true },
  });
  return groups.map((g) => ({ campaignId: g.campaignId, state: g.state, count: g._count._all }));
}

/** Entry points by id, deleted ones included (a campaign's answer says whether its entry point still works). */
export async function entrypointsByIds(
  db: Pick<Tx, 'sector' | 'automatedMenu' | 'bot'>,
  ids: { sectorIds: string[]; menuIds: string[]; botIds: string[] },
): Promise<{
  sectors: { id: string; name: string; deletedAt: Date | null }[];
  menus: { id: string; name: string; enabled: boolean; deletedAt: Date | null }[];
  bots: { id: string; name: string; deletedAt: Date | null }[];
}> {
  const [sectors, menus, bots] = await Promise.all([
    ids.sectorIds.length
      ? db.sector.findMany({ where: { id: { in: ids.sectorIds } }, select: { id: true, name: true, deletedAt: true } })
      : [],
    ids.menuIds.length
      ? db.automatedMenu.findMany({ where: { id: { in: ids.menuIds } }, select: { id: true, name: true, enabled: true, deletedAt: true } })
      : [],
    ids.botIds.length ? db.bot.findMany({ where: { id: { in: ids.botIds } }, select: { id: true, name: true, deletedAt: true } }) : [],
  ]);
  return { sectors, menus, bots };
}

/** The users who created campaigns, by their ids. */
export function campaignCreators(db: Pick<Tx, 'user'>, userIds: number[]): Promise<{ id: number; uuid: string; username: string }[]> {
  if (!userIds.length) return Promise.resolve([]);
  return db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, uuid: true, username: true } });
}

/**
 * Stops the tenant's live campaigns (of one channel, with `channelId`) running or about to (running or
 * scheduled): a running one is told to stop, one not running yet is stopped at once. The ids of the
 * campaigns stopped.
 */
export async function stopTenantCampaigns(tx: Pick<Tx, 'campaign'>, tenantId: string, channelId?: string): Promise<string[]> {
  const live = await tx.campaign.findMany({
    where: { tenantId, ...(channelId ? { channelId } : {}), deletedAt: null, desiredState: { in: ['running', 'scheduled'] } },
    select: { id: true },
  });
  const ids = live.map((c) => c.id);
  if (!ids.length) return ids;
  await tx.campaign.updateMany({ where: { id: { in: ids }, state: 'running' }, data: { desiredState: 'stopped' } });
  await tx.campaign.updateMany({
    where: { id: { in: ids }, state: { not: 'running' } },
    data: { desiredState: 'stopped', state: 'stopped' },
  });
  return ids;
}

/**
 * Moves a finished campaign to the final state its subscribers say, in one statement, only while
 * it is in one of the `finalStates` and no run holds it: 'sent' while some accepted message has no
 * final receipt yet or some send's outcome is unknown and the run ended after `waitFrom`; else
 * 'completed_with_engagement' when a subscriber replied; else 'completed'. Whether it changed.
 */
export async function settleFinishedCampaign(
  db: Pick<Tx, '$queryRaw'>,
  campaignId: string,
  waitFrom: Date,
  finalStates: readonly string[],
): Promise<boolean> {
  const FINAL = finalStates;
  const changed = await db.$queryRaw<{ id: string }[]>`
    WITH next AS (
      SELECT CASE
        WHEN c."finishedAt" > ${waitFrom} AND EXISTS (SELECT 1 FROM "CampaignSubscriber" s WHERE s."campaignId" = c.id
               AND (s.state = 'unknown' OR (s.state = 'sent' AND COALESCE(s.delivery, 'sent') = 'sent'))) THEN 'sent'
        WHEN EXISTS (SELECT 1 FROM "CampaignSubscriber" s WHERE s."campaignId" = c.id AND s.state = 'completed') THEN 'completed_with_engagement'
        ELSE 'completed' END AS state
      FROM "Campaign" c WHERE c.id = ${campaignId}::uuid)
    UPDATE "Campaign" c SET state = next.state, "desiredState" = next.state, "updatedAt" = now()
    FROM next
    WHERE c.id = ${campaignId}::uuid AND c.state = ANY(${FINAL}::text[]) AND c."desiredState" = c.state AND c."dispatchOwner" IS NULL AND c.state <> next.state
    RETURNING c.id`;
  return changed.length > 0;
}
