import { queues, type ChannelInboundJob } from '@atende/contract';
import type { Db } from './client';
import { enqueue } from './outbox';

/**
 * The worker's IMAP reader of e-mail channels (imap_host set): which channels to read, a lease per
 * mailbox so one worker process reads it at a time, and how far it has read (EmailMailboxState).
 * A message is queued and its UID recorded in one transaction, and only while the lease is still
 * held: a worker that lost its lease (it stalled, another took over) queues nothing more.
 */

/** A live, enabled e-mail channel of any tenant with an IMAP server set, as the reader needs it. */
export interface MailboxChannel {
  id: string;
  tenantId: string;
  config: unknown;
  credentialsEncrypted: string | null;
  createdAt: Date;
}

export function mailboxChannels(db: Pick<Db, '$queryRaw'>): Promise<MailboxChannel[]> {
  return db.$queryRaw<MailboxChannel[]>`
    SELECT id, "tenantId", config, "credentialsEncrypted", "createdAt" FROM "Channel"
     WHERE type = 'email' AND enabled AND "deletedAt" IS NULL AND btrim(coalesce(config->>'imap_host', '')) <> ''
     ORDER BY "createdAt", id`;
}

/**
 * Takes the channel's mailbox for `owner` until `ttlMs` from now, or renews the lease it holds;
 * false while another process holds an unexpired one.
 */
export async function leaseMailbox(
  db: Pick<Db, '$queryRaw'>,
  lease: { channelId: string; tenantId: string; owner: string; ttlMs: number },
): Promise<boolean> {
  const rows = await db.$queryRaw<{ channelId: string }[]>`
    INSERT INTO "EmailMailboxState" ("channelId", "tenantId", mailbox, "leaseOwner", "leaseUntil", "updatedAt")
    VALUES (${lease.channelId}::uuid, ${lease.tenantId}::uuid, '', ${lease.owner}, now() + ${lease.ttlMs} * interval '1 millisecond', now())
    ON CONFLICT ("channelId") DO UPDATE SET "leaseOwner" = EXCLUDED."leaseOwner", "leaseUntil" = EXCLUDED."leaseUntil", "updatedAt" = now()
     WHERE "EmailMailboxState"."leaseOwner" IS NULL OR "EmailMailboxState"."leaseOwner" = EXCLUDED."leaseOwner"
        OR "EmailMailboxState"."leaseUntil" < now()
    RETURNING "channelId"`;
  return rows.length === 1;
}

/** Gives the mailbox up (the channel was changed, removed, or the worker stops): another process may take it at once. */
export async function releaseMailbox(db: Pick<Db, '$executeRaw'>, channelId: string, owner: string): Promise<void> {
  await db.$executeRaw`
    UPDATE "EmailMailboxState" SET "leaseOwner" = NULL, "leaseUntil" = NULL, "updatedAt" = now()
     WHERE "channelId" = ${channelId}::uuid AND "leaseOwner" = ${owner}`;
}

export interface MailboxPosition {
  /** user@host:port/folder the UIDs are of; '' before the first read. */
  mailbox: string;
  uidValidity: bigint | null;
  lastUid: bigint;
  updatedAt: Date;
}

export async function mailboxPosition(db: Pick<Db, 'emailMailboxState'>, channelId: string): Promise<MailboxPosition | null> {
  return db.emailMailboxState.findUnique({
    where: { channelId },
    select: { mailbox: true, uidValidity: true, lastUid: true, updatedAt: true },
  });
}

/**
 * Starts the channel's reading of a mailbox over (the first read, another mailbox, or a new
 * UIDVALIDITY): UIDs up to `lastUid` count as seen. False when `owner` no longer holds the lease.
 */
export async function restartMailbox(
  db: Pick<Db, 'emailMailboxState'>,
  position: { channelId: string; owner: string; mailbox: string; uidValidity: bigint; lastUid: bigint },
): Promise<boolean> {
  const { count } = await db.emailMailboxState.updateMany({
    where: { channelId: position.channelId, leaseOwner: position.owner },
    data: { mailbox: position.mailbox, uidValidity: position.uidValidity, lastUid: position.lastUid },
  });
  return count === 1;
}

/**
 * Queues one raw message of the mailbox (channel-inbound, as the SMTP listener does) and, with
 * `uid`, records that UID as read, in one transaction. False (nothing queued) when `owner` no
 * longer holds the lease or the UID was already taken. Without `uid` (mail waiting from before
 * the first read) only the lease is checked. A null job records the UID only (a message not taken).
 */
export async function takeMailboxMessage(
  db: Db,
  message: { channelId: string; owner: string; uid?: bigint; job: ChannelInboundJob | null },
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.emailMailboxState.updateMany({
      where: {
        channelId: message.channelId,
        leaseOwner: message.owner,
        ...(message.uid === undefined ? {} : { lastUid: { lt: message.uid } }),
      },
      data: message.uid === undefined ? { updatedAt: new Date() } : { lastUid: message.uid },
    });
    if (count !== 1) return false;
    if (message.job) await enqueue(tx, queues.channelInbound.name, message.job);
    return true;
  });
}
