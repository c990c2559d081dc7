import type { Contact, Prisma } from '../generated/prisma/client';

type Tx = Prisma.TransactionClient;
type Client = Pick<Tx, 'contact'>;

/** A contact's editable fields (undefined: unchanged, null: cleared). */
export interface ContactChanges {
  name?: string | undefined;
  organization?: string | undefined;
  phone2?: string | null | undefined;
  govId?: string | null | undefined;
  email?: string | null | undefined;
  customerId?: number | null | undefined;
  zipCode?: string | null | undefined;
  address1?: string | null | undefined;
  address2?: string | null | undefined;
  city?: string | null | undefined;
  state?: string | null | undefined;
  country?: string | null | undefined;
  notes?: string | null | undefined;
  fields?: Record<string, string> | undefined;
  livechatCustomFields?: Record<string, string> | undefined;
}

/** Whether another live contact of the tenant has this phone number. */
export async function contactPhoneTaken(db: Client, tenantId: string, phone: string, exceptId?: string): Promise<boolean> {
  const taken = await db.contact.findFirst({
    where: { tenantId, phoneNumber: phone, deletedAt: null, ...(exceptId ? { NOT: { id: exceptId } } : {}) },
    select: { id: true },
  });
  return taken !== null;
}

/** The tenant's live contact, or null. */
export function findLiveContact(db: Client, tenantId: string, id: string): Promise<Contact | null> {
  return db.contact.findFirst({ where: { id, tenantId, deletedAt: null } });
}

/** Whether the tenant has this contact, removed or not. */
export async function contactExists(db: Client, tenantId: string, id: string): Promise<boolean> {
  return (await db.contact.findFirst({ where: { id, tenantId }, select: { id: true } })) !== null;
}

export function insertContact(
  db: Client,
  tenantId: string,
  contact: ContactChanges & { name: string; organization: string; phoneNumber: string },
): Promise<Contact> {
  return db.contact.create({ data: { ...contact, tenantId } });
}

export async function updateContactFields(db: Client, tenantId: string, id: string, changes: ContactChanges): Promise<void> {
  await db.contact.update({ where: { id, tenantId }, data: changes });
}

/** Removes a contact (softly: their history stays) and the channel identities that pointed to them. */
export async function softDeleteContact(db: Pick<Tx, 'contact' | 'contactIdentity'>, tenantId: string, id: string): Promise<void> {
  await db.contact.update({ where: { id, tenantId }, data: { deletedAt: new Date() } });
  await db.contactIdentity.deleteMany({ where: { tenantId, contactId: id } });
}

/** A page of the tenant's live contacts by name (none read when `take` is 0), by name (contains), phone digits (contains) or exact phone; and how many in all. */
export async function listContactPage(
  db: Client,
  tenantId: string,
  filter: { nameContains?: string | undefined; phoneContains?: string | undefined; phoneEquals?: string | undefined },
  page: { take: number; skip: number },
): Promise<{ rows: Contact[]; total: number }> {
  const where: Prisma.ContactWhereInput = {
    tenantId,
    deletedAt: null,
    ...(filter.nameContains ? { name: { contains: filter.nameContains, mode: 'insensitive' } } : {}),
    ...(filter.phoneContains ? { phoneNumber: { contains: filter.phoneContains } } : {}),
    ...(filter.phoneEquals ? { phoneNumber: filter.phoneEquals } : {}),
  };
  const [total, rows] = await Promise.all([
    db.contact.count({ where }),
    page.take === 0 ? [] : db.contact.findMany({ where, orderBy: [{ name: 'asc' }, { id: 'asc' }], take: page.take, skip: page.skip }),
  ]);
  return { rows, total };
}

/** How many conversations each of these contacts has had (a contact with none is absent). */
export async function conversationCountsOfContacts(
  db: Pick<Tx, 'conversation'>,
  tenantId: string,
  contactIds: readonly string[],
): Promise<Map<string, number>> {
  if (contactIds.length === 0) return new Map();
  const counts = await db.conversation.groupBy({
    by: ['contactId'],
    where: { tenantId, contactId: { in: [...contactIds] } },
    _count: { _all: true },
  });
  return new Map(counts.map((c) => [c.contactId, c._count._all]));
}

/** How many conversations of the contact are not closed. */
export function countOpenConversationsOfContact(db: Pick<Tx, 'conversation'>, tenantId: string, contactId: string): Promise<number> {
  return db.conversation.count({ where: { tenantId, contactId, state: { not: 'closed' } } });
}

/** The config of every livechat channel of the tenant (removed ones too), newest first. */
export function livechatChannelConfigs(db: Pick<Tx, 'channel'>, tenantId: string): Promise<{ config: Prisma.JsonValue }[]> {
  return db.channel.findMany({ where: { tenantId, type: 'livechat' }, select: { config: true }, orderBy: { createdAt: 'desc' } });
}

/** The live DND lists holding these contacts, oldest entry first. */
export function dndListsOfContacts(
  db: Pick<Tx, 'dndContact'>,
  tenantId: string,
  contactIds: readonly string[],
): Promise<Prisma.DndContactGetPayload<{ include: { list: true } }>[]> {
  if (contactIds.length === 0) return Promise.resolve([]);
  return db.dndContact.findMany({
    where: { tenantId, contactId: { in: [...contactIds] }, list: { deletedAt: null } },
    include: { list: true },
    orderBy: { createdAt: 'asc' },
  });
}

/** A page of a contact's conversations (or the one `conversationId`) with their channel, newest first; and how many in all. */
export async function contactConversationPage(
  db: Pick<Tx, 'conversation'>,
  tenantId: string,
  contactId: string,
  conversationId: string | undefined,
  page: { take: number; skip: number },
): Promise<{ rows: Prisma.ConversationGetPayload<{ include: { channel: true } }>[]; total: number }> {
  const where: Prisma.ConversationWhereInput = { tenantId, contactId, ...(conversationId ? { id: conversationId } : {}) };
  const [total, rows] = await Promise.all([
    db.conversation.count({ where }),
    db.conversation.findMany({ where, include: { channel: true }, orderBy: { createdAt: 'desc' }, ...page }),
  ]);
  return { rows, total };
}

/** The names of these sectors and conversation reasons of the tenant (deleted ones too). */
export async function sectorAndReasonNames(
  db: Pick<Tx, 'sector' | 'conversationReason'>,
  tenantId: string,
  sectorIds: readonly string[],
  reasonIds: readonly string[],
): Promise<{ sectors: { id: string; name: string }[]; reasons: { id: string; name: string }[] }> {
  const sectors = await db.sector.findMany({ where: { tenantId, id: { in: [...sectorIds] } }, select: { id: true, name: true } });
  const reasons = await db.conversationReason.findMany({
    where: { tenantId, id: { in: [...reasonIds] } },
    select: { id: true, name: true },
  });
  return { sectors, reasons };
}
