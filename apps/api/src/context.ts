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
}
