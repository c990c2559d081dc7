import type { Prisma, PrismaClient } from '../generated/prisma/client';

/** The sector's id when it exists in the tenant and is not deleted; null otherwise (or for no sector). */
export async function liveSectorId(
  db: Pick<Prisma.TransactionClient, 'sector'>,
  tenantId: string,
  sectorId: string | null | undefined,
): Promise<string | null> {
  if (!sectorId) return null;
  return (await db.sector.findFirst({ where: { id: sectorId, tenantId, deletedAt: null }, select: { id: true } }))?.id ?? null;
}

type SectorClient = Pick<Prisma.TransactionClient, 'sector'>;
export type SectorRow = Prisma.SectorGetPayload<object>;
const liveIn = (ws: { tenantId: string; workspaceId: string }) => ({ tenantId: ws.tenantId, workspaceId: ws.workspaceId, deletedAt: null });

export interface SectorFields {
  name: string;
  slaFirstResponseSeconds: number | null;
  slaSessionSeconds: number | null;
  ticketAnnounce: boolean;
  ticketMessage: string | null;
}

/** The workspace's live sector, or null. */
export function findSector(db: SectorClient, ws: { tenantId: string; workspaceId: string }, id: string): Promise<SectorRow | null> {
  return db.sector.findFirst({ where: { ...liveIn(ws), id } });
}

/** Whether another live sector of the workspace has this name, case aside. */
export async function sectorNameTaken(
  db: SectorClient,
  ws: { tenantId: string; workspaceId: string },
  name: string,
  exceptId?: string,
): Promise<boolean> {
  const taken = await db.sector.findFirst({
    where: { ...liveIn(ws), name: { equals: name, mode: 'insensitive' }, ...(exceptId ? { NOT: { id: exceptId } } : {}) },
    select: { id: true },
  });
  return taken !== null;
}

/** A page of the workspace's live sectors by name, optionally with a name containing a text; and how many in all. */
export async function listSectorPage(
  db: SectorClient,
  ws: { tenantId: string; workspaceId: string },
  filter: { nameContains?: string | undefined },
  page: { skip: number; take: number },
): Promise<{ rows: SectorRow[]; total: number }> {
  const where: Prisma.SectorWhereInput = {
    ...liveIn(ws),
    ...(filter.nameContains ? { name: { contains: filter.nameContains, mode: 'insensitive' as const } } : {}),
  };
  const [rows, total] = await Promise.all([
    db.sector.findMany({ where, orderBy: [{ name: 'asc' }, { id: 'asc' }], ...page }),
    db.sector.count({ where }),
  ]);
  return { rows, total };
}

export function insertSector(db: SectorClient, ws: { tenantId: string; workspaceId: string }, fields: SectorFields): Promise<SectorRow> {
  return db.sector.create({ data: { tenantId: ws.tenantId, workspaceId: ws.workspaceId, ...fields } });
}

/** Changes the given fields (undefined: unchanged). */
export function updateSectorFields(
  db: SectorClient,
  tenantId: string,
  id: string,
  fields: { [K in keyof SectorFields]?: SectorFields[K] | undefined },
): Promise<SectorRow> {
  return db.sector.update({ where: { id, tenantId }, data: fields });
}

/** What still leads into a sector: live channels and campaigns entering it, its conversations not closed. */
export async function sectorDependents(
  db: Pick<Prisma.TransactionClient, 'channel' | 'campaign' | 'conversation'>,
  tenantId: string,
  sectorId: string,
): Promise<{ channels: number; campaigns: number; openConversations: number }> {
  const channels = await db.channel.count({ where: { tenantId, entrySectorId: sectorId, deletedAt: null } });
  const campaigns = await db.campaign.count({ where: { tenantId, entrySectorId: sectorId, deletedAt: null } });
  const openConversations = await db.conversation.count({ where: { tenantId, sectorId, state: { not: 'closed' } } });
  return { channels, campaigns, openConversations };
}

/** Deletes (softly) the sector; its agents simply stop belonging to it, their other sectors untouched. */
export async function softDeleteSector(
  db: Pick<PrismaClient, '$transaction' | 'sector' | 'userSector'>,
  tenantId: string,
  id: string,
): Promise<void> {
  await db.$transaction([
    db.sector.update({ where: { id, tenantId }, data: { deletedAt: new Date() } }),
    db.userSector.deleteMany({ where: { tenantId, sectorId: id } }),
  ]);
}

/** How a live sector announces the tickets entering its queue (name, flag and message), if it exists. */
export function sectorTicketSettings(db: Pick<Prisma.TransactionClient, 'sector'>, tenantId: string, sectorId: string) {
  return db.sector.findFirst({
    where: { id: sectorId, tenantId, deletedAt: null },
    select: { name: true, ticketAnnounce: true, ticketMessage: true },
  });
}

/** A sector's id and name: `live` only finds sectors of the tenant that are not deleted. */
export function sectorRef(
  db: Pick<Prisma.TransactionClient, 'sector'>,
  tenantId: string,
  sectorId: string,
  live: boolean,
): Promise<{ id: string; name: string } | null> {
  return db.sector.findFirst({ where: { id: sectorId, tenantId, ...(live ? { deletedAt: null } : {}) }, select: { id: true, name: true } });
}
