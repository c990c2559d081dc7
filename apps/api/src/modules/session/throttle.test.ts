import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

// Login throttling that cannot be turned into a lockout: failures are counted per
// account AND client IP, with a growing wait past the free attempts; an IP has a much higher ceiling
// over all accounts; a correct password from elsewhere is never refused for others' failures.
let direct: TestApp;
let proxied: TestApp;

const login = (app: TestApp, email: string, password: string, forwardedFor?: string) => {
  const req = app.http.post('/api/v1/login').type('form');
  if (forwardedFor) req.set('X-Forwarded-For', forwardedFor);
  return req.send({ email, password });
};
const limits = { LOGIN_FREE_ATTEMPTS_PER_PAIR: '3', LOGIN_MAX_ATTEMPTS_PER_IP: '6' };

beforeAll(async () => {
  direct = await startTestApp(limits);
  await direct.tenant('Acme');
  // A second instance on the same database and Redis, deployed behind a proxy at 127.0.0.1.
  proxied = await startTestApp({ ...limits, TRUST_PROXY: '127.0.0.1' }, { shareWith: direct });
});
afterAll(async () => {
  await proxied?.close();
  await direct?.close();
});

describe('login throttling', () => {
  it('never locks the real user out because an attacker guessed wrong from another IP', async () => {
    const attacker = '10.0.0.66';
    for (let i = 0; i < 3; i++) expect((await login(proxied, 'owner@acme.test', 'wrong', attacker)).status).toBe(401);
    const slowed = await login(proxied, 'owner@acme.test', 'secret123', attacker);
    expect(slowed.status).toBe(429);
    expect(slowed.body).toMatchObject({ code: 'login_rate_limited', error_message: expect.any(String) });
    expect(Number(slowed.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The owner, from the office: signs in at once, on either instance (the counters live in Redis).
    expect((await login(proxied, 'owner@acme.test', 'secret123', '10.0.0.1')).status).toBe(200);
    expect((await login(direct, 'OWNER@acme.test', 'secret123')).status).toBe(200);
  });

  it('makes each further try of the same account from the same IP wait twice as long', async () => {
    const ip = '10.0.1.1';
    for (let i = 0; i < 3; i++) expect((await login(proxied, 'agent@acme.test', 'wrong', ip)).status).toBe(401);
    const first = await login(proxied, 'agent@acme.test', 'wrong', ip);
    expect(first.status).toBe(429);
    expect(first.headers['retry-after']).toBe('1');
    // Letting the wait run out is the scenario itself (a try to find out when would count as a failure).
    await new Promise((r) => setTimeout(r, 1100));
    expect((await login(proxied, 'agent@acme.test', 'wrong', ip)).status).toBe(401);
    const second = await login(proxied, 'agent@acme.test', 'wrong', ip);
    expect(second.status).toBe(429);
    expect(second.headers['retry-after']).toBe('2');
    // The doubled wait runs out, as a real user would wait it out.
    await new Promise((r) => setTimeout(r, 2100));
    // After the wait, the right password goes through and clears the pair.
    expect((await login(proxied, 'agent@acme.test', 'secret123', ip)).status).toBe(200);
    expect((await login(proxied, 'agent@acme.test', 'wrong', ip)).status).toBe(401);
  });

  it('refuses an IP that fails over many accounts (spraying), while other IPs still sign in', async () => {
    const ip = '10.9.9.9';
    for (const email of [
      'agent2@acme.test',
      'supervisor@acme.test',
      'manager@acme.test',
      'nobody@acme.test',
      'ghost@acme.test',
      'admin@acme.test',
    ]) {
      expect((await login(proxied, email, 'wrong', ip)).status, email).toBe(401);
    }
    const res = await login(proxied, 'campaigns@acme.test', 'secret123', ip);
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('login_rate_limited');
    expect((await login(proxied, 'campaigns@acme.test', 'secret123', '10.9.9.10')).status).toBe(200);
  });

  // Trusting X-Forwarded-For from anybody would let each attempt claim a new IP.
  it('ignores X-Forwarded-For from a client that is not a trusted proxy', async () => {
    for (let i = 0; i < 3; i++) expect((await login(direct, 'tenants@acme.test', 'wrong', `203.0.113.${i}`)).status).toBe(401);
    // Every try came from 127.0.0.1 whatever the header said: the pair now waits.
    expect((await login(direct, 'tenants@acme.test', 'secret123', '203.0.113.200')).status).toBe(429);
    const rows = await direct.database.db.userSession.count({ where: { user: { email: 'tenants@acme.test' } } });
    expect(rows).toBe(0);
  });

  it('throttles one-time login codes per IP too', async () => {
    const ip = '10.7.7.7';
    for (let i = 0; i < 3; i++) {
      const res = await proxied.http
        .post('/api/v1/login/code')
        .type('form')
        .set('X-Forwarded-For', ip)
        .send({ login_code: `guess-${i}-${'x'.repeat(20)}` });
      expect(res.status).toBe(401);
    }
    const res = await proxied.http
      .post('/api/v1/login/code')
      .type('form')
      .set('X-Forwarded-For', ip)
      .send({ login_code: 'y'.repeat(32) });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('login_rate_limited');
  });
});
