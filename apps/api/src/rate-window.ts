import type { Redis } from 'ioredis';

/**
 * Counts one call under `key` in a fixed window shared by every api process (a Redis counter that
 * expires with its window): how many calls the window holds now, this one included, and the seconds
 * until it starts afresh.
 *
 * The api's limits (livechat widget calls, image fetches from URLs, campaign test sends, password
 * recovery) all count here rather than through @fastify/rate-limit, which was declared and never
 * used, and is no longer a dependency. That plugin counts every request of a route in a hook, before
 * the handler runs; these limits count inside the handler: a campaign test send counts only once the
 * campaign, template and do-not-disturb checks pass (a real message), the image fetch counts per
 * tenant and user of the session, one livechat bucket spans the text and voice routes, and the
 * password recovery count of an address and IP pair sets an exponential wait. Counting here also
 * keeps one answer for each case: past a limit, an AppError `rate_limited` (429, with
 * `retry_after_seconds` where the caller gives it) from the one error handler; with Redis down, the
 * same 503 naming Redis as every other Redis call of a request (redis-outage.test.ts).
 */
export async function countInWindow(
  redis: Redis,
  key: string,
  windowSeconds: number,
): Promise<{ count: number; retryAfterSeconds: number }> {
  const answers = await redis.multi().incr(key).expire(key, windowSeconds, 'NX').ttl(key).exec();
  return { count: Number(answers?.[0]?.[1] ?? 0), retryAfterSeconds: Math.max(1, Number(answers?.[2]?.[1] ?? 1)) };
}
