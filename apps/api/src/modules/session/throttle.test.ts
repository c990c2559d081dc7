import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

// Login throttling (ARCHITECTURE "Redis for ... rate limits"): failed sign-ins are counted per
// account and per client IP; past either limit the answer is 429 code rate_limited, before any
// password is checked.
let direct: TestApp;
let proxied: TestApp;

const login = (app: TestApp, email: string, password: string, forwardedFor?: string) => {
  const req = app.http.post('/api/v1/login').type('form');
  if (forwardedFor) req.set('X-Forwarded-For', forwardedFor);
  return req.send({ email, password });
};

beforeAll(async () => {
  direct = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_ACCOUNT: '3', LOGIN_MAX_ATTEMPTS_PER_IP: '5' });
  await direct.tenant('Acme');
  // A second instance on the same database and Redis, deployed behind a proxy at 127.0.0.1.
  proxied = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_ACCOUNT: '3', LOGIN_MAX_ATTEMPTS_PER_IP: '5', TRUST_PROXY: '127.0.0.1' }, { shareWith: direct });
});
afterAll(async () => {
  await proxied?.close();
  await direct?.close();
});

describe('login throttling', () => {
  it('blocks an account after its failures, whatever the IP, and leaves other accounts alone', async () => {
    for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) expect((await login(proxied, 'owner@acme.test', 'wrong', ip)).status).toBe(401);
    const blocked = await login(proxied, 'owner@acme.test', 'secret123', '10.0.0.4');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: 'rate_limited', error_message: expect.any(String) });
    // The same account on the other instance: the counter lives in Redis, shared.
    expect((await login(direct, 'OWNER@acme.test', 'secret123')).status).toBe(429);
    expect((await login(proxied, 'admin@acme.test', 'secret123', '10.0.0.4')).status).toBe(200);
  });

  it('blocks an IP that fails across many accounts, while other IPs still sign in', async () => {
    const ip = '10.9.9.9';
    for (const email of ['agent@acme.test', 'agent2@acme.test', 'supervisor@acme.test', 'manager@acme.test', 'nobody@acme.test']) {
      expect((await login(proxied, email, 'wrong', ip)).status, email).toBe(401);
    }
    // Right password, untouched account: refused, because of the IP.
    const res = await login(proxied, 'campaigns@acme.test', 'secret123', ip);
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('rate_limited');
    expect((await login(proxied, 'campaigns@acme.test', 'secret123', '10.9.9.10')).status).toBe(200);
  });

  // Trusting X-Forwarded-For from anybody would let each attempt claim a new IP.
  it('ignores X-Forwarded-For from a client that is not a trusted proxy', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await login(direct, `ghost${i}@acme.test`, 'wrong', `203.0.113.${i}`);
      expect(res.status).toBe(401);
    }
    const res = await login(direct, 'tenants@acme.test', 'secret123', '203.0.113.200');
    expect(res.status).toBe(429);
    const rows = await direct.database.db.userSession.count({ where: { user: { email: 'tenants@acme.test' } } });
    expect(rows).toBe(0);
  });

  it('throttles one-time login codes per IP too', async () => {
    const ip = '10.7.7.7';
    // A code has no account: the IP is its account, so the smaller (per-account) limit applies.
    for (let i = 0; i < 3; i++) {
      const res = await proxied.http.post('/api/v1/login/code').type('form').set('X-Forwarded-For', ip).send({ login_code: `guess-${i}-${'x'.repeat(20)}` });
      expect(res.status).toBe(401);
    }
    const res = await proxied.http.post('/api/v1/login/code').type('form').set('X-Forwarded-For', ip).send({ login_code: 'y'.repeat(32) });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('rate_limited');
  });
});
