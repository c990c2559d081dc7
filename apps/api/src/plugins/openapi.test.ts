import { routes, type RouteDef } from '@atende/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing';

// CONVENTIONS "Contract first": OpenAPI is generated from the contract and served at /api/docs.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme');
});
afterAll(() => t.close());

describe('GET /api/docs/json', () => {
  it('lists every route of the contract with its method, summary and success response', async () => {
    const res = await t.http.get('/api/docs/json');
    expect(res.status).toBe(200);
    const paths = res.body.paths as Record<string, Record<string, { summary?: string; responses?: Record<string, unknown> }>>;
    const missing: string[] = [];
    for (const [name, route] of Object.entries(routes) as [string, RouteDef][]) {
      const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      const op = paths[path]?.[route.method.toLowerCase()];
      if (!op) {
        missing.push(`${name}: ${route.method} ${path}`);
        continue;
      }
      expect(op.summary, name).toBe(route.summary);
      if (route.response) expect(Object.keys(op.responses ?? {}), name).toContain(String(route.status ?? 200));
    }
    expect(missing).toEqual([]);
  });

  it('documents the bearer and cookie sessions, and login as open', async () => {
    const res = await t.http.get('/api/docs/json');
    expect(Object.keys(res.body.components.securitySchemes)).toEqual(expect.arrayContaining(['bearer', 'cookie']));
    expect(res.body.paths['/api/v1/login'].post.security).toEqual([]);
    expect(res.body.paths['/api/v1/users/me'].get.security).toEqual([{ bearer: [] }, { cookie: [] }]);
  });
});

describe('GET /api/health', () => {
  it('answers without a session that Postgres and Redis are reachable', async () => {
    const res = await t.http.get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', postgres: true, redis: true, version: expect.any(String) });
  });
});

describe('password hashes', () => {
  // A password hash must never leave the server, whatever the call.
  it('never appear in any answer', async () => {
    const bodies: unknown[] = [];
    const login = await t.http.post('/api/v1/login').type('form').send({ email: 'admin@acme.test', password: 'secret123' });
    bodies.push(login.body, login.headers);
    const admin = login.body.token as string;
    const supervisor = await t.login('supervisor@acme.test');
    const agent = await t.login('agent@acme.test');
    const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
    bodies.push(
      (await t.http.get('/api/v1/users/me').set(auth(admin))).body,
      (await t.http.get('/api/v1/users').set(auth(admin))).body,
      (await t.http.patch('/api/v1/users/me').set(auth(agent)).send({ current_pause_uuid: acme.pauses[0]!.id })).body,
      (await t.http.patch(`/api/v1/users/${acme.users.supervisor!.id}`).set(auth(supervisor)).send({ password: 'newpass123', old_password: 'secret123' })).body,
      (await t.http.patch(`/api/v1/users/${acme.users.agent2!.id}`).set(auth(supervisor)).send({ state: 'offline' })).body,
      (await t.http.patch(`/api/v1/users/${acme.users.agent!.id}`).set(auth(agent)).send({ password: 'x', old_password: 'y' })).body,
      (await t.http.get('/api/v1/users/me/login_qr_code').set(auth(agent))).body,
      (await t.http.get('/api/v1/tenants/me').set(auth(admin))).body,
      (await t.http.get('/api/v1/workspaces/me').set(auth(admin))).body,
      (await t.http.post('/api/v1/login').type('form').send({ email: 'admin@acme.test', password: 'wrong' })).body,
    );
    const text = JSON.stringify(bodies);
    expect(text).not.toMatch(/argon2|password_?hash/i);
    expect(text).not.toContain('secret123');
  });
});
