import type { Redis } from 'ioredis';

/**
 * A token bucket in Redis, shared by every worker process: `rate` sends per second per key (a
 * channel's number), bursts up to one second's worth. A provider's throttling answer halves the
 * rate for a while (slowDown), after which it returns to the configured one.
 */
const TAKE = `
local key, now, rate, burst = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local slow = tonumber(redis.call('GET', KEYS[2]) or '1')
rate = rate * slow
local state = redis.call('HMGET', key, 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
tokens = math.min(burst, tokens + (now - at) * rate / 1000)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = math.ceil((1 - tokens) * 1000 / rate) end
redis.call('HSET', key, 'tokens', tokens, 'at', now)
redis.call('PEXPIRE', key, 60000)
return wait
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
    if (perSecond <= 0) return;
    const [bucket, slow] = this.keys(key);
    for (;;) {
      const wait = Number(await this.redis.eval(TAKE, 2, bucket, slow, Date.now(), perSecond, Math.max(1, perSecond)));
      if (wait <= 0) return;
      await new Promise((r) => setTimeout(r, Math.min(wait, 1000)));
    }
  }

  /** The provider said "too fast": half the rate for `forMs`. */
  async slowDown(key: string, forMs = 60_000): Promise<void> {
    const [, slow] = this.keys(key);
    const current = Number((await this.redis.get(slow)) ?? 1);
    await this.redis.set(slow, String(Math.max(0.05, current / 2)), 'PX', forMs);
  }
}
