import type { Prisma } from '../generated/prisma/client';
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

/** Delivery failed for good: the message shows failed with `reason` (the agent may retry it). */
export async function markMessageFailed(
  db: ScopedDb,
  messageId: string,
  reason: string,
  options: { permanent: boolean } = { permanent: false },
): Promise<void> {
  // Whether the failure is final is kept beside the message's delivery receipts (its interactive part).
  const row = await db.message.findFirst({ where: { id: messageId }, select: { interactiveContent: true } });
  const stored = row?.interactiveContent;
  const base = typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? stored : {};
  await db.message.updateMany({
    where: { id: messageId, state: 'pending' },
    data: { status: 'failed', errorMessage: reason, interactiveContent: { ...base, failure: { permanent: options.permanent } } },
  });
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

/** The provider's latest delivery news for a message (sent or read), kept with its interactive part. */
export async function storeDeliveryStatus(
  db: ScopedDb,
  messageId: string,
  state: 'sent' | 'read',
  interactiveContent: Prisma.InputJsonObject,
): Promise<void> {
  await db.message.updateMany({ where: { id: messageId }, data: { state, status: null, errorMessage: null, interactiveContent } });
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
