import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

// 'Login via app QR' (flag qr_code_login); GET /api/v1/users/me/login_qr_code
// answers login_code and tenant_domain, refreshed every 15 s. The code signs in once and expires.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;

const getCode = (token: string) => t.http.get('/api/v1/users/me/login_qr_code').set('Authorization', `Bearer ${token}`);
const useCode = (code: string) => t.http.post('/api/v1/login/code').type('form').send({ login_code: code });

beforeAll(async () => {
  t = await startTestApp({ TENANT_DOMAIN: 'acme.atende.test' });
  acme = await t.tenant('Acme');
  await t.tenant('Plain', { features: { qr_code_login: false } });
});
afterAll(() => t.close());

describe('QR login', () => {
  it('gives a code that signs the same user in once; the second use answers 401', async () => {
    const token = await t.login('agent@acme.test');
    const res = await getCode(token);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ login_code: expect.any(String), tenant_domain: 'acme.atende.test', expires_in: 60 });
    const code = res.body.data.login_code as string;
    const first = await useCode(code);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ uuid: acme.users.agent!.uuid, tenant: { uuid: acme.tenantId } });
    const me = await t.http.get('/api/v1/users/me').set('Authorization', `Bearer ${first.body.token}`);
    expect(me.body.data.email).toBe('agent@acme.test');
    const second = await useCode(code);
    expect(second.status).toBe(401);
    expect(second.body).toMatchObject({ code: 'login_code_invalid', error_message: expect.any(String) });
  });

  it('gives a fresh code on every call (the modal polls every 15 s)', async () => {
    const token = await t.login('agent2@acme.test');
    const [a, b] = await Promise.all([getCode(token), getCode(token)]);
    expect(a.body.data.login_code).not.toBe(b.body.data.login_code);
  });

  it('refuses an expired code', async () => {
    const token = await t.login('supervisor@acme.test');
    const code = (await getCode(token)).body.data.login_code as string;
    const key = `${t.env.REDIS_PREFIX}login-code:${code}`;
    const ttl = await t.redis.ttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
    // Expire it now, as 60 s would.
    await t.redis.pexpireat(key, Date.now() - 1000);
    const res = await useCode(code);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('login_code_invalid');
  });

  it('refuses unknown and malformed codes with 4xx and error_message', async () => {
    for (const body of [
      { login_code: 'z'.repeat(32) },
      { login_code: 'short' },
      { login_code: 'x'.repeat(500) },
      {},
      { login_code: ['a', 'b'] },
    ]) {
      const res = await t.http.post('/api/v1/login/code').type('form').send(body);
      expect([400, 401], JSON.stringify(body)).toContain(res.status);
      expect(res.body.error_message).toBeTruthy();
    }
  });

  it('needs the flag: 403 feature_disabled for a tenant without qr_code_login', async () => {
    const token = await t.login('agent@plain.test');
    const res = await getCode(token);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'feature_disabled', error_message: expect.any(String) });
  });

  it('stops a code already shown when the flag is switched off before it is used', async () => {
    const token = await t.login('manager@acme.test');
    const code = (await getCode(token)).body.data.login_code as string;
    const tenant = await t.database.db.tenant.findUniqueOrThrow({ where: { id: acme.tenantId } });
    const config = tenant.config as { features: Record<string, boolean> };
    await t.database.db.tenant.update({
      where: { id: acme.tenantId },
      data: { config: { ...config, features: { ...config.features, qr_code_login: false } } },
    });
    try {
      const before = await t.database.db.userSession.count({ where: { userId: acme.users.manager!.id } });
      const res = await useCode(code);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('feature_disabled');
      expect(await t.database.db.userSession.count({ where: { userId: acme.users.manager!.id } })).toBe(before);
      expect((await getCode(token)).status).toBe(403);
    } finally {
      await t.database.db.tenant.update({ where: { id: acme.tenantId }, data: { config } });
    }
  });
});
