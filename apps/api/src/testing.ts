import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { FEATURE_FLAGS, type FeatureFlag, type Role } from '@atende/contract';
import { ensureTenant, type CreatedTenant } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { createClient } from '@atende/sdk';
import { Redis } from 'ioredis';
import supertest from 'supertest';
import { buildApp, type BuiltApp } from './app';
import { loadEnv, type Env } from './env';

export const TEST_PASSWORD = 'secret123';

export interface TestApp extends BuiltApp {
  url: string;
  env: Env;
  database: TestDatabase;
  http: ReturnType<typeof supertest>;
  /** Creates a tenant with one user per role in `users` (email <name>@<tenant>.test, TEST_PASSWORD). */
  tenant(name: string, options?: { features?: Partial<Record<FeatureFlag, boolean>>; users?: Record<string, Role[]> }): Promise<CreatedTenant>;
  /** Signs in over HTTP and returns the bearer token. */
  login(email: string, password?: string): Promise<string>;
  /** A typed sdk client bound to a token. */
  client(token?: string): ReturnType<typeof createClient>;
  close(): Promise<void>;
}

export const ALL_ON = Object.fromEntries(FEATURE_FLAGS.map((f) => [f, true])) as Record<FeatureFlag, boolean>;
export const STANDARD_USERS: Record<string, Role[]> = {
  agent: ['agent'],
  agent2: ['agent'],
  supervisor: ['supervisor'],
  manager: ['manager'],
  admin: ['admin'],
  owner: ['owner'],
  campaigns: ['campaign_manager'],
  tenants: ['tenant_admin'],
};

/** The real api on a random port, with a database of its own and its own Redis key prefix. */
export async function startTestApp(overrides: Partial<Record<string, string>> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const prefix = `atende-test:${randomBytes(5).toString('hex')}:`;
  const env = loadEnv({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: prefix,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    WEB_DIST: '/nonexistent',
    ...overrides,
  });
  const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
  const built = await buildApp({ env, db: database.db, redis });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = built.app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const http = supertest(url);
  const testApp: TestApp = {
    ...built,
    url,
    env,
    database,
    http,
    tenant: (name, options = {}) =>
      ensureTenant(database.db, {
        name,
        features: options.features ?? ALL_ON,
        users: options.users ?? STANDARD_USERS,
        emailDomain: `${name.toLowerCase().replace(/[^a-z0-9]/g, '')}.test`,
        password: TEST_PASSWORD,
        pauses: ['Lunch', 'Coffee'],
        sectors: ['Support', 'Sales'],
      }),
    async login(email, password = TEST_PASSWORD) {
      const res = await http.post('/api/v1/login').type('form').send({ email, password });
      if (res.status !== 200) throw new Error(`login ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.token as string;
    },
    client: (token) => createClient({ baseUrl: url, token }),
    async close() {
      await built.app.close();
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== '0');
      redis.disconnect();
      await database.drop();
    },
  };
  return testApp;
}
