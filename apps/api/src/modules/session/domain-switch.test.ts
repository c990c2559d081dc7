import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

// GET /sso/domain_switch/jwt gives a signed-in user a token
// that /ssoload on another domain of the deployment turns into a session of the same user: once,
// within 60 s.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;

const getJwt = (token: string, page?: string) =>
  t.http.get(`/sso/domain_switch/jwt${page ? `?page=${encodeURIComponent(page)}` : ''}`).set('Authorization', `Bearer ${token}`);
const useJwt = (value: string) => t.http.post('/api/v1/login/sso').type('form').send({ jwt: value });

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme');
});
afterAll(() => t.close());

describe('domain switch token', () => {
  it('answers 401 without a session', async () => {
    const res = await t.http.get('/sso/domain_switch/jwt');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'unauthorized', error_message: expect.any(String) });
  });

  it('signs the same user in once; the second use answers 401', async () => {
    const res = await getJwt(await t.login('agent@acme.test'), '/app/chat-history');
    expect(res.status).toBe(200);
    const { jwt: token, expires_in, ssoload_path } = res.body.data as { jwt: string; expires_in: number; ssoload_path: string };
    expect(expires_in).toBe(60);
    const path = new URL(ssoload_path, 'http://x');
    expect(path.pathname).toBe('/ssoload');
    expect(path.searchParams.get('jwt')).toBe(token);
    expect(path.searchParams.get('page')).toBe('/app/chat-history');

    const first = await useJwt(token);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ uuid: acme.users.agent!.uuid, tenant: { uuid: acme.tenantId } });
    expect(String(first.headers['set-cookie'])).toContain('atende_session=');
    const me = await t.http.get('/api/v1/users/me').set('Authorization', `Bearer ${first.body.token}`);
    expect(me.body.data.email).toBe('agent@acme.test');

    const again = await useJwt(token);
    expect(again.status).toBe(401);
    expect(again.body).toMatchObject({ code: 'sign_in_link_invalid', error_message: 'This sign-in link is invalid or has expired' });
  });

  it('refuses an expired token, even one never used', async () => {
    const token = (await getJwt(await t.login('supervisor@acme.test'))).body.data.jwt as string;
    const { jti, exp } = jwt.decode(token) as { jti: string; exp: number; iat: number };
    expect(exp - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(60);
    // The same claims signed as if issued two minutes ago (exp passed), its jti still unused in Redis.
    const stale = jwt.sign(
      { sub: acme.users.supervisor!.uuid, tid: acme.tenantId, iat: Math.floor(Date.now() / 1000) - 120 },
      t.env.JWT_SECRET,
      {
        algorithm: 'HS256',
        audience: 'atende-domain-switch',
        issuer: 'atende-api',
        expiresIn: 60,
        jwtid: jti,
      },
    );
    const res = await useJwt(stale);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('sign_in_link_invalid');
    // The jti the api stored expires with the token too.
    const ttl = await t.redis.ttl(`${t.env.REDIS_PREFIX}domain-switch:${jti}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
  });

  it('refuses a session token, a forged token and a token the api never issued', async () => {
    const session = await t.login('manager@acme.test');
    const forged = jwt.sign({ sub: acme.users.owner!.uuid, tid: acme.tenantId }, 'x'.repeat(64), {
      audience: 'atende-domain-switch',
      issuer: 'atende-api',
      expiresIn: 60,
      jwtid: crypto.randomUUID(),
    });
    // Well signed with the real secret, but its jti was never handed out (not in Redis).
    const unissued = jwt.sign({ sub: acme.users.owner!.uuid, tid: acme.tenantId }, t.env.JWT_SECRET, {
      audience: 'atende-domain-switch',
      issuer: 'atende-api',
      expiresIn: 60,
      jwtid: crypto.randomUUID(),
    });
    for (const value of [session, forged, unissued]) {
      const res = await useJwt(value);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('sign_in_link_invalid');
    }
    for (const body of [{}, { jwt: 'short' }, { jwt: 'x'.repeat(5000) }]) {
      const res = await t.http.post('/api/v1/login/sso').type('form').send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error_message).toBeTruthy();
    }
  });

  it('refuses a page that leaves the app', async () => {
    const token = await t.login('admin@acme.test');
    for (const page of ['//evil.test/x', 'https://evil.test']) {
      const res = await getJwt(token, page);
      expect(res.status).toBe(400);
    }
  });

  it('is not given to an integration API token', async () => {
    const made = await t.http
      .post('/api/v1/oauth/tokens')
      .set('Authorization', `Bearer ${await t.login('owner@acme.test')}`)
      .send({ client_name: 'Zapier' });
    expect(made.status).toBe(201);
    const res = await getJwt(made.body.access_token as string);
    expect(res.status).toBe(403);
    expect(res.body.error_message).toBe('API tokens cannot switch domains');
  });
});
