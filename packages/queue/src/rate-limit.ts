import type { Redis } from 'ioredis';

/**
 * A token bucket in Redis, shared by every worker process: `rate` sends per second per key (a
 * channel's number), bursts up to one second's worth. A provider's throttling answer halves the
 * rate for a while (slowDown), after which it returns to the configured one.
 */
const TAKE = `
local key, now, rate, burst, want = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4] or '1')
local slow = tonumber(redis.call('GET', KEYS[2]) or '1')
rate = rate * slow
local state = redis.call('HMGET', key, 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
tokens = math.min(burst, tokens + (now - at) * rate / 1000)
local granted = math.min(want, math.floor(tokens))
local wait = 0
if granted >= 1 then tokens = tokens - granted else granted = 0; wait = math.ceil((1 - tokens) * 1000 / rate) end
redis.call('HSET', key, 'tokens', tokens, 'at', now)
redis.call('PEXPIRE', key, 60000)
return {granted, wait}
`;

export class RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private keys(key: string): [string, string] {
    return [`${this.prefix}ratelimit:${key}`, `${this.prefix}ratelimit:${key}:slow`];
  }

  /** Waits until a send is allowed under `perSecond` (0 or less: no limit). */
  async take(key: string, perSecond: number): Promise<void> {
    await this.takeUpTo(key, perSecond, 1);
  }

  /**
   * Waits until at least one send is allowed under `perSecond`, and takes up to `max` sends at
   * once (one Redis round trip for a batch of sends): answers how many were taken, which the caller
   * spends right away (a token taken and not spent is a send the bucket will not give again).
   * 0 or less: no limit, `max` answered at once.
   */
  async takeUpTo(key: string, perSecond: number, max: number): Promise<number> {
    if (perSecond <= 0) return max;
    const [bucket, slow] = this.keys(key);
    for (;;) {
      const [granted, wait] = (await this.redis.eval(
        TAKE,
        2,
        bucket,
        slow,
        Date.now(),
        perSecond,
        Math.max(1, perSecond),
        Math.max(1, Math.floor(max)),
      )) as [number, number];
      if (granted > 0) return Number(granted);
      await new Promise((r) => setTimeout(r, Math.min(Math.max(1, Number(wait)), 1000)));
    }
  }

  /** The provider said "too fast": half the rate for `forMs`. */
  async slowDown(key: string, forMs = 60_000): Promise<void> {
    const [, slow] = this.keys(key);
    const current = Number((await this.redis.get(slow)) ?? 1);
    await this.redis.set(slow, String(Math.max(0.05, current / 2)), 'PX', forMs);
  }
}
