import type { Prisma } from '../generated/prisma/client';

type Client = Pick<Prisma.TransactionClient, 'conversation' | 'conversationFieldDefinition' | 'conversationFieldValue'>;

export type ConversationFieldDefinitionRow = Prisma.ConversationFieldDefinitionGetPayload<object>;

/** The tenant's conversation with what deciding who may read or change its fields needs, or null. */
export function conversationForFields(
  db: Client,
  tenantId: string,
  id: string,
): Promise<Prisma.ConversationGetPayload<{ select: { id: true; userId: true; contactId: true; state: true } }> | null> {
  return db.conversation.findFirst({ where: { id, tenantId }, select: { id: true, userId: true, contactId: true, state: true } });
}

/** A conversation's field values with their field, by field name. */
export function conversationFieldValues(
  db: Client,
  tenantId: string,
  conversationId: string,
): Promise<Prisma.ConversationFieldValueGetPayload<{ include: { field: true } }>[]> {
  return db.conversationFieldValue.findMany({
    where: { conversationId, tenantId },
    include: { field: true },
    orderBy: { field: { name: 'asc' } },
  });
}

/** The tenant's live field definitions by name. */
export function listConversationFieldDefinitionRows(db: Client, tenantId: string): Promise<ConversationFieldDefinitionRow[]> {
  return db.conversationFieldDefinition.findMany({ where: { tenantId, deletedAt: null }, orderBy: { name: 'asc' } });
}

/** Whether a live field definition of the tenant has this name, case aside. */
export async function conversationFieldNameTaken(db: Client, tenantId: string, name: string): Promise<boolean> {
  return (
    (await db.conversationFieldDefinition.findFirst({
      where: { tenantId, name: { equals: name, mode: 'insensitive' }, deletedAt: null },
      select: { id: true },
    })) !== null
  );
}

export function insertConversationFieldDefinition(db: Client, tenantId: string, name: string): Promise<ConversationFieldDefinitionRow> {
  return db.conversationFieldDefinition.create({ data: { name, tenantId } });
}

/** The tenant's live field definition, or null. */
export function findConversationFieldDefinition(db: Client, tenantId: string, id: string): Promise<ConversationFieldDefinitionRow | null> {
  return db.conversationFieldDefinition.findFirst({ where: { id, tenantId, deletedAt: null } });
}

/** Sets a conversation's value of a field (creating it the first time). */
export async function setConversationFieldValue(
  db: Client,
  tenantId: string,
  conversationId: string,
  fieldId: string,
  value: string,
): Promise<void> {
  await db.conversationFieldValue.upsert({
    where: { conversationId_fieldId: { conversationId, fieldId } },
    create: { conversationId, fieldId, tenantId, value },
    update: { value },
  });
}
