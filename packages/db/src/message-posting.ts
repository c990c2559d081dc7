import { Prisma } from '../generated/prisma/client';
import type { Db } from './client';
import type { ScopedDb } from './scoped';

/**
 * At most once for agent messages: a message is claimed for posting by writing `postedAt` before
 * the request; only a pending message not failed and not yet begun is claimed. Whether it was.
 */
export async function claimMessageForPosting(db: ScopedDb, messageId: string): Promise<boolean> {
  const claimed = await db.message.updateMany({
    where: { id: messageId, state: 'pending', OR: [{ status: null }, { status: 'sending' }], postedAt: null },
    data: { status: 'sending', postedAt: new Date() },
  });
  return claimed.count > 0;
}

/** The provider provably took nothing: a later attempt may post the message again. */
export async function releaseMessagePosting(db: ScopedDb, messageId: string): Promise<void> {
  await db.message.updateMany({ where: { id: messageId, state: 'pending' }, data: { postedAt: null } });
}

/** A message whose posting began but whose outcome was never learnt becomes failed with `reason`. Whether it changed. */
export async function failPostingWithUnknownOutcome(db: ScopedDb, messageId: string, reason: string): Promise<boolean> {
  const marked = await db.message.updateMany({
    where: { id: messageId, state: 'pending', postedAt: { not: null }, OR: [{ status: null }, { status: 'sending' }] },
    data: { status: 'failed', errorMessage: reason },
  });
  return marked.count > 0;
}

/** An agent message with what delivering it needs: its conversation, the contact and the channel. */
export async function messageForDelivery(db: ScopedDb, messageId: string) {
  return db.message.findFirst({
    where: { id: messageId },
    include: { conversation: { include: { contact: true, channel: true } } },
  });
}
export type MessageForDelivery = NonNullable<Awaited<ReturnType<typeof messageForDelivery>>>;

/** The provider took the message: sent, with the provider's id. Only a still-pending message changes. */
export async function markMessageSent(db: ScopedDb, messageId: string, externalId: string | null): Promise<void> {
  await db.message.updateMany({
    where: { id: messageId, state: 'pending' },
    data: { state: 'sent', status: null, externalId, errorMessage: null },
  });
}

/** A message's interactive part as a JSON object to merge into (a missing or non-object part counts as `{}`). */
const interactiveObject = Prisma.sql`COALESCE(CASE WHEN jsonb_typeof("interactiveContent") = 'object' THEN "interactiveContent" END, '{}'::jsonb)`;

/**
 * Delivery failed for good: the message shows failed with `reason` (the agent may retry it unless
 * `permanent`). Whether the failure is final is merged into the message's interactive part in the same
 * statement, so a delivery receipt written meanwhile is kept.
 */
export async function markMessageFailed(
  db: Db | ScopedDb,
  tenantId: string,
  messageId: string,
  reason: string,
  options: { permanent: boolean } = { permanent: false },
): Promise<void> {
  await db.$executeRaw`
    UPDATE "Message" SET status = 'failed', "errorMessage" = ${reason}, "updatedAt" = now(),
      "interactiveContent" = ${interactiveObject} || jsonb_build_object('failure', jsonb_build_object('permanent', ${options.permanent}::boolean))
    WHERE id = ${messageId}::uuid AND "tenantId" = ${tenantId}::uuid AND state = 'pending'`;
}

/** The uuid of the agent a conversation is assigned to now, if any. */
export async function assignedAgentUuid(db: ScopedDb, conversationId: string): Promise<string | null> {
  const conversation = await db.conversation.findFirst({ where: { id: conversationId }, select: { userId: true } });
  if (!conversation?.userId) return null;
  return (await db.user.findFirst({ where: { id: conversation.userId }, select: { uuid: true } }))?.uuid ?? null;
}

/** Our message (an agent's or the desk's) on a channel by the provider's id for it, as a status report names it. */
export async function outboundMessageByExternalId(db: ScopedDb, channelId: string, externalId: string) {
  return db.message.findFirst({
    where: { externalId, author: { not: 'CONTACT' }, conversation: { channelId } },
    select: { id: true, conversationId: true, state: true, status: true, interactiveContent: true },
  });
}

/** The provider reported a message undeliverable: failed with `reason`, unless it was read already. */
export async function markFailedByProvider(db: ScopedDb, messageId: string, reason: string): Promise<void> {
  await db.message.updateMany({ where: { id: messageId, state: { not: 'read' } }, data: { status: 'failed', errorMessage: reason } });
}

/** The order delivery news moves in, in SQL: a late 'delivered' never undoes 'read'. */
const deliveryRank = (value: Prisma.Sql) =>
  Prisma.sql`CASE ${value} WHEN 'sent' THEN 1 WHEN 'delivered' THEN 2 WHEN 'read' THEN 3 ELSE 0 END`;

/**
 * The provider's delivery news for our message (sent, delivered or read), kept as `delivery` in its
 * interactive part, only when it moves the message forward: checked and written in one statement, so
 * two receipts handled at once cannot move it backwards. Whether it changed.
 */
export async function storeDeliveryStatus(
  db: Db | ScopedDb,
  tenantId: string,
  messageId: string,
  delivery: 'sent' | 'delivered' | 'read',
): Promise<boolean> {
  const state = delivery === 'read' ? 'read' : 'sent';
  const changed = await db.$executeRaw`
    UPDATE "Message" SET state = ${state}::"MessageState", status = NULL, "errorMessage" = NULL, "updatedAt" = now(),
      "interactiveContent" = ${interactiveObject} || jsonb_build_object('delivery', ${delivery}::text)
    WHERE id = ${messageId}::uuid AND "tenantId" = ${tenantId}::uuid
      AND ${deliveryRank(Prisma.sql`"interactiveContent"->>'delivery'`)} < ${deliveryRank(Prisma.sql`${delivery}::text`)}`;
  return changed > 0;
}

/** Our sent messages to a contact on a channel, up to `at`, newest first, at most `limit` (a read watermark's scope). */
export async function sentMessagesToContactUpTo(
  db: ScopedDb,
  channelId: string,
  contactId: string,
  at: Date,
  limit: number,
): Promise<{ externalId: string | null }[]> {
  return db.message.findMany({
    where: {
      author: { not: 'CONTACT' },
      state: 'sent',
      externalId: { not: null },
      createdAt: { lte: at },
      conversation: { channelId, contactId },
    },
    orderBy: { createdAt: 'desc' },
    take: limit,
    select: { externalId: true },
  });
}

/** The contact an identity on a channel belongs to, if known. */
export async function contactIdOfIdentity(db: ScopedDb | Db, channelId: string, identifier: string): Promise<string | null> {
  return (await db.contactIdentity.findFirst({ where: { channelId, identifier }, select: { contactId: true } }))?.contactId ?? null;
}

/** Whether a message with this id exists (a provider's redelivery of one already stored). */
export async function messageExists(db: Db, messageId: string): Promise<boolean> {
  return (await db.message.count({ where: { id: messageId } })) > 0;
}

/** The conversation's earlier messages that have a provider id (e-mail threading), newest first, at most `limit`. */
export async function earlierProviderMessages(db: ScopedDb, m: { id: string; conversationId: string; createdAt: Date }, limit: number) {
  return db.message.findMany({
    where: { conversationId: m.conversationId, externalId: { not: null }, id: { not: m.id }, createdAt: { lte: m.createdAt } },
    orderBy: { createdAt: 'desc' },
    take: limit,
    select: { externalId: true, interactiveContent: true },
  });
}

/** A message of the tenant by id, with its provider id and details (what an e-mail reply answers), or null. */
export async function providerMessageById(db: ScopedDb, id: string) {
  return db.message.findFirst({ where: { id }, select: { externalId: true, interactiveContent: true, conversationId: true } });
}

/** A stored file of the message's tenant (the scoped client adds it), or null. */
export async function annexFile(db: ScopedDb, fileId: string) {
  return db.storedFile.findFirst({ where: { id: fileId } });
}

/** The contact's identifier on the channel (where a message to them is addressed). */
export async function contactIdentifierOn(db: ScopedDb, channelId: string, contactId: string): Promise<{ identifier: string } | null> {
  return db.contactIdentity.findFirst({ where: { channelId, contactId }, select: { identifier: true } });
}

/** When the contact last wrote on the channel (any of their conversations there), if ever. */
export async function lastContactMessageOn(db: ScopedDb, channelId: string, contactId: string): Promise<{ createdAt: Date } | null> {
  return db.message.findFirst({
    where: { author: 'CONTACT', conversation: { channelId, contactId } },
    orderBy: { createdAt: 'desc' },
    select: { createdAt: true },
  });
}
