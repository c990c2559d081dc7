import type { Prisma } from '../generated/prisma/client';

type Client = Pick<Prisma.TransactionClient, 'conversationReason'>;
export type ConversationReasonRow = Prisma.ConversationReasonGetPayload<object>;

/** The tenant's live conversation reason, or null. */
export function findConversationReason(db: Client, tenantId: string, id: string): Promise<ConversationReasonRow | null> {
  return db.conversationReason.findFirst({ where: { id, tenantId, deletedAt: null } });
}

/** Whether another live reason of the tenant has this name, case aside. */
export async function conversationReasonNameTaken(db: Client, tenantId: string, name: string, exceptId?: string): Promise<boolean> {
  const taken = await db.conversationReason.findFirst({
    where: { tenantId, deletedAt: null, name: { equals: name, mode: 'insensitive' }, ...(exceptId ? { NOT: { id: exceptId } } : {}) },
    select: { id: true },
  });
  return taken !== null;
}

export function insertConversationReason(db: Client, tenantId: string, name: string): Promise<ConversationReasonRow> {
  return db.conversationReason.create({ data: { tenantId, name } });
}

export function renameConversationReason(db: Client, tenantId: string, id: string, name: string): Promise<ConversationReasonRow> {
  return db.conversationReason.update({ where: { id, tenantId }, data: { name } });
}

/** Deletes (softly): conversations finished with it keep pointing at it. */
export async function softDeleteConversationReason(db: Client, tenantId: string, id: string): Promise<void> {
  await db.conversationReason.update({ where: { id, tenantId }, data: { deletedAt: new Date() } });
}
