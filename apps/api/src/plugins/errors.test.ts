import { routes, type RouteDef } from '@atende/contract';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing';

// Every route answers bad input with a 4xx carrying
// `error_message` and `code`, never a 500, and nothing stored changes.
// Table-driven over `routes`, so a route added to the contract is covered here too.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let admin: string;

const all = Object.entries(routes) as [string, RouteDef][];
const authed = all.filter(([, r]) => r.auth !== false);
const withBody = all.filter(([, r]) => r.body && r.bodyEncoding !== 'multipart');
const withParams = all.filter(([, r]) => r.path.includes(':'));

/** The route's path with every parameter set to `value` (default: a valid id of the caller's). */
function pathOf(route: RouteDef, value?: string): string {
  return route.path.replace(/:([A-Za-z_]+)/g, (_, name: string) =>
    encodeURIComponent(value ?? (name === 'id' && route.path.includes('/tenants/') ? acme.tenantId : String(acme.users.agent2!.id))),
  );
}
function request(route: RouteDef, path = pathOf(route)) {
  return t.http[route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete'](path);
}
function expectClientError(
  res: { status: number; body: { error_message?: unknown; code?: unknown } },
  status: number | number[],
  label: string,
) {
  expect(Array.isArray(status) ? status : [status], `${label} → ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
  expect(typeof res.body.error_message, label).toBe('string');
  expect(typeof res.body.code, label).toBe('string');
}
const snapshot = async () => ({
  users: await t.database.db.user.findMany({ orderBy: { id: 'asc' } }),
  sessions: await t.database.db.userSession.findMany({ where: { revokedAt: { not: null } }, orderBy: { id: 'asc' } }),
  tenants: await t.database.db.tenant.findMany({ orderBy: { id: 'asc' } }),
  workspaces: await t.database.db.workspace.findMany({ orderBy: { id: 'asc' } }),
});

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme');
  admin = await t.login('admin@acme.test');
});
afterAll(() => t.close());

describe('tokens, on every route that needs a session', () => {
  it('answers 401 without a token or with a bad one: garbage, forged, alg none, another algorithm, expired, revoked, mismatched', async () => {
    const good = await t.login('agent@acme.test');
    const claims = jwt.decode(good) as { sid: string; sub: string; tid: string };
    const opts = { audience: 'atende-web', issuer: 'atende-api' };
    const base = { sid: claims.sid, sub: claims.sub, tid: claims.tid };
    const revoked = await t.login('agent@acme.test');
    await t.http.post('/api/v1/logout').set('Authorization', `Bearer ${revoked}`).type('form').send({});
    const tokens: Record<string, string | undefined> = {
      none: undefined,
      empty: '',
      garbage: 'garbage',
      forged: jwt.sign(base, 'z'.repeat(48), opts),
      algNone: jwt.sign(base, '', { ...opts, algorithm: 'none' }),
      hs512: jwt.sign(base, t.env.JWT_SECRET, { ...opts, algorithm: 'HS512' }),
      hs384: jwt.sign(base, t.env.JWT_SECRET, { ...opts, algorithm: 'HS384' }),
      expired: jwt.sign({ ...base, exp: Math.floor(Date.now() / 1000) - 60 }, t.env.JWT_SECRET, opts),
      notYet: jwt.sign({ ...base, nbf: Math.floor(Date.now() / 1000) + 3600 }, t.env.JWT_SECRET, opts),
      wrongIssuer: jwt.sign(base, t.env.JWT_SECRET, { ...opts, issuer: 'someone' }),
      badClaims: jwt.sign({ sid: 'x', sub: 1, tid: null }, t.env.JWT_SECRET, opts),
      otherUser: jwt.sign({ ...base, sub: acme.users.admin!.uuid }, t.env.JWT_SECRET, opts),
      otherTenant: jwt.sign({ ...base, tid: crypto.randomUUID() }, t.env.JWT_SECRET, opts),
      unknownSession: jwt.sign({ ...base, sid: crypto.randomUUID() }, t.env.JWT_SECRET, opts),
      revoked,
    };
    const before = await snapshot();
    for (const [name, route] of authed) {
      for (const [kind, token] of Object.entries(tokens)) {
        const req = request(route);
        if (token !== undefined) req.set('Authorization', `Bearer ${token}`);
        const res = await req;
        expectClientError(res, 401, `${name} with ${kind} token`);
        expect(['unauthorized', 'session_expired', 'session_ended', 'session_token_invalid']).toContain(res.body.code);
      }
      // A cookie that is not a session is no session either.
      expectClientError(await request(route).set('Cookie', 'atende_session=abc.def.ghi'), 401, `${name} with a bad cookie`);
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe('bodies, on every route that takes one', () => {
  it('answers 400 for malformed JSON, JSON that is not an object, and unknown fields', async () => {
    const before = await snapshot();
    for (const [name, route] of withBody) {
      const auth = { Authorization: `Bearer ${admin}` };
      const deep = (n: number) => `{"integrations":{"x":${'['.repeat(n)}${']'.repeat(n)}},"flags":{}}`;
      for (const raw of [
        '{"a":',
        '{bad json}',
        '\u0000',
        '{"__proto__":{"x":1}}',
        '{"constructor":{"prototype":{"x":1}}}',
        deep(40),
        deep(100_000),
      ]) {
        const res = await request(route).set(auth).set('content-type', 'application/json').send(raw);
        expectClientError(res, 400, `${name} with ${JSON.stringify(raw).slice(0, 60)}`);
      }
      // logout's body is optional: null is no body and signs out (see 'order of checks').
      for (const raw of name === 'logout' ? ['[]', '"text"', '42'] : ['[]', '"text"', '42', 'null']) {
        const res = await request(route).set(auth).set('content-type', 'application/json').send(raw);
        expectClientError(res, 400, `${name} with ${raw}`);
      }
      if (route.bodyEncoding !== 'form') {
        // Strict bodies (z.strictObject): an unknown field is refused, not silently dropped.
        const res = await request(route).set(auth).send({ unknown_field: 1 });
        expectClientError(res, 400, `${name} with an unknown field`);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('answers 413 for a body over the limit and 415 for a content type nobody parses', async () => {
    const before = await snapshot();
    for (const [name, route] of withBody) {
      const auth = { Authorization: `Bearer ${admin}` };
      // Over the route's own limit where it has one (voice notes take 8 MB), else over the default.
      const over = (route.bodyLimit ?? 1024 * 1024) + 1024 * 1024;
      const huge = route.bodyEncoding === 'form' ? `email=${'a'.repeat(200_000)}&password=x` : JSON.stringify({ name: 'x'.repeat(over) });
      const big = await request(route)
        .set(auth)
        .set('content-type', route.bodyEncoding === 'form' ? 'application/x-www-form-urlencoded' : 'application/json')
        .send(huge);
      expectClientError(big, 413, `${name} oversize`);
      expect(big.body.code).toBe('payload_too_large');
      const xml = await request(route).set(auth).set('content-type', 'application/xml').send('<a/>');
      expectClientError(xml, 415, `${name} xml`);
      if (route.bodyEncoding !== 'form') {
        // What a cross-site page can send without a preflight: refused on JSON routes.
        for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
          const res = await request(route)
            .set(auth)
            .set('content-type', type)
            .send(type.startsWith('multipart') ? '--x--' : 'name=pwned');
          expectClientError(res, 415, `${name} as ${type}`);
          expect(res.body.code).toBe('unsupported_media_type');
        }
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('answers 400 for form-encoded sign-ins with missing, repeated or oversize fields', async () => {
    for (const body of [
      '',
      'email=&password=',
      'email=a@b.c',
      'email=a&email=b&password=x',
      `email=a@b.c&password=${'p'.repeat(600)}`,
      'email[$ne]=x&password[$ne]=y',
    ]) {
      const res = await t.http.post('/api/v1/login').set('content-type', 'application/x-www-form-urlencoded').send(body);
      expectClientError(res, 400, `login ${body.slice(0, 40)}`);
    }
  });
});

describe('text Postgres cannot store', () => {
  // NUL is refused by text and jsonb columns, an unpaired surrogate by jsonb: without a guard
  // these reached Postgres and answered 500.
  it('answers 400 for NUL characters and broken Unicode in bodies, keys and queries, and changes nothing', async () => {
    const auth = { Authorization: `Bearer ${admin}` };
    const before = await snapshot();
    const calls = [
      t.http.post('/api/v1/login').type('form').send({ email: 'a\u0000b@acme.test', password: 'x' }),
      t.http.patch('/api/v1/workspaces/me').set(auth).send({ name: 'a\u0000b' }),
      t.http
        .patch('/api/v1/workspaces/me')
        .set(auth)
        .send({ integrations: { crm: 'a\u0000b' } }),
      t.http
        .patch('/api/v1/workspaces/me')
        .set(auth)
        .send({ integrations: { 'k\u0000': 1 } }),
      t.http.patch('/api/v1/workspaces/me').set(auth).set('content-type', 'application/json').send('{"integrations":{"x":"a\\ud800b"}}'),
      t.http.patch('/api/v1/workspaces/me').set(auth).set('content-type', 'application/json').send('{"name":"\\udc00"}'),
      t.http.post(`/api/v1/tenants/${acme.tenantId}/configure`).set(auth).send({ name: 'a\u0000b' }),
      t.http
        .post(`/api/v1/tenants/${acme.tenantId}/configure`)
        .set(auth)
        .send({ flags: { note: 'a\u0000b' } }),
      t.http.get('/api/v1/users').query({ role: 'agent\u0000' }).set(auth),
    ];
    for (const [i, res] of (await Promise.all(calls)).entries()) {
      expectClientError(res, 400, `call ${i}`);
      expect(res.body.code, `call ${i}`).toBe('text_invalid_characters');
    }
    expect(await snapshot()).toEqual(before);
    // Well-formed text outside the BMP is fine.
    const ok = await t.http
      .patch('/api/v1/workspaces/me')
      .set(auth)
      .send({ integrations: { note: 'Atendimento 😀 ção' } });
    expect(ok.status).toBe(200);
    expect(ok.body.data.integrations.note).toBe('Atendimento 😀 ção');
  });
});

describe('order of checks', () => {
  it('answers 403 to a caller without the role before looking at the body', async () => {
    const agent = await t.login('agent@acme.test');
    const res = await t.http
      .post(`/api/v1/tenants/${acme.tenantId}/configure`)
      .set('Authorization', `Bearer ${agent}`)
      .set('content-type', 'application/json')
      .send('{"name": ');
    expectClientError(res, 403, 'configure by an agent');
    expect(res.body.code).toBe('forbidden');
  });

  it('signs out with no body at all (the body of logout is optional)', async () => {
    const token = await t.login('agent@acme.test');
    expect((await t.http.post('/api/v1/logout').set('Authorization', `Bearer ${token}`)).status).toBe(200);
    expect((await t.http.get('/api/v1/users/me').set('Authorization', `Bearer ${token}`)).status).toBe(401);
  });
});

describe('path parameters', () => {
  it('answers 400 for invalid ids on every route with one', async () => {
    const before = await snapshot();
    for (const [name, route] of withParams) {
      for (const bad of [
        'abc',
        '-1',
        '1.5',
        '1e3',
        '9999999999',
        'x'.repeat(300),
        "1' OR '1'='1",
        '00000000-0000-0000-0000-00000000000g',
        '../users/me',
      ]) {
        const res = await request(route, pathOf(route, bad))
          .set('Authorization', `Bearer ${admin}`)
          .send(route.body ? {} : undefined);
        expectClientError(res, [400, 404], `${name} ${bad}`);
        if (res.status === 404) expect(res.body.code).toBe('not_found');
      }
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe('unknown routes and methods', () => {
  it('answers 400 with the error body for a URL the router cannot read', async () => {
    for (const path of ['/api/v1/users/%zz', '/api/v1/tenants/%E0%A4%A']) {
      const res = await t.http.get(path).set('Authorization', `Bearer ${admin}`);
      expectClientError(res, 400, path);
    }
  });

  it('answers 404 with the error body', async () => {
    for (const [method, path] of [
      ['get', '/api/v1/nope'],
      ['put', '/api/v1/users/me'],
      ['delete', '/api/v1/tenants/me'],
    ] as const) {
      const res = await t.http[method](path).set('Authorization', `Bearer ${admin}`);
      expectClientError(res, 404, `${method} ${path}`);
    }
  });
});
