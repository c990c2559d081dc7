import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { ErrorCodeSchema, FEATURE_FLAGS, type ErrorBody, type FeatureFlag, type Role } from '@atende/contract';
import type { ClientToServerEvents, ServerEventName, ServerEventPayload, ServerToClientEvents } from '@atende/contract';
import { createDb, ensureTenant, type CreatedTenant } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { createClient } from '@atende/sdk';
import argon2 from 'argon2';
import { Redis } from 'ioredis';
import { io as ioClient, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import supertest from 'supertest';
import { buildApp, type BuiltApp } from './app';
import { loadEnv, type Env } from './env';
import { routeErrorCodes } from './plugins/openapi';

export const TEST_PASSWORD = 'secret123';

export interface TestApp extends BuiltApp {
  url: string;
  env: Env;
  database: TestDatabase;
  http: ReturnType<typeof supertest>;
  /** Creates a tenant with one user per role in `users` (email <name>@<tenant>.test, TEST_PASSWORD). */
  tenant(
    name: string,
    options?: { features?: Partial<Record<FeatureFlag, boolean>>; users?: Record<string, Role[]> },
  ): Promise<CreatedTenant>;
  /** Signs in over HTTP and returns the bearer token. */
  login(email: string, password?: string): Promise<string>;
  /** A typed sdk client bound to a token. */
  client(token?: string): ReturnType<typeof createClient>;
  /** A socket.io client on this app's /socket, websocket only, not yet connected (see `connected`). */
  socket(token: string | undefined, options?: Partial<ManagerOptions & SocketOptions>): TestSocket;
  /** A raw Redis connection (same server), for tests that act as another process. */
  redis: Redis;
  close(): Promise<void>;
}

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface StartOptions {
  /**
   * Starts a second api instance on the database and Redis prefix of `shareWith` (two processes
   * behind a load balancer). Closing it leaves the shared database and keys alone.
   */
  shareWith?: TestApp;
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

/** A port nobody listens on at this moment. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

let testHash: Promise<string> | undefined;
function cheapTestHash(): Promise<string> {
  testHash ??= argon2.hash(TEST_PASSWORD, { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 });
  return testHash;
}

/** The `code` of an ErrorBody sent as `payload`, if it is one. */
function errorCodeOf(payload: string): string | undefined {
  try {
    const body: unknown = JSON.parse(payload);
    const code = typeof body === 'object' && body !== null && 'error_message' in body && 'code' in body ? body.code : undefined;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Holds every error answer of the test app to its route's OpenAPI error responses (routeErrorCodes:
 * the general codes of the route's shape and its contract's `errors`), so the document lists what
 * the api really answers. An answer whose `code` is not listed is turned into a 500 naming the route
 * and the code, and is kept in the returned list (close() fails with it). With
 * ATENDE_RECORD_ERROR_CODES=<file>, nothing is refused: each error answer is appended to the file
 * as a JSON line {method, url, status, code, declared}, to see what the tests reach.
 * Routes the document does not describe (no schema: provider webhooks, the web app's files) and
 * answers of no route (an unknown path) are not checked.
 */
export function checkErrorCodes(app: BuiltApp['app'], record: string | null = process.env.ATENDE_RECORD_ERROR_CODES ?? null): string[] {
  const undeclared: string[] = [];
  app.addHook('onSend', async (request, reply, payload) => {
    const { schema, url, method, config } = request.routeOptions;
    if (reply.statusCode < 400 || typeof payload !== 'string' || !schema || schema.hide || !url) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    const code = errorCodeOf(payload);
    if (code === undefined) return payload;
    const known = ErrorCodeSchema.safeParse(code);
    const declared = known.success && routeErrorCodes(schema, { method, config }).get(reply.statusCode)?.has(known.data) === true;
    if (record) {
      appendFileSync(record, `${JSON.stringify({ method, url, status: reply.statusCode, code, declared })}\n`);
      return payload;
    }
    if (declared) return payload;
    const problem = `${String(method)} ${url} answered ${reply.statusCode} ${code}, which its OpenAPI error responses do not list: add it to the contract route's errors`;
    undeclared.push(problem);
    void reply.status(500);
    return JSON.stringify({ error_message: problem, code: 'internal', request_id: request.id } satisfies ErrorBody);
  });
  return undeclared;
}

/** The real api on a random port, with a database of its own and its own Redis key prefix. */
export async function startTestApp(overrides: Partial<Record<string, string>> = {}, options: StartOptions = {}): Promise<TestApp> {
  const shared = options.shareWith;
  const database: TestDatabase = shared
    ? { url: shared.database.url, db: createDb(shared.database.url, { poolSize: 5 }), drop: async () => undefined }
    : await createTestDatabase();
  const prefix = shared ? shared.env.REDIS_PREFIX : `atende-test:${randomBytes(5).toString('hex')}:`;
  // As `pnpm start` does, the app is told its public address from the port it serves
  // (webhook addresses and Twilio signatures use PUBLIC_URL, never a request's Host). A port free a
  // moment ago may be taken by another test file meanwhile: then another one is tried.
  const started = await (async () => {
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const env = loadEnv({
        NODE_ENV: 'test',
        DATABASE_URL: database.url,
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        REDIS_PREFIX: prefix,
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
        WEB_DIST: '/nonexistent',
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        ...overrides,
      });
      const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
      // Outage tests stop Redis under the app: reconnection attempts are expected, not failures.
      redis.on('error', () => undefined);
      const built = await buildApp({ env, db: database.db, redis });
      const undeclared = checkErrorCodes(built.app);
      try {
        await built.app.listen({ port, host: '127.0.0.1' });
        return { env, redis, built, port, undeclared };
      } catch (error) {
        await built.app.close();
        redis.disconnect();
        if (attempt >= 5 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      }
    }
  })();
  const { env, redis, built, port, undeclared } = started;
  // An undeclared error code fails the file when it closes its app, even when no test looked at that answer.
  const refuseUndeclared = () => {
    if (undeclared.length) throw new Error(`Error codes not in the OpenAPI document:\n${[...new Set(undeclared)].join('\n')}`);
  };
  const url = `http://127.0.0.1:${port}`;
  const http = supertest(url);
  const testApp: TestApp = {
    ...built,
    url,
    env,
    database,
    http,
    async tenant(name, options = {}) {
      const since = new Date(Date.now() - 1000);
      const created = await ensureTenant(database.db, {
        name,
        features: options.features ?? ALL_ON,
        users: options.users ?? STANDARD_USERS,
        emailDomain: `${name.toLowerCase().replace(/[^a-z0-9]/g, '')}.test`,
        password: TEST_PASSWORD,
        pauses: ['Lunch', 'Coffee'],
        sectors: ['Support', 'Sales'],
      });
      // Fixture users get a low-cost argon2id hash of the same password: every sign-in still goes
      // through argon2 verification, in about a millisecond instead of ~40 ms (suite speed only).
      await database.db.user.updateMany({
        where: { tenantId: created.tenantId, createdAt: { gte: since }, id: { in: Object.values(created.users).map((u) => u.id) } },
        data: { passwordHash: await cheapTestHash() },
      });
      return created;
    },
    async login(email, password = TEST_PASSWORD) {
      const res = await http.post('/api/v1/login').type('form').send({ email, password });
      if (res.status !== 200) throw new Error(`login ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.token as string;
    },
    client: (token) => createClient({ baseUrl: url, token }),
    socket: (token, socketOptions = {}) =>
      ioClient(url, {
        path: '/socket',
        transports: ['websocket'],
        auth: token ? { token } : {},
        reconnection: false,
        autoConnect: false,
        forceNew: true,
        timeout: 4000,
        ...socketOptions,
      }),
    redis,
    async close() {
      await built.app.close();
      if (shared) {
        redis.disconnect();
        await database.db.$disconnect();
        refuseUndeclared();
        return;
      }
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== '0');
      redis.disconnect();
      await database.drop();
      refuseUndeclared();
    },
  };
  return testApp;
}

/** The next `event` on `socket` whose payload satisfies `match`; rejects after `timeoutMs`. */
export function nextEvent<E extends ServerEventName>(
  socket: TestSocket,
  event: E,
  match: (payload: ServerEventPayload<E>) => boolean = () => true,
  timeoutMs = 5000,
): Promise<ServerEventPayload<E>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      (socket as unknown as Socket).off(event as string, listener);
      reject(new Error(`no ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (raw: unknown) => {
      const payload = raw as ServerEventPayload<E>;
      if (!match(payload)) return;
      clearTimeout(timer);
      (socket as unknown as Socket).off(event as string, listener);
      resolve(payload);
    };
    (socket as unknown as Socket).on(event as string, listener);
  });
}

/** Resolves once the socket is connected; rejects with the server's reason on connect_error. */
export function connected(socket: TestSocket, timeoutMs = 5000): Promise<TestSocket> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not connected within ${timeoutMs} ms`)), timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('connect_error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    if (!socket.connected) socket.connect();
  });
}

/** The error a connection attempt ends with (connect_error), or a failure if it connects. */
export function refused(socket: TestSocket, timeoutMs = 5000): Promise<Error> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`neither refused nor connected within ${timeoutMs} ms`)), timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.disconnect();
      reject(new Error('the connection was accepted'));
    });
    socket.once('connect_error', (error) => {
      clearTimeout(timer);
      resolve(error);
    });
    if (!socket.connected) socket.connect();
  });
}

/** Sends a client event with an ack and resolves with the ack's value. */
export function emitWithAck<T>(socket: TestSocket, event: 'join' | 'leave', payload: unknown, timeoutMs = 5000): Promise<T> {
  return (socket as unknown as Socket).timeout(timeoutMs).emitWithAck(event, payload) as Promise<T>;
}
