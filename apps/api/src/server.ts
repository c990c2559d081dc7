import { createDb } from '@atende/db';
import { Redis } from 'ioredis';
import { buildApp } from './app';
import { loadEnv } from './env';

const env = loadEnv();
const db = createDb(env.DATABASE_URL, { poolSize: 20 });
const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
const { app } = await buildApp({ env, db, redis });
// ioredis reconnects by itself; an outage is logged (once per attempt) rather than thrown.
redis.on('error', (error: Error) => app.log.warn({ err: error }, 'redis connection error'));

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 10_000).unref();
  try {
    await app.close();
    await db.$disconnect();
    redis.disconnect();
    clearTimeout(force);
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: env.PORT, host: env.HOST });
