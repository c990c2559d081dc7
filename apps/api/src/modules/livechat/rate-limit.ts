import { AppError } from '@atende/contract';
import type { Redis } from 'ioredis';
import { countInWindow } from '../../rate-window';

/** Public widget calls per client IP and window, shared by every api process (a Redis counter). */
export const LIVECHAT_LIMITS = {
  config: { limit: 300, windowSeconds: 60 },
  session: { limit: 30, windowSeconds: 600 },
  send: { limit: 120, windowSeconds: 60 },
  read: { limit: 600, windowSeconds: 60 },
} as const;
export type LivechatBucket = keyof typeof LIVECHAT_LIMITS;

export class LivechatRateLimit {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Counts one call; past the bucket's limit the call is refused with 429 before any work. */
  async hit(bucket: LivechatBucket, ip: string): Promise<void> {
    const { limit, windowSeconds } = LIVECHAT_LIMITS[bucket];
    const key = `${this.prefix}livechat-rate:${bucket}:${ip}`;
    const { count } = await countInWindow(this.redis, key, windowSeconds);
    if (count > limit) throw new AppError('rate_limited', 'Too many requests, try again in a minute');
  }
}
