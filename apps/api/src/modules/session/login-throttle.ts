import { AppError } from '@atende/contract';
import type { Redis } from 'ioredis';

export interface ThrottleLimits {
  /** Failures of one account from one IP before each further attempt has to wait. */
  freePerPair: number;
  /** Failures from one IP, over every account, before the IP is refused (password spraying). */
  perIp: number;
  windowSeconds: number;
  /** The longest wait a pair is given (the wait doubles with each failure past the free ones). */
  maxDelaySeconds: number;
}

const TOO_MANY = 'Too many sign-in attempts, try again in a few minutes';

/**
 * Failed sign-ins in Redis, shared by every api process. They are counted per
 * account AND client IP: past the free attempts, that pair waits 1, 2, 4 ... seconds (up to the
 * maximum) before each next try, so guessing one password is slowed to a crawl while the real user,
 * signing in from anywhere else, is never refused because of somebody else's failures. One IP also
 * has a much higher ceiling over all accounts, against spraying one password over many accounts.
 */
export class LoginThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly limits: ThrottleLimits,
  ) {}

  private keys(account: string, ip: string) {
    const pair = `${account.toLowerCase()}|${ip}`;
    return {
      pair: `${this.prefix}login-fail:pair:${pair}`,
      wait: `${this.prefix}login-wait:pair:${pair}`,
      ip: `${this.prefix}login-fail:ip:${ip}`,
    };
  }

  /** Refuses (429, with the seconds to wait) an attempt the pair or the IP may not make now. */
  async assertAllowed(account: string, ip: string): Promise<void> {
    const k = this.keys(account, ip);
    const answers = (await this.redis.multi().pttl(k.wait).get(k.ip).ttl(k.ip).exec()) ?? [];
    const [waitMs, ipFailures, ipTtl] = answers.map(([, value]) => Number(value ?? 0));
    if ((ipFailures ?? 0) >= this.limits.perIp) throw tooMany(Math.max(1, ipTtl ?? 1));
    if ((waitMs ?? 0) > 0) throw tooMany(Math.ceil((waitMs ?? 0) / 1000));
  }

  async recordFailure(account: string, ip: string): Promise<void> {
    const k = this.keys(account, ip);
    const answers = await this.redis
      .multi()
      .incr(k.pair)
      .expire(k.pair, this.limits.windowSeconds, 'NX')
      .incr(k.ip)
      .expire(k.ip, this.limits.windowSeconds, 'NX')
      .exec();
    const past = Number(answers?.[0]?.[1] ?? 0) - this.limits.freePerPair;
    if (past >= 0) {
      const seconds = Math.min(this.limits.maxDelaySeconds, 2 ** Math.min(past, 20));
      await this.redis.set(k.wait, '1', 'PX', seconds * 1000);
    }
  }

  /** A correct password clears its pair (the IP's count stays: it only ever slows spraying). */
  async recordSuccess(account: string, ip: string): Promise<void> {
    const k = this.keys(account, ip);
    await this.redis.del(k.pair, k.wait);
  }
}

const tooMany = (retryAfterSeconds: number) =>
  new AppError('login_rate_limited', TOO_MANY, undefined, { retry_after_seconds: retryAfterSeconds });
