import type { Redis } from 'ioredis';

/**
 * Counts one call under `key` in a fixed window shared by every api process (a Redis counter that
 * expires with its window): how many calls the window holds now, this one included, and the seconds
 * until it starts afresh.
 */
export async function countInWindow(redis: Redis, key: string, windowSeconds: number): Promise<{ count: number; retryAfterSeconds: number }> {
  const answers = await redis.multi().incr(key).expire(key, windowSeconds, 'NX').ttl(key).exec();
  return { count: Number(answers?.[0]?.[1] ?? 0), retryAfterSeconds: Math.max(1, Number(answers?.[2]?.[1] ?? 1)) };
}
