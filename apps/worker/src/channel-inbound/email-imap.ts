import { createHash } from 'node:crypto';
import {
  connectImap,
  decryptCredentials,
  EMAIL_MAX_BYTES,
  imapFailureReason,
  type EmailAccessTokens,
  type ImapSession,
  type OutboundPolicy,
} from '@atende/channels';
import {
  leaseMailbox,
  mailboxChannels,
  mailboxPosition,
  releaseMailbox,
  restartMailbox,
  takeMailboxMessage,
  type Db,
  type MailboxChannel,
} from '@atende/db';
import { rawMailJob } from './email-listener';

/**
 * E-mail channels that read the team's own mailbox (imap_host): one IMAP connection per enabled
 * channel, in one worker process at a time (a lease in EmailMailboxState). New mail is waited for
 * with IDLE when the server offers it and looked for every pollMs anyway (the only way without
 * IDLE, and a safety net with it). Each message after the last UID taken is queued as the SMTP
 * listener queues forwarded mail (channel-inbound, the raw message base64), its UID recorded in
 * the same transaction, then marked \Seen in the mailbox. The channel list is read again every
 * pollMs: a channel created, changed, disabled or removed is picked up by then. A failure (server
 * not reached, login refused) is logged and retried with a growing delay; it never ends the process.
 *
 * The first read of a mailbox (or of another one, or after its UIDVALIDITY changed) takes the
 * unread mail that arrived since the channel was created, at most BACKLOG_MAX messages, and from
 * then on every message after the highest UID the mailbox had.
 */
export interface EmailImapLog {
  debug(details: object, message: string): void;
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface EmailImapDeps {
  db: Db;
  secretsKey: Buffer;
  log: EmailImapLog;
  /** OUTBOUND_ALLOW_HOSTS: imap_host is checked like smtp_host. */
  policy: OutboundPolicy;
  tokens: EmailAccessTokens;
  /** This process, as the holder of mailbox leases. */
  owner: string;
}

export interface EmailImapOptions {
  /** EMAIL_IMAP_POLL_MS. */
  pollMs: number;
  /** The delay after a first failure, doubled after each next one up to retryMaxMs. */
  retryMinMs?: number;
  retryMaxMs?: number;
  maxBytes?: number;
  timeoutMs?: number;
  /** Tests: resolve host names without DNS. */
  lookup?: (host: string) => Promise<{ address: string }[]>;
}

export interface EmailImapReaders {
  /** Reads the channel list again now (it is also read every pollMs). */
  refresh(): Promise<void>;
  /** The channels whose mailbox this process reads or tries to. */
  channels(): string[];
  close(): Promise<void>;
}

/** Unread mail taken at a mailbox's first read, newest first: a mailbox with years of unread mail does not flood the desk. */
export const BACKLOG_MAX = 100;
/** Mail from a little before the channel's creation counts as waiting for it (INTERNALDATE has only seconds, and clocks differ). */
const BACKLOG_MARGIN_MS = 10 * 60_000;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** Logs out, or closes a connection that does not answer in time (a dead server must not hold a stop up). */
async function quit(client: ImapSession['client']): Promise<void> {
  if (!client.usable) return client.close();
  const timeout = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 5000).unref());
  const done = await Promise.race([
    client.logout().then(
      () => 'done' as const,
      () => 'late' as const,
    ),
    timeout,
  ]);
  if (done === 'late') client.close();
}

/** Thrown when another process took the mailbox over: this one lets it go. */
class LeaseLost extends Error {}

export function startEmailImap(deps: EmailImapDeps, options: EmailImapOptions): EmailImapReaders {
  const readers = new Map<string, MailboxReader>();
  let closed = false;
  let refreshing: Promise<void> = Promise.resolve();

  const refreshOnce = async () => {
    let channels: MailboxChannel[];
    try {
      channels = await mailboxChannels(deps.db);
    } catch (error) {
      deps.log.warn({ err: error }, 'e-mail channels to read by IMAP not listed; trying again at the next poll');
      return;
    }
    const live = new Set<string>();
    for (const channel of channels) {
      if (closed) return;
      live.add(channel.id);
      const fingerprint = createHash('sha256')
        .update(JSON.stringify(channel.config ?? null))
        .update('\n')
        .update(channel.credentialsEncrypted ?? '')
        .digest('hex');
      const current = readers.get(channel.id);
      if (current?.fingerprint === fingerprint) continue;
      if (current) await current.stop();
      const reader = new MailboxReader(deps, options, channel, fingerprint);
      readers.set(channel.id, reader);
      reader.start();
    }
    for (const [id, reader] of readers) {
      if (live.has(id)) continue;
      readers.delete(id);
      await reader.stop();
    }
  };
  // One refresh at a time: a slow one is not overlapped by the next tick.
  const refresh = () => (refreshing = refreshing.then(() => (closed ? undefined : refreshOnce())));
  const timer = setInterval(() => void refresh(), options.pollMs);
  timer.unref();
  void refresh();

  return {
    refresh,
    channels: () => [...readers.keys()],
    async close() {
      closed = true;
      clearInterval(timer);
      await refreshing;
      await Promise.all([...readers.values()].map((reader) => reader.stop()));
      readers.clear();
    },
  };
}

/** One channel's mailbox: lease, connect, read, wait, and again; until stopped. */
class MailboxReader {
  private readonly abort = new AbortController();
  private running: Promise<void> = Promise.resolve();
  private session: ImapSession | null = null;
  private wake: (() => void) | null = null;
  /** The server told of new mail since the last look (an EXISTS may come in any answer, not only during IDLE). */
  private changed = false;
  private readonly leaseMs: number;
  private readonly log: EmailImapLog;
  /** Failed attempts in a row: the retry delay doubles with each, and a connection that got as far as the mailbox starts it over. */
  private failures = 0;

  constructor(
    private readonly deps: EmailImapDeps,
    private readonly options: EmailImapOptions,
    private readonly channel: MailboxChannel,
    readonly fingerprint: string,
  ) {
    // Renewed at every poll at the latest; a process that died leaves the mailbox to another after this.
    this.leaseMs = options.pollMs * 3 + 30_000;
    this.log = deps.log;
  }

  start(): void {
    this.running = this.run().catch((error: unknown) =>
      this.log.warn({ channelId: this.channel.id, err: error }, 'e-mail mailbox reader stopped unexpectedly'),
    );
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.wake?.();
    const client = this.session?.client;
    // Logging out breaks IDLE and ends the session loop; a dead connection is just closed.
    if (client) await quit(client);
    await this.running;
    await releaseMailbox(this.deps.db, this.channel.id, this.deps.owner).catch(() => undefined);
  }

  private get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        const leased = await leaseMailbox(this.deps.db, {
          channelId: this.channel.id,
          tenantId: this.channel.tenantId,
          owner: this.deps.owner,
          ttlMs: this.leaseMs,
        });
        if (!leased) {
          // Another worker process reads this mailbox; take over only if it stops renewing.
          await sleep(this.options.pollMs, this.abort.signal);
          continue;
        }
        await this.read();
      } catch (error) {
        if (this.stopped) break;
        if (error instanceof LeaseLost) {
          this.log.info({ channelId: this.channel.id }, 'e-mail mailbox taken over by another worker');
          await sleep(this.options.pollMs, this.abort.signal);
          continue;
        }
        this.failures += 1;
        const min = this.options.retryMinMs ?? 5_000;
        const delay = Math.min(this.options.retryMaxMs ?? 5 * 60_000, min * 2 ** Math.min(this.failures - 1, 16));
        this.log.warn(
          {
            channelId: this.channel.id,
            tenantId: this.channel.tenantId,
            attempt: this.failures,
            retryInMs: delay,
            reason: imapFailureReason(error),
          },
          'e-mail mailbox not read by IMAP; retrying',
        );
        await sleep(delay, this.abort.signal);
      }
    }
  }

  /** One connection: opens the mailbox, takes what is new, then waits for more until the connection ends or the reader stops. */
  private async read(): Promise<void> {
    const credentials = this.channel.credentialsEncrypted
      ? decryptCredentials(this.channel.credentialsEncrypted, this.deps.secretsKey)
      : null;
    const session = await connectImap(
      { uuid: this.channel.id, type: 'email', config: this.channel.config, credentials },
      {
        policy: this.deps.policy,
        tokens: this.deps.tokens,
        lookup: this.options.lookup,
        timeoutMs: this.options.timeoutMs,
        // IDLE soon after each read, so new mail is told at once rather than at the next poll.
        idleDelayMs: 1000,
      },
    );
    this.session = session;
    const { client } = session;
    const onExists = () => {
      this.changed = true;
      this.wake?.();
    };
    client.on('exists', onExists);
    try {
      if (this.stopped) return;
      const box = await client.mailboxOpen(session.mailbox);
      // Connected and logged in: a later drop of this connection is retried from the shortest delay.
      this.failures = 0;
      const position = await mailboxPosition(this.deps.db, this.channel.id);
      if (!position || position.mailbox !== session.identity || position.uidValidity !== box.uidValidity) {
        await this.firstRead(session, box.uidValidity, box.uidNext);
      }
      this.log.info(
        { channelId: this.channel.id, mailbox: session.mailbox, idle: client.capabilities.has('IDLE') },
        'reading e-mail mailbox by IMAP',
      );
      await this.takeNew(session);
      while (!this.stopped && client.usable) {
        await this.nextChange(session);
        if (this.stopped || !client.usable) break;
        await this.renew();
        await this.takeNew(session);
      }
      if (!this.stopped) throw new Error('the IMAP connection was closed');
    } finally {
      this.session = null;
      client.off('exists', onExists);
      await quit(client);
    }
  }

  /** Resolves on new mail (IDLE's EXISTS), after pollMs, when the connection closes, or when the reader stops. */
  private nextChange({ client }: ImapSession): Promise<void> {
    if (this.changed || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        client.off('close', done);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, this.options.pollMs);
      client.on('close', done);
      this.wake = done;
    });
  }

  private async renew(): Promise<void> {
    const held = await leaseMailbox(this.deps.db, {
      channelId: this.channel.id,
      tenantId: this.channel.tenantId,
      owner: this.deps.owner,
      ttlMs: this.leaseMs,
    });
    if (!held) throw new LeaseLost();
  }

  /**
   * A mailbox not read before (or another one, or renumbered): the unread mail since the channel's
   * creation is taken, then reading goes on after the highest UID the mailbox had when opened.
   */
  private async firstRead(session: ImapSession, uidValidity: bigint, uidNext: number): Promise<void> {
    const { client } = session;
    const highest = Math.max(0, uidNext - 1);
    if (highest > 0) {
      const since = new Date(this.channel.createdAt.getTime() - BACKLOG_MARGIN_MS);
      const found = (await client.search({ seen: false, since, uid: `1:${highest}` }, { uid: true })) || [];
      const waiting = found
        .filter((uid) => uid <= highest)
        .sort((a, b) => a - b)
        .slice(-BACKLOG_MAX);
      for (const uid of waiting) {
        if (this.stopped) return;
        // SEARCH SINCE compares dates only: the time the message reached the mailbox decides.
        const meta = await client.fetchOne(String(uid), { uid: true, internalDate: true, size: true }, { uid: true });
        const arrived = meta && meta.internalDate ? new Date(meta.internalDate) : null;
        if (arrived && arrived < since) continue;
        await this.take(session, uid, undefined, meta ? meta.size : undefined);
      }
    }
    const restarted = await restartMailbox(this.deps.db, {
      channelId: this.channel.id,
      owner: this.deps.owner,
      mailbox: session.identity,
      uidValidity,
      lastUid: BigInt(highest),
    });
    if (!restarted) throw new LeaseLost();
  }

  /** Every message after the last UID taken, in UID order. */
  private async takeNew(session: ImapSession): Promise<void> {
    this.changed = false;
    const position = await mailboxPosition(this.deps.db, this.channel.id);
    const lastUid = Number(position?.lastUid ?? 0);
    const { mailbox } = session.client;
    if (mailbox && mailbox.exists === 0) return;
    // "N:*" also answers the highest message when none is above N: only UIDs after lastUid count.
    const found = await session.client.fetchAll(`${lastUid + 1}:*`, { uid: true, size: true }, { uid: true });
    const uids = found
      .filter((m) => m.uid > lastUid)
      .map((m) => ({ uid: m.uid, size: m.size ?? 0 }))
      .sort((a, b) => a.uid - b.uid);
    for (const { uid, size } of uids) {
      if (this.stopped) return;
      await this.take(session, uid, BigInt(uid), size);
    }
  }

  /** Queues one message (its UID recorded when `record` is given), then marks it \Seen in the mailbox. */
  private async take(session: ImapSession, uid: number, record: bigint | undefined, size?: number): Promise<void> {
    const { client } = session;
    const maxBytes = this.options.maxBytes ?? EMAIL_MAX_BYTES;
    let raw: Buffer | null = null;
    if (size === undefined || size <= maxBytes) {
      const message = await client.fetchOne(String(uid), { uid: true, source: true }, { uid: true });
      raw = message && message.source ? message.source : null;
    }
    if (raw && raw.length > maxBytes) raw = null;
    if (!raw)
      this.log.warn({ channelId: this.channel.id, uid, size, maxBytes }, 'e-mail in the mailbox too big or unreadable; left unread there');
    const taken = await takeMailboxMessage(this.deps.db, {
      channelId: this.channel.id,
      owner: this.deps.owner,
      uid: record,
      job: raw ? rawMailJob({ tenantId: this.channel.tenantId, channelId: this.channel.id, raw, receivedAt: new Date() }) : null,
    });
    if (!taken) throw new LeaseLost();
    if (!raw) return;
    this.log.debug({ channelId: this.channel.id, uid }, 'e-mail taken from the mailbox');
    // Taken whatever happens here (its UID is recorded): a mailbox that cannot be written (shared read-only) only keeps it unread.
    const marked = await client.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true }).catch(() => false);
    if (!marked && client.usable)
      this.log.warn({ channelId: this.channel.id, uid }, 'e-mail taken from the mailbox but not marked read there');
  }
}
