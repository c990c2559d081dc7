import { queues } from '@atende/contract';
import { Prisma } from '../generated/prisma/client';
import { enqueue, enqueueSql } from './outbox';

type Tx = Prisma.TransactionClient;
type Client = Pick<Tx, 'message'>;

export type MessageRow = Prisma.MessageGetPayload<object>;
export type MessageAuthorRef = { id: number; uuid: string; username: string };

/** The stored files and the users the given messages point at (attachments, agent authors). */
export async function messageAnnexesAndAuthors(
  db: Pick<Tx, 'storedFile' | 'user'>,
  annexIds: readonly string[],
  userIds: readonly number[],
): Promise<{ annexes: Prisma.StoredFileGetPayload<object>[]; users: MessageAuthorRef[] }> {
  const [annexes, users] = await Promise.all([
    annexIds.length ? db.storedFile.findMany({ where: { id: { in: [...annexIds] } } }) : [],
    userIds.length ? db.user.findMany({ where: { id: { in: [...userIds] } }, select: { id: true, uuid: true, username: true } }) : [],
  ]);
  return { annexes, users };
}

/** The tenant's message, or null. */
export function findMessage(db: Client, tenantId: string, messageId: string): Promise<MessageRow | null> {
  return db.message.findFirst({ where: { id: messageId, tenantId } });
}

/** A message by id, of any tenant; throws when it does not exist. */
export function messageById(db: Client, messageId: string): Promise<MessageRow> {
  return db.message.findUniqueOrThrow({ where: { id: messageId } });
}

/** When a message of the conversation was written, or null when the conversation has no such message. */
export async function messageCreatedAt(db: Client, tenantId: string, conversationId: string, messageId: string): Promise<Date | null> {
  const anchor = await db.message.findFirst({ where: { id: messageId, conversationId, tenantId }, select: { createdAt: true } });
  return anchor?.createdAt ?? null;
}

/** How many messages of the conversation were written from `from` on (and before `before`, if given). */
export function countMessagesSince(db: Client, tenantId: string, conversationId: string, from: Date, before?: Date): Promise<number> {
  return db.message.count({ where: { conversationId, tenantId, createdAt: { gte: from, ...(before ? { lt: before } : {}) } } });
}

/** The conversation's newest `take` messages (written before `before`, if given), newest first. */
export function newestMessages(db: Client, tenantId: string, conversationId: string, take: number, before?: Date): Promise<MessageRow[]> {
  return db.message.findMany({
    where: { conversationId, tenantId, ...(before ? { createdAt: { lt: before } } : {}) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take,
  });
}

export type AgentMessageTarget = {
  userId: number | null;
  state: string;
  channelType: string;
  holder: string | null;
  author: string | null;
  existing: boolean;
};

/**
 * Locks the tenant's conversation an agent writes in and reads, in one query, what the checks and
 * the announcement need: its agent, its state (`state::text`, the database label such as
 * 'outbound-started'), the channel type, the holder's uuid, the author's name and whether a message
 * with this id exists already. Null when the conversation does not exist.
 */
export async function lockConversationForAgentMessage(
  tx: Tx,
  tenantId: string,
  conversationId: string,
  authorId: number,
  messageId: string,
): Promise<AgentMessageTarget | null> {
  const [conv] = await tx.$queryRaw<AgentMessageTarget[]>`
    SELECT c."userId", c.state::text AS state, ch.type AS "channelType",
           (SELECT u.uuid::text FROM "User" u WHERE u.id = c."userId") AS holder,
           (SELECT u.username FROM "User" u WHERE u.id = ${authorId}) AS author,
           EXISTS (SELECT 1 FROM "Message" m WHERE m.id = ${messageId}::uuid) AS existing
    FROM "Conversation" c JOIN "Channel" ch ON ch.id = c."channelId"
    WHERE c.id = ${conversationId}::uuid AND c."tenantId" = ${tenantId}::uuid
    FOR UPDATE OF c`;
  return conv ?? null;
}

/** A failed message the agent sends again: back to sending, its error and its posting claim cleared, and queued for delivery again. */
export async function queueMessageResend(tx: Pick<Tx, 'message' | 'outboxJob'>, tenantId: string, messageId: string): Promise<void> {
  await tx.message.update({ where: { id: messageId }, data: { status: 'sending', errorMessage: null, postedAt: null } });
  await enqueue(tx, queues.channelDelivery.name, { tenant_uuid: tenantId, message_uuid: messageId });
}

/** The message of the conversation a reply quotes, or null. */
export function replyTarget(
  db: Client,
  conversationId: string,
  messageId: string,
): Promise<{ internal: boolean; author: MessageRow['author'] } | null> {
  return db.message.findFirst({ where: { id: messageId, conversationId }, select: { internal: true, author: true } });
}

/**
 * Writes an agent's message (`row`, which the caller presents without reading it back), its delivery
 * job when `deliver` (outbox, same statement) and the conversation's last activity, in one
 * statement. False when a message with this id exists already (nothing is written then).
 */
export async function insertAgentMessage(tx: Tx, row: MessageRow, deliver: boolean): Promise<boolean> {
  const delivery = enqueueSql(
    queues.channelDelivery.name,
    { tenant_uuid: row.tenantId, message_uuid: row.id },
    Prisma.sql`FROM inserted WHERE ${deliver}::boolean`,
    row.createdAt,
  );
  const [written] = await tx.$queryRaw<{ inserted: boolean }[]>`
    WITH inserted AS (
      INSERT INTO "Message" (id, "tenantId", "conversationId", author, "userId", content, tags, internal, voice, "replyToId", "annexId", state, status, "interactiveContent", "createdAt", "updatedAt")
      VALUES (${row.id}::uuid, ${row.tenantId}::uuid, ${row.conversationId}::uuid, 'USER'::"MessageAuthor", ${row.userId}, ${row.content}, ${row.tags}::text[],
              ${row.internal}, ${row.voice}, ${row.replyToId}::uuid, ${row.annexId}::uuid, 'pending'::"MessageState", ${row.status},
              ${row.interactiveContent === null ? null : JSON.stringify(row.interactiveContent)}::jsonb, ${row.createdAt}, ${row.updatedAt})
      ON CONFLICT (id) DO NOTHING
      RETURNING id
    ), queued AS (${delivery}), touched AS (
      UPDATE "Conversation" SET "lastMessageAt" = ${row.createdAt}, "updatedAt" = ${row.updatedAt} WHERE id = ${row.conversationId}::uuid AND EXISTS (SELECT 1 FROM inserted)
    )
    SELECT EXISTS (SELECT 1 FROM inserted) AS inserted`;
  return written?.inserted === true;
}

/**
 * Marks the contact's messages `messageIds` read, and every earlier contact message with them (a
 * chat opened with many unread shows only its newest page; the ones before it are behind what the
 * agent read), then stores the conversation's recomputed unread count. How many changed, and that count.
 */
export async function markContactMessagesRead(
  tx: Pick<Tx, 'message' | 'conversation'>,
  tenantId: string,
  conversationId: string,
  messageIds: readonly string[],
): Promise<{ updated: number; unread: number }> {
  const ids = [...messageIds];
  const newest = await tx.message.aggregate({
    where: { id: { in: ids }, conversationId, tenantId, author: 'CONTACT' },
    _max: { createdAt: true },
  });
  const upTo = newest._max.createdAt;
  const updated = await tx.message.updateMany({
    where: {
      conversationId,
      tenantId,
      author: 'CONTACT',
      state: { not: 'read' },
      OR: [{ id: { in: ids } }, ...(upTo ? [{ createdAt: { lte: upTo } }] : [])],
    },
    data: { state: 'read' },
  });
  const unread = await tx.message.count({ where: { conversationId, author: 'CONTACT', state: { not: 'read' } } });
  await tx.conversation.update({ where: { id: conversationId }, data: { unreadContactMessages: unread } });
  return { updated: updated.count, unread };
}

/** The read state and delivery status of the contact's messages `messageIds` in the conversation. */
export function contactMessageStates(
  db: Client,
  conversationId: string,
  messageIds: readonly string[],
): Promise<Pick<MessageRow, 'id' | 'state' | 'status'>[]> {
  return db.message.findMany({
    where: { id: { in: [...messageIds] }, conversationId, author: 'CONTACT' },
    select: { id: true, state: true, status: true },
  });
}
