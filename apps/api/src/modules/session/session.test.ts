import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;

beforeAll(async () => {
  t = await startTestApp({ LOGIN_FREE_ATTEMPTS_PER_PAIR: '3' });
  acme = await t.tenant('Acme');
});
afterAll(() => t.close());

describe('POST /api/v1/login', () => {
  it('signs in with form-encoded credentials, sets an httpOnly cookie and returns the token', async () => {
    const res = await t.http.post('/api/v1/login').type('form').send({ email: 'Agent@Acme.test', password: 'secret123' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ uuid: acme.users.agent?.uuid, email: 'agent@acme.test', tenant: { uuid: acme.tenantId } });
    expect(res.body.token).toMatch(/^ey/);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toContain('atende_session=');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    const me = await t.http.get('/api/v1/users/me').set('Cookie', cookie.split(';')[0]!);
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ email: 'agent@acme.test', is_logged: true, state: 'online', roles: [{ name: 'agent' }] });
  });

  it('answers 401 with a clear message for a wrong password or an unknown email', async () => {
    const wrong = await t.http.post('/api/v1/login').type('form').send({ email: 'supervisor@acme.test', password: 'nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 'invalid_credentials', error_message: 'Invalid email or password' });
    const unknown = await t.http.post('/api/v1/login').type('form').send({ email: 'ghost@acme.test', password: 'nope' });
    expect(unknown.status).toBe(401);
  });

  it('answers 400 for missing fields and wrong types, never 500', async () => {
    for (const body of [{}, { email: 'a@b.c' }, { password: 'x' }, { email: '', password: '' }]) {
      const res = await t.http.post('/api/v1/login').type('form').send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error_message).toBeTruthy();
    }
    const json = await t.http.post('/api/v1/login').send({ email: ['x'], password: 5 });
    expect(json.status).toBe(400);
    const broken = await t.http.post('/api/v1/login').set('content-type', 'application/json').send('{"email":');
    expect(broken.status).toBe(400);
    const huge = await t.http
      .post('/api/v1/login')
      .type('form')
      .send({ email: 'a'.repeat(300), password: 'x' });
    expect(huge.status).toBe(400);
  });

  it('makes an account that failed from this IP wait (429), even for the right password', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await t.http.post('/api/v1/login').type('form').send({ email: 'manager@acme.test', password: 'bad' });
      expect(res.status).toBe(401);
    }
    const blocked = await t.http.post('/api/v1/login').type('form').send({ email: 'manager@acme.test', password: 'secret123' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('login_rate_limited');
  });
});

// A failed sign-in with an e-mail that is a user of two tenants belongs to both
// accounts' histories, never only to the first tenant found.
describe('failed sign-ins in the login history', () => {
  it('records a failed attempt on a shared e-mail in the history of each tenant that has it', async () => {
    const beta = await t.tenant('Beta');
    const db = t.database.db;
    const acmeUser = await db.user.findUniqueOrThrow({ where: { id: acme.users.agent2!.id } });
    const twin = await db.user.create({
      data: {
        tenantId: beta.tenantId,
        workspaceId: beta.workspaceId,
        email: acmeUser.email,
        username: 'Twin',
        passwordHash: acmeUser.passwordHash,
        roles: ['agent'],
      },
    });
    const failed = await t.http.post('/api/v1/login').type('form').send({ email: acmeUser.email, password: 'nobody-has-this' });
    expect(failed.status).toBe(401);
    const rows = await db.loginHistory.findMany({ where: { event: 'login_failed', userId: { in: [acmeUser.id, twin.id] } } });
    expect(rows.map((r) => [r.tenantId, r.userId]).sort()).toEqual(
      [
        [acme.tenantId, acmeUser.id],
        [beta.tenantId, twin.id],
      ].sort(),
    );
  });
});

describe('session tokens', () => {
  it('refuses requests without a token, with a forged one, another algorithm, or an expired one', async () => {
    const none = await t.http.get('/api/v1/users/me');
    expect(none.status).toBe(401);
    const token = await t.login('agent@acme.test');
    const claims = jwt.decode(token) as Record<string, unknown>;
    const forged = jwt.sign({ sid: claims.sid, sub: claims.sub, tid: claims.tid }, 'x'.repeat(40), {
      audience: 'atende-web',
      issuer: 'atende-api',
    });
    expect((await t.http.get('/api/v1/users/me').set('Authorization', `Bearer ${forged}`)).status).toBe(401);
    const unsigned = jwt.sign({ sid: claims.sid, sub: claims.sub, tid: claims.tid }, '', {
      algorithm: 'none',
      audience: 'atende-web',
      issuer: 'atende-api',
    });
    expect((await t.http.get('/api/v1/users/me').set('Authorization', `Bearer ${unsigned}`)).status).toBe(401);
    const expired = jwt.sign(
      { sid: claims.sid, sub: claims.sub, tid: claims.tid, exp: Math.floor(Date.now() / 1000) - 10 },
      t.env.JWT_SECRET,
      { audience: 'atende-web', issuer: 'atende-api' },
    );
    const res = await t.http.get('/api/v1/users/me').set('Authorization', `Bearer ${expired}`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('session_expired');
    const wrongAud = jwt.sign({ sid: claims.sid, sub: claims.sub, tid: claims.tid }, t.env.JWT_SECRET, {
      audience: 'other',
      issuer: 'atende-api',
    });
    expect((await t.http.get('/api/v1/users/me').set('Authorization', `Bearer ${wrongAud}`)).status).toBe(401);
    expect((await t.http.get('/api/v1/users/me').set('Authorization', 'Bearer garbage')).status).toBe(401);
  });

  it('revokes the token on logout and marks the user offline', async () => {
    const token = await t.login('agent2@acme.test');
    const out = await t.http.post('/api/v1/logout').set('Authorization', `Bearer ${token}`).type('form').send({});
    expect(out.status).toBe(200);
    expect((await t.http.get('/api/v1/users/me').set('Authorization', `Bearer ${token}`)).status).toBe(401);
    const user = await t.database.db.user.findUniqueOrThrow({ where: { id: acme.users.agent2!.id } });
    expect(user).toMatchObject({ isLogged: false, loggedOffBy: 'self', state: 'offline' });
  });
});
