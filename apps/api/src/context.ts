import type { Db } from '@atende/db';
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Env } from './env';
import type { Realtime } from './realtime/emit';

/** The long-lived parts every module is given. */
export interface AppContext {
  env: Env;
  db: Db;
  redis: Redis;
  realtime: Realtime;
  log: Logger;
  presence: PresenceHooks;
}

/**
 * What happens to an agent's work when their availability changes (spec 000 §4): set by the
 * conversations module, called by sessions and users.
 */
export interface PresenceHooks {
  /** Signed out or forced offline: active chats return to the queue. */
  offline(tenantId: string, userId: number): Promise<void>;
  /** Paused: with backToQueue the active chats return to the queue. */
  paused(tenantId: string, userId: number, backToQueue: boolean): Promise<void>;
  /** Signed in or unpaused: may receive waiting conversations. */
  available(tenantId: string, userId: number): Promise<void>;
}

export const NO_PRESENCE_HOOKS: PresenceHooks = {
  offline: async () => undefined,
  paused: async () => undefined,
  available: async () => undefined,
};
