import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const prefix = `atende-test:${randomBytes(4).toString('hex')}:`;
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

describe('RateLimiter.takeUpTo (tokens in chunks)', () => {
  it('gives a full bucket at once up to what is asked, then about the rate, and never more than it', async () => {
    const limiter = new RateLimiter(redis, prefix);
    // The burst: one second's worth (100), in chunks of at most 30.
    const first = Date.now();
    const burst = [
      await limiter.takeUpTo('a', 100, 30),
      await limiter.takeUpTo('a', 100, 30),
      await limiter.takeUpTo('a', 100, 30),
      await limiter.takeUpTo('a', 100, 30),
    ];
    expect(burst.slice(0, 3)).toEqual([30, 30, 30]);
    // What is left of the 100, plus what refilled meanwhile (100/s).
    expect(burst[3]).toBeGreaterThanOrEqual(10);
    expect(burst[3]).toBeLessThanOrEqual(11 + Math.ceil((Date.now() - first) / 10));
    // Empty now: 50 more tokens take about half a second at 100/s, whatever the chunk size.
    const began = Date.now();
    let taken = 0;
    while (taken < 50) taken += await limiter.takeUpTo('a', 100, 7);
    const ms = Date.now() - began;
    expect(taken).toBeLessThanOrEqual(56);
    expect(ms).toBeGreaterThanOrEqual(400);
    expect(ms).toBeLessThan(2000);
  });

  it('answers what is asked at once without a limit, and take() still takes one', async () => {
    const limiter = new RateLimiter(redis, prefix);
    expect(await limiter.takeUpTo('b', 0, 40)).toBe(40);
    const began = Date.now();
    for (let i = 0; i < 3; i++) await limiter.take('c', 2);
    // A burst of 2, then the third waits about half a second.
    expect(Date.now() - began).toBeGreaterThanOrEqual(400);
  });
});
