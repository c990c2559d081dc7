import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, TEST_PASSWORD, type TestApp } from './testing';

// During a Redis outage /api/health, login and livechat calls hung over 10 s. They
// must answer within a second (503, naming the dependency) and recover by themselves. The test runs
// a redis-server of its own on a free port, stops it and starts it again under the running api.
let t: TestApp;
let redis: ChildProcess | null = null;
let port = 0;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const found = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(found));
    });
  });
}

async function startRedis(): Promise<void> {
  redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  // Listening once the port can no longer be bound here.
  const taken = () =>
    new Promise<boolean>((resolve) => {
      const socket = createServer().listen(port, '127.0.0.1');
      socket.once('listening', () => socket.close(() => resolve(false)));
      socket.once('error', () => resolve(true));
    });
  await vi.waitFor(async () => expect(await taken(), 'redis-server listening').toBe(true), { timeout: 10_000 });
}
async function stopRedis(): Promise<void> {
  const child = redis;
  redis = null;
  if (!child || child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = Date.now();
  const value = await fn();
  return { value, ms: Date.now() - start };
}

beforeAll(async () => {
  port = await freePort();
  await startRedis();
  t = await startTestApp({ REDIS_URL: `redis://127.0.0.1:${port}` });
  await t.tenant('Acme');
});
afterAll(async () => {
  if (!redis) await startRedis();
  await t?.close();
  await stopRedis();
});

describe('a Redis outage', () => {
  it('answers health, login and the livechat widget with a clear 503 within a second, then recovers by itself', async () => {
    expect((await t.http.get('/api/health')).status).toBe(200);
    await stopRedis();

    const health = await timed(() => t.http.get('/api/health'));
    expect(health.value.status).toBe(503);
    expect(health.value.body).toMatchObject({ code: 'dependency_unavailable', params: { dependency: 'redis' } });
    expect(health.ms).toBeLessThan(1500);

    const login = await timed(() => t.http.post('/api/v1/login').type('form').send({ email: 'agent@acme.test', password: TEST_PASSWORD }));
    expect(login.value.status).toBe(503);
    expect(login.value.body.code).toBe('dependency_unavailable');
    expect(login.ms).toBeLessThan(1500);

    const widget = await timed(() =>
      t.http.post('/api/v1/livechat/517e0c4a-0000-4000-8000-00000000c4a7/sessions').send({ name: 'Ana', custom_fields: {} }),
    );
    expect(widget.value.status).toBe(503);
    expect(widget.ms).toBeLessThan(1500);

    await startRedis();
    await expect.poll(async () => (await t.http.get('/api/health')).status, { timeout: 15_000, interval: 200 }).toBe(200);
    expect((await t.http.post('/api/v1/login').type('form').send({ email: 'agent@acme.test', password: TEST_PASSWORD })).status).toBe(200);
  });
});
