import type { Prisma, PrismaClient } from '../generated/prisma/client';
import type { WorkspaceScope } from './workspace';

type Client = Pick<Prisma.TransactionClient, 'cannedResponse' | 'cannedResponseCategory' | 'storedFile'>;

export type CannedResponseRow = Prisma.CannedResponseGetPayload<object>;
export type CannedCategoryRow = Prisma.CannedResponseCategoryGetPayload<object>;

const live = (ws: WorkspaceScope) => ({ tenantId: ws.tenantId, workspaceId: ws.workspaceId, deletedAt: null });

// --- categories ---

/** The workspace's live categories by name. */
export function listCannedCategoryRows(db: Client, ws: WorkspaceScope): Promise<CannedCategoryRow[]> {
  return db.cannedResponseCategory.findMany({ where: live(ws), orderBy: [{ name: 'asc' }, { id: 'asc' }] });
}

/** The workspace's live category, or null. */
export function findCannedCategory(db: Client, ws: WorkspaceScope, id: string): Promise<CannedCategoryRow | null> {
  return db.cannedResponseCategory.findFirst({ where: { ...live(ws), id } });
}

/** Whether another live category of the workspace has this name, case aside. */
export async function cannedCategoryNameTaken(db: Client, ws: WorkspaceScope, name: string, exceptId?: string): Promise<boolean> {
  const taken = await db.cannedResponseCategory.findFirst({
    where: { ...live(ws), name: { equals: name, mode: 'insensitive' }, ...(exceptId ? { NOT: { id: exceptId } } : {}) },
    select: { id: true },
  });
  return taken !== null;
}

export function insertCannedCategory(
  db: Client,
  ws: WorkspaceScope,
  c: { name: string; description: string | null },
): Promise<CannedCategoryRow> {
  return db.cannedResponseCategory.create({
    data: { tenantId: ws.tenantId, workspaceId: ws.workspaceId, name: c.name, description: c.description },
  });
}

/** Changes the given fields (undefined: unchanged). */
export function updateCannedCategoryFields(
  db: Client,
  tenantId: string,
  id: string,
  c: { name?: string | undefined; description?: string | null | undefined },
): Promise<CannedCategoryRow> {
  return db.cannedResponseCategory.update({ where: { id, tenantId }, data: { name: c.name, description: c.description } });
}

/** Deletes (softly) the category; its responses keep going, without a category. */
export async function softDeleteCannedCategory(
  db: Pick<PrismaClient, '$transaction' | 'cannedResponse' | 'cannedResponseCategory'>,
  tenantId: string,
  id: string,
): Promise<void> {
  await db.$transaction([
    db.cannedResponse.updateMany({ where: { tenantId, categoryId: id }, data: { categoryId: null } }),
    db.cannedResponseCategory.update({ where: { id, tenantId }, data: { deletedAt: new Date() } }),
  ]);
}

/** The live categories of the tenant among these ids. */
export function liveCannedCategoriesByIds(db: Client, tenantId: string, ids: readonly string[]): Promise<CannedCategoryRow[]> {
  return db.cannedResponseCategory.findMany({ where: { tenantId, id: { in: [...ids] }, deletedAt: null } });
}

// --- responses ---

/** The workspace's live canned response, or null. */
export function findCannedResponse(db: Client, ws: WorkspaceScope, id: string): Promise<CannedResponseRow | null> {
  return db.cannedResponse.findFirst({ where: { ...live(ws), id } });
}

/** Whether another live canned response of the workspace has this keyword, case aside. */
export async function cannedKeywordTaken(db: Client, ws: WorkspaceScope, keyword: string, exceptId?: string): Promise<boolean> {
  const taken = await db.cannedResponse.findFirst({
    where: { ...live(ws), keyword: { equals: keyword, mode: 'insensitive' }, ...(exceptId ? { NOT: { id: exceptId } } : {}) },
    select: { id: true },
  });
  return taken !== null;
}

/** A page of the workspace's live canned responses by keyword, optionally with a keyword containing a text or of a category; and how many in all. */
export async function listCannedResponsePage(
  db: Client,
  ws: WorkspaceScope,
  filter: { keywordContains?: string | undefined; categoryId?: string | undefined },
  page: { skip: number; take: number },
): Promise<{ rows: CannedResponseRow[]; total: number }> {
  const where: Prisma.CannedResponseWhereInput = {
    ...live(ws),
    ...(filter.keywordContains ? { keyword: { contains: filter.keywordContains, mode: 'insensitive' as const } } : {}),
    ...(filter.categoryId ? { categoryId: filter.categoryId } : {}),
  };
  const [rows, total] = await Promise.all([
    db.cannedResponse.findMany({ where, orderBy: [{ keyword: 'asc' }, { id: 'asc' }], ...page }),
    db.cannedResponse.count({ where }),
  ]);
  return { rows, total };
}

/** The live canned responses of a workspace by keyword; with a sector, only those for every sector or for it. */
export function cannedResponsesForSector(db: Client, ws: WorkspaceScope, sectorId: string | undefined): Promise<CannedResponseRow[]> {
  return db.cannedResponse.findMany({
    where: { ...live(ws), ...(sectorId ? { OR: [{ sectorIds: { isEmpty: true } }, { sectorIds: { has: sectorId } }] } : {}) },
    orderBy: { keyword: 'asc' },
  });
}

export interface CannedReferences {
  categoryId?: string | null;
  annexId?: string | null;
  sectorIds?: string[];
}

export function insertCannedResponse(
  db: Client,
  ws: WorkspaceScope,
  c: { keyword: string; message: string } & CannedReferences,
): Promise<CannedResponseRow> {
  return db.cannedResponse.create({ data: { tenantId: ws.tenantId, workspaceId: ws.workspaceId, ...c } });
}

/** Changes the given fields (undefined: unchanged). */
export function updateCannedResponseFields(
  db: Client,
  tenantId: string,
  id: string,
  c: { keyword?: string | undefined; message?: string | undefined } & CannedReferences,
): Promise<CannedResponseRow> {
  return db.cannedResponse.update({ where: { id, tenantId }, data: c });
}

export async function softDeleteCannedResponse(db: Client, tenantId: string, id: string): Promise<void> {
  await db.cannedResponse.update({ where: { id, tenantId }, data: { deletedAt: new Date() } });
}

/** The stored files of the tenant among these ids. */
export function storedFilesByIds(db: Client, tenantId: string, ids: readonly string[]): Promise<Prisma.StoredFileGetPayload<object>[]> {
  return db.storedFile.findMany({ where: { tenantId, id: { in: [...ids] } } });
}

/** Whether the tenant has this stored file. */
export async function isStoredFileOfTenant(db: Client, tenantId: string, id: string): Promise<boolean> {
  return (await db.storedFile.findFirst({ where: { id, tenantId }, select: { id: true } })) !== null;
}

/**
 * The canned responses the composer offers in a live channel of the tenant: its workspace's, for
 * every sector or for `sectorId` when given; null when there is no such channel.
 */
export async function cannedResponsesOfChannel(
  db: Client & Pick<Prisma.TransactionClient, 'channel'>,
  tenantId: string,
  channelId: string,
  sectorId: string | undefined,
): Promise<CannedResponseRow[] | null> {
  const channel = await db.channel.findFirst({ where: { id: channelId, tenantId, deletedAt: null }, select: { workspaceId: true } });
  if (!channel) return null;
  return cannedResponsesForSector(db, { tenantId, workspaceId: channel.workspaceId }, sectorId);
}
