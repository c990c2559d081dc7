import { routes, type RouteDef } from '@atende/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing';

// OpenAPI is generated from the contract and served at /api/docs.
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

  it("lists each operation's error answers: the ErrorBody with the codes it can carry", async () => {
    const res = await t.http.get('/api/docs/json');
    type Op = {
      responses: Record<string, { description?: string; content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> }>;
    };
    const op = (path: string, method: string) => (res.body.paths as Record<string, Record<string, Op>>)[path]![method]!;
    const remove = op('/api/v1/users/{id}', 'delete').responses;
    // A session route with a path id: validation, session, permission and unknown id, plus its own codes.
    expect(Object.keys(remove)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404']));
    expect(remove['404']!.description).toContain('user_not_found');
    expect(remove['400']!.description).toContain('own_user_kept');
    expect(remove['403']!.description).toContain('owner_remove_owner_only');
    expect(Object.keys(remove['404']!.content!['application/json']!.schema!.properties!)).toEqual(
      expect.arrayContaining(['error_message', 'code', 'params', 'fields']),
    );
    expect(op('/api/v1/bots', 'post').responses['409']!.description).toContain('bot_name_taken');
    expect(Object.keys(op('/api/v1/users', 'post').responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '409']));
    // An open route answers no permission failure; its 401 and 429 are its own codes.
    const login = op('/api/v1/login', 'post').responses;
    expect(Object.keys(login)).not.toContain('403');
    expect(login['401']!.description).toBe('Error. Codes: invalid_credentials');
    expect(login['429']!.description).toBe('Error. Codes: login_rate_limited');
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
      (
        await t.http
          .patch(`/api/v1/users/${acme.users.supervisor!.id}`)
          .set(auth(supervisor))
          .send({ password: 'newpass123', old_password: 'secret123' })
      ).body,
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
