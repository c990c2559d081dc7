import { AppError } from '@atende/contract';
import type { Redis } from 'ioredis';

/** How long a request waits on Redis before it answers 503. */
export const REDIS_REQUEST_TIMEOUT_MS = 1000;

/**
 * The Redis connection requests use (login throttling, login codes, livechat limits, health): no
 * offline queue and a command timeout, so while Redis is down a request fails at once with a 503
 * instead of waiting for a reconnection; ioredis keeps reconnecting, so it resumes by itself. The
 * realtime adapter and relay keep their own connection, which queues and retries.
 */
export async function requestRedis(base: Redis): Promise<Redis> {
  const client = base.duplicate({ enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: REDIS_REQUEST_TIMEOUT_MS });
  // Commands before the first connection would be refused: wait for it, a little, when Redis is up.
  if (client.status !== 'ready') {
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        client.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, 3000);
      client.once('ready', done);
    });
  }
  client.on('error', () => undefined);
  return client;
}

/** Errors ioredis gives when Redis cannot be reached in time. */
export function isRedisUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'MaxRetriesPerRequestError' ||
    /enableOfflineQueue|Command timed out|Connection is closed|Stream isn't writeable|ECONNREFUSED/.test(error.message)
  );
}

export const serviceUnavailable = (dependency: 'redis' | 'postgres') =>
  new AppError('dependency_unavailable', `The service is unavailable for a moment (${dependency}); try again shortly`, undefined, {
    dependency,
  });

/** `promise`, or false after `ms`: a dependency that does not answer in time counts as down. */
export function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise<T>((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });
}
