import { AppError } from '@atende/contract';
import type { Redis } from 'ioredis';

export interface ThrottleLimits {
  perAccount: number;
  perIp: number;
  windowSeconds: number;
}

/**
 * Counts failed sign-ins per account and per IP in Redis, shared by every api process. Past either
 * limit the next attempt is refused with 429 before any password is checked.
 */
export class LoginThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly limits: ThrottleLimits,
  ) {}

  private keys(account: string, ip: string) {
    return { account: `${this.prefix}login-fail:acct:${account.toLowerCase()}`, ip: `${this.prefix}login-fail:ip:${ip}` };
  }

  async assertAllowed(account: string, ip: string): Promise<void> {
    const k = this.keys(account, ip);
    const [a, i] = await this.redis.mget(k.account, k.ip);
    if (Number(a ?? 0) >= this.limits.perAccount || Number(i ?? 0) >= this.limits.perIp) {
      throw new AppError('rate_limited', 'Too many sign-in attempts, try again in a few minutes');
    }
  }

  async recordFailure(account: string, ip: string): Promise<void> {
    const k = this.keys(account, ip);
    await this.redis
      .multi()
      .incr(k.account)
      .expire(k.account, this.limits.windowSeconds, 'NX')
      .incr(k.ip)
      .expire(k.ip, this.limits.windowSeconds, 'NX')
      .exec();
  }

  async recordSuccess(account: string): Promise<void> {
    await this.redis.del(this.keys(account, '').account);
  }
}
