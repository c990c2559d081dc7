import type { Db } from './client';
import type { DndList, Prisma } from '../generated/prisma/client';
import type { CampaignPage } from './campaigns';

type Tx = Prisma.TransactionClient;

/** A do-not-disturb list as its screens show it. */
export interface DndListSummary {
  id: string;
  name: string;
  isDefault: boolean;
  contactCount: number;
}

const withCount = { _count: { select: { contacts: true } } } as const;
const summary = (r: { id: string; name: string; isDefault: boolean; _count: { contacts: number } }): DndListSummary => ({
  id: r.id,
  name: r.name,
  isDefault: r.isDefault,
  contactCount: r._count.contacts,
});

/** A live DND list of the tenant; null when there is none. */
export function findLiveDndList(db: Pick<Tx, 'dndList'>, tenantId: string, id: string): Promise<DndList | null> {
  return db.dndList.findFirst({ where: { id, tenantId, deletedAt: null } });
}

/** The live DND lists of the tenant among these ids. */
export function liveDndListsAmong(db: Pick<Tx, 'dndList'>, tenantId: string, ids: string[]): Promise<DndList[]> {
  return db.dndList.findMany({ where: { id: { in: ids }, tenantId, deletedAt: null } });
}

/** How many of these ids are live DND lists of the tenant. */
export function countLiveDndLists(db: Pick<Tx, 'dndList'>, tenantId: string, ids: string[]): Promise<number> {
  return db.dndList.count({ where: { id: { in: ids }, tenantId, deletedAt: null } });
}

/** A page of the tenant's live DND lists by name (part of it, any case), and how many there are. */
export async function listDndListsPage(
  db: Pick<Tx, 'dndList'>,
  tenantId: string,
  filter: { name?: string | undefined },
  page: CampaignPage,
): Promise<{ rows: DndListSummary[]; total: number }> {
  const where: Prisma.DndListWhereInput = {
    tenantId,
    deletedAt: null,
    ...(filter.name ? { name: { contains: filter.name, mode: 'insensitive' as const } } : {}),
  };
  const [rows, total] = await Promise.all([
    db.dndList.findMany({ where, orderBy: [{ name: 'asc' }, { id: 'asc' }], include: withCount, skip: page.skip, take: page.take }),
    db.dndList.count({ where }),
  ]);
  return { rows: rows.map(summary), total };
}

export function insertDndList(db: Pick<Tx, 'dndList'>, tenantId: string, name: string): Promise<DndList> {
  return db.dndList.create({ data: { tenantId, name } });
}

export async function updateDndList(
  db: Pick<Tx, 'dndList'>,
  id: string,
  changes: { name?: string | undefined; isDefault?: boolean | undefined },
): Promise<DndListSummary> {
  return summary(
    await db.dndList.update({ where: { id }, data: { name: changes.name, isDefault: changes.isDefault }, include: withCount }),
  );
}

/** How many live campaigns running, or asked to run, consult the list. */
export function countRunningCampaignsUsingDndList(db: Pick<Tx, 'campaignDndList'>, dndListId: string): Promise<number> {
  return db.campaignDndList.count({
    where: { dndListId, campaign: { deletedAt: null, OR: [{ state: 'running' }, { desiredState: 'running' }] } },
  });
}

/** Deletes a list (kept as a row) and takes it off every campaign, together. */
export async function deleteDndList(db: Db, id: string): Promise<void> {
  await db.$transaction([
    db.campaignDndList.deleteMany({ where: { dndListId: id } }),
    db.dndList.update({ where: { id }, data: { deletedAt: new Date() } }),
  ]);
}

/** A page of a list's live contacts, newest first, by name (part, any case) and number (digits in it). */
export async function listDndContactsPage(
  db: Pick<Tx, 'dndContact'>,
  dndListId: string,
  filter: { name?: string | undefined; digits?: string | undefined },
  page: CampaignPage,
): Promise<{ rows: { contactId: string; name: string; phoneNumber: string | null }[]; total: number }> {
  const where: Prisma.DndContactWhereInput = {
    dndListId,
    contact: {
      deletedAt: null,
      ...(filter.name ? { name: { contains: filter.name, mode: 'insensitive' as const } } : {}),
      ...(filter.digits ? { phoneNumber: { contains: filter.digits } } : {}),
    },
  };
  const [rows, total] = await Promise.all([
    db.dndContact.findMany({
      where,
      include: { contact: true },
      orderBy: [{ createdAt: 'desc' }, { contactId: 'asc' }],
      skip: page.skip,
      take: page.take,
    }),
    db.dndContact.count({ where }),
  ]);
  return { rows: rows.map((r) => ({ contactId: r.contact.id, name: r.contact.name, phoneNumber: r.contact.phoneNumber })), total };
}

/** Takes a contact off a list; whether it was on it. */
export async function removeDndContact(db: Pick<Tx, 'dndContact'>, dndListId: string, contactId: string): Promise<boolean> {
  return (await db.dndContact.deleteMany({ where: { dndListId, contactId } })).count > 0;
}

/** A live contact of the tenant, its id and name; null when there is none. */
export function liveContactForDnd(db: Pick<Tx, 'contact'>, tenantId: string, id: string): Promise<{ id: string; name: string } | null> {
  return db.contact.findFirst({ where: { id, tenantId, deletedAt: null }, select: { id: true, name: true } });
}

/** Puts a contact on these lists (those it is on already stay as they are). */
export async function addContactToDndLists(
  db: Pick<Tx, 'dndContact'>,
  tenantId: string,
  contactId: string,
  dndListIds: string[],
): Promise<void> {
  await db.dndContact.createMany({ data: dndListIds.map((dndListId) => ({ dndListId, contactId, tenantId })), skipDuplicates: true });
}

/** The live lists a contact is on, in the order it was put on them. */
export async function contactDndLists(db: Pick<Tx, 'dndContact'>, contactId: string): Promise<{ id: string; name: string }[]> {
  const rows = await db.dndContact.findMany({
    where: { contactId, list: { deletedAt: null } },
    include: { list: true },
    orderBy: { createdAt: 'asc' },
  });
  return rows.map((d) => ({ id: d.list.id, name: d.list.name }));
}

/** How many of the contacts with one of these numbers are on a live DND list of the campaign. */
export function countCampaignDndMatches(
  db: Pick<Tx, 'dndContact'>,
  tenantId: string,
  campaignId: string,
  phoneNumbers: string[],
): Promise<number> {
  return db.dndContact.count({
    where: {
      tenantId,
      list: { deletedAt: null, campaigns: { some: { campaignId } } },
      contact: { deletedAt: null, phoneNumber: { in: phoneNumbers } },
    },
  });
}
