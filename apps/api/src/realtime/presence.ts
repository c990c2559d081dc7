import { resumeAgent, signOffAgent, type ConversationDeps } from '@atende/conversations';
import { tenantOfUser } from '@atende/db';
import type { Redis } from 'ioredis';

/**
 * Presence follows live connections, not unexpired sessions.
 *
 * One Redis sorted set, user id → the last moment a socket of theirs was known to be connected (or
 * they signed in: seenAtSignIn).
 * Every api process refreshes it for the users it holds sockets of (on connect, on disconnect and
 * every `heartbeatMs`), so a user is "away" once no process has refreshed them for the grace
 * period: their browsers closed, their network dropped, or the process holding their sockets
 * died. Each process sweeps the set as often as it beats; the one that claims an away user (an
 * atomic check-and-remove, so exactly one) signs them off by the spec's rule: offline, not
 * logged, active chats back to the queue. Their session stays valid: when one of
 * its sockets connects again the user is logged in again (`resumeAgent`).
 *
 * Nothing here runs per message: the fan-out path never touches it.
 */
export class PresenceTracker {
  private readonly local = new Map<number, { tenantId: string; sockets: number }>();
  private readonly key: string;
  private readonly heartbeatMs: number;
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> = Promise.resolve();

  constructor(private readonly deps: ConversationDeps & { redis: Redis; prefix: string; graceMs: number }) {
    this.key = presenceKey(deps.prefix);
    // Several beats per grace period, so a connected user is never seen as away between two beats.
    this.heartbeatMs = Math.max(100, Math.min(10_000, Math.floor(deps.graceMs / 4)));
  }

  start(): void {
    this.timer = setInterval(() => {
      this.beating = this.beating
        .then(async () => void (await this.beat()))
        .catch((error: unknown) => this.deps.log.error({ err: error }, 'presence heartbeat failed'));
    }, this.heartbeatMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.beating;
  }

  /**
   * A socket of this user's live session connected here: seen now, and logged in again if presence
   * had signed them off. Seen first: a sweep signing them off meanwhile finds them seen and logs them
   * in again (signOff). When Redis does not answer in time (down, or this process too busy to read
   * its answers, as when thousands of browsers reconnect after a restart) they are logged in all the
   * same, and the next beat marks them seen; the failure is still thrown, for the log.
   */
  async connected(tenantId: string, userId: number): Promise<void> {
    const entry = this.local.get(userId);
    this.local.set(userId, { tenantId, sockets: (entry?.sockets ?? 0) + 1 });
    try {
      await this.seen([userId]);
    } finally {
      await resumeAgent(this.deps, tenantId, userId);
    }
  }

  /** A socket went: the user counts as seen until now; the grace period runs from here unless another socket refreshes them. */
  async disconnected(userId: number): Promise<void> {
    const entry = this.local.get(userId);
    if (entry && entry.sockets > 1) entry.sockets--;
    else this.local.delete(userId);
    await this.seen([userId]);
  }

  private async seen(userIds: number[]): Promise<void> {
    if (userIds.length === 0) return;
    const now = Date.now();
    // GT: a process whose clock lags never moves a user back in time.
    await this.deps.redis.zadd(this.key, 'GT', ...userIds.flatMap((id) => [now, String(id)]));
  }

  /** Refreshes this process's users, then signs off every user nobody refreshed within the grace period. */
  async beat(): Promise<number> {
    await this.seen([...this.local.keys()]);
    const cutoff = Date.now() - this.deps.graceMs;
    const away = await this.deps.redis.zrangebyscore(this.key, '-inf', cutoff, 'LIMIT', 0, 200);
    let signedOff = 0;
    for (const member of away) {
      // Claimed by exactly one process, and only if nobody refreshed the user since the read.
      const claimed = (await this.deps.redis.eval(CLAIM_AWAY, 1, this.key, member, cutoff)) as number;
      if (claimed !== 1) continue;
      if (await this.signOff(Number(member))) signedOff++;
    }
    return signedOff;
  }

  private async signOff(userId: number): Promise<boolean> {
    const tenantId = await tenantOfUser(this.deps.db, userId);
    if (!tenantId) return false;
    // Nobody is connected to hear it: only the dashboards are told (see signOffAgent).
    const done = await signOffAgent(this.deps, tenantId, userId, 'system', { isLogged: true }, { tellUser: false });
    // A socket that connected while this ran found the user still logged in: log them in again.
    if (done.signedOff && (await this.deps.redis.zscore(this.key, String(userId))) !== null) await resumeAgent(this.deps, tenantId, userId);
    return done.signedOff;
  }
}

/** The sorted set of last-seen times (user id → epoch ms). */
export const presenceKey = (prefix: string): string => `${prefix}presence:seen`;

/**
 * A new sign-in counts as seen now: the grace period runs from the sign-in, so a session that never
 * opens a socket (a tab closed before it connected, an API sign-in) is signed off for distribution
 * like a lost browser, while a browser connecting within the grace keeps it online.
 * Setting now also replaces an old browser's last-seen time, which must not sign off the new session.
 */
export async function seenAtSignIn(redis: Redis, prefix: string, userId: number): Promise<void> {
  await redis.zadd(presenceKey(prefix), 'GT', Date.now(), String(userId));
}

/** Removes the member if its score is still at or before the cutoff; 1 when it did. */
const CLAIM_AWAY = `
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) <= tonumber(ARGV[2]) then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 1
end
return 0`;
