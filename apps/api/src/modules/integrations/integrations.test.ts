import type { OAuthToken } from '@atende/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../../testing';
import { checkVoiceUrl } from './service';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
const tokens: Record<string, string> = {};
const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });

beforeAll(async () => {
  t = await startTestApp({
    LOGIN_MAX_ATTEMPTS_PER_IP: '1000',
    VOICE_PHONE_DOMAINS: 'example.com, .voip.test',
    API_TOKEN_DEFAULT_DAYS: '30',
    API_TOKEN_MAX_DAYS: '90',
  });
  acme = await t.tenant('Integra', { users: { admin: ['admin'], manager: ['manager'], agent: ['agent'] } });
  await t.tenant('IntegraOther', { users: { admin: ['admin'] } });
  for (const name of ['admin', 'manager', 'agent']) tokens[name] = await t.login(`${name}@integra.test`);
  tokens.outsider = await t.login('admin@integraother.test');
});
afterAll(() => t.close());

describe('API tokens (/api/v1/oauth/tokens)', () => {
  let created: OAuthToken;
  let secret: string;

  it('lets an admin create a token shown once, which then works as a bearer with the admin roles', async () => {
    const blank = await t.http.post('/api/v1/oauth/tokens').set(auth('admin')).send({ client_name: ' ' });
    expect(blank.status).toBe(400);
    expect(blank.body.error_message).toContain('Client name is required');
    expect((await t.http.post('/api/v1/oauth/tokens').set(auth('manager')).send({ client_name: 'Zapier' })).status).toBe(403);
    const res = await t.http.post('/api/v1/oauth/tokens').set(auth('admin')).send({ client_name: 'Zapier' });
    expect(res.status).toBe(201);
    created = res.body.data;
    secret = res.body.access_token;
    expect(secret).toMatch(/^atd_/);
    expect(created).toMatchObject({ client_name: 'Zapier', roles: ['admin'], last_used_at: null, token_prefix: secret.slice(0, 10) });
    const listed = await t.http.get('/api/v1/oauth/tokens').set(auth('admin'));
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    expect(await t.database.db.apiToken.count({ where: { tokenHash: secret } })).toBe(0);

    const me = await t.http.get('/api/v1/users/me').set({ Authorization: `Bearer ${secret}` });
    expect(me.status).toBe(200);
    expect(me.body.data.email).toBe('admin@integra.test');
    const used = await t.http.get(`/api/v1/oauth/tokens?client_id=${created.client_id}`).set(auth('admin'));
    expect(used.body.data).toHaveLength(1);
    expect(used.body.data[0].last_used_at).not.toBeNull();
    expect((await t.http.get('/api/v1/oauth/tokens?client_name=zap').set(auth('admin'))).body.data).toHaveLength(1);
    expect((await t.http.get('/api/v1/oauth/tokens?client_name=droz').set(auth('admin'))).body.data).toHaveLength(0);
  });

  it('refuses a made-up token, signing out with a token, and tokens making tokens', async () => {
    expect((await t.http.get('/api/v1/users/me').set({ Authorization: 'Bearer atd_made-up' })).status).toBe(401);
    const logout = await t.http.post('/api/v1/logout').set({ Authorization: `Bearer ${secret}` });
    expect(logout.status).toBe(400);
    // The admin who made the token is still signed in, and the token still works.
    expect((await t.http.get('/api/v1/users/me').set(auth('admin'))).body.data.is_logged).toBe(true);
    expect((await t.http.get('/api/v1/users/me').set({ Authorization: `Bearer ${secret}` })).status).toBe(200);
    expect(
      (
        await t.http
          .post('/api/v1/oauth/tokens')
          .set({ Authorization: `Bearer ${secret}` })
          .send({ client_name: 'x' })
      ).status,
    ).toBe(403);
  });

  it('revokes at once; other tenants cannot see or revoke', async () => {
    expect((await t.http.get('/api/v1/oauth/tokens').set(auth('outsider'))).body.data).toEqual([]);
    expect((await t.http.delete(`/api/v1/oauth/tokens/${created.uuid}`).set(auth('outsider'))).status).toBe(404);
    expect((await t.http.delete(`/api/v1/oauth/tokens/${created.uuid}`).set(auth('admin'))).status).toBe(200);
    expect((await t.http.get('/api/v1/users/me').set({ Authorization: `Bearer ${secret}` })).status).toBe(401);
    expect((await t.http.get('/api/v1/oauth/tokens').set(auth('admin'))).body.data).toEqual([]);
    expect((await t.http.delete(`/api/v1/oauth/tokens/${created.uuid}`).set(auth('admin'))).status).toBe(404);
  });
});

describe('API tokens follow their creator', () => {
  it('a demoted creator token loses admin at once; a removed creator token stops', async () => {
    await t.tenant('TokenOwner', { users: { boss: ['admin'], other: ['admin'] } });
    const boss = await t.login('boss@tokenowner.test');
    const made = await t.http
      .post('/api/v1/oauth/tokens')
      .set({ Authorization: `Bearer ${boss}` })
      .send({ client_name: 'Zapier' });
    expect(made.status).toBe(201);
    const bearer = { Authorization: `Bearer ${made.body.access_token}` };
    expect((await t.http.get('/api/v1/oauth/tokens').set(bearer)).status).toBe(200);
    // Demoted to agent by a direct change (as the users API does): the token is an agent now.
    await t.database.db.user.updateMany({ where: { email: 'boss@tokenowner.test' }, data: { roles: ['agent'] } });
    expect((await t.http.get('/api/v1/oauth/tokens').set(bearer)).status).toBe(403);
    expect((await t.http.get('/api/v1/users/me').set(bearer)).status).toBe(200);
    await t.database.db.user.updateMany({ where: { email: 'boss@tokenowner.test' }, data: { deletedAt: new Date() } });
    expect((await t.http.get('/api/v1/users/me').set(bearer)).status).toBe(401);
  });
});

describe('API tokens expire and end with a password change', () => {
  const days = (iso: string) => Math.round((Date.parse(iso) - Date.now()) / 86_400_000);

  it('lasts the default lifetime, or the chosen one up to the maximum; above it is a clear 400', async () => {
    const listed = await t.http.get('/api/v1/oauth/tokens').set(auth('admin'));
    expect(listed.body.lifetime).toEqual({ default_days: 30, max_days: 90 });
    const plain = await t.http.post('/api/v1/oauth/tokens').set(auth('admin')).send({ client_name: 'Default life' });
    expect(plain.status).toBe(201);
    expect(days(plain.body.data.expires_at)).toBe(30);
    const chosen = await t.http.post('/api/v1/oauth/tokens').set(auth('admin')).send({ client_name: 'Long life', expires_in_days: 90 });
    expect(days(chosen.body.data.expires_at)).toBe(90);
    const stored = await t.database.db.apiToken.count({ where: { clientName: 'Too long' } });
    const tooLong = await t.http.post('/api/v1/oauth/tokens').set(auth('admin')).send({ client_name: 'Too long', expires_in_days: 91 });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({
      code: 'api_token_lifetime_too_long',
      params: { max_days: 90 },
      error_message: 'A token can last at most 90 days',
    });
    for (const bad of [0, -1, 1.5, '30', 5000]) {
      const res = await t.http.post('/api/v1/oauth/tokens').set(auth('admin')).send({ client_name: 'Too long', expires_in_days: bad });
      expect(res.status).toBe(400);
      expect(res.body.error_message).toBeTruthy();
    }
    expect(await t.database.db.apiToken.count({ where: { clientName: 'Too long' } })).toBe(stored);
    for (const made of [plain, chosen]) await t.http.delete(`/api/v1/oauth/tokens/${made.body.data.uuid}`).set(auth('admin'));
  });

  it('refuses an expired token with 401 and leaves it out of the list', async () => {
    const made = await t.http.post('/api/v1/oauth/tokens').set(auth('admin')).send({ client_name: 'Soon gone', expires_in_days: 1 });
    const bearer = { Authorization: `Bearer ${made.body.access_token}` };
    expect((await t.http.get('/api/v1/users/me').set(bearer)).status).toBe(200);
    await t.database.db.apiToken.update({ where: { id: made.body.data.uuid }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const refused = await t.http.get('/api/v1/users/me').set(bearer);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'api_token_expired', error_message: 'This API token has expired' });
    const names = (await t.http.get('/api/v1/oauth/tokens').set(auth('admin'))).body.data.map((r: OAuthToken) => r.client_name);
    expect(names).not.toContain('Soon gone');
  });

  it("ends the tokens a user made when that user changes their password, and nobody else's", async () => {
    await t.tenant('TokenPassword', { users: { changer: ['admin'], keeper: ['admin'] } });
    const changer = await t.login('changer@tokenpassword.test');
    const keeper = await t.login('keeper@tokenpassword.test');
    const mine = await t.http
      .post('/api/v1/oauth/tokens')
      .set({ Authorization: `Bearer ${changer}` })
      .send({ client_name: 'Mine' });
    const theirs = await t.http
      .post('/api/v1/oauth/tokens')
      .set({ Authorization: `Bearer ${keeper}` })
      .send({ client_name: 'Theirs' });
    const me = await t.http.get('/api/v1/users/me').set({ Authorization: `Bearer ${changer}` });
    const changed = await t.http
      .patch(`/api/v1/users/${me.body.data.id}`)
      .set({ Authorization: `Bearer ${changer}` })
      .send({ password: 'brand new 42', old_password: TEST_PASSWORD });
    expect(changed.status).toBe(200);
    expect((await t.http.get('/api/v1/users/me').set({ Authorization: `Bearer ${mine.body.access_token}` })).status).toBe(401);
    expect((await t.http.get('/api/v1/users/me').set({ Authorization: `Bearer ${theirs.body.access_token}` })).status).toBe(200);
    // The one who changed it is still signed in on this session and sees their list without the token.
    const list = await t.http.get('/api/v1/oauth/tokens').set({ Authorization: `Bearer ${changer}` });
    expect(list.body.data.map((r: OAuthToken) => r.client_name)).toEqual(['Theirs']);
  });
});

describe('integrations (droz and Zapier tokens, voice-phone URL)', () => {
  it('stores the tokens sealed and never returns them; an integration needs its token or URL to be on', async () => {
    const off = await t.http.get('/api/v1/workspaces/me/integrations').set(auth('admin'));
    expect(off.body.data).toEqual({
      droz: { enabled: false, token_set: false },
      zapier: { enabled: false, token_set: false },
      voice_phone: { enabled: false, url: null },
    });
    const missing = await t.http
      .put('/api/v1/workspaces/me/integrations')
      .set(auth('admin'))
      .send({ zapier: { enabled: true } });
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toEqual([
      { path: 'zapier.token', message: 'Enter the API token to turn this integration on', code: 'integration_token_required' },
    ]);
    const on = await t.http
      .put('/api/v1/workspaces/me/integrations')
      .set(auth('admin'))
      .send({ zapier: { enabled: true, token: 'zap-secret-123' }, droz: { token: 'droz-secret' } });
    expect(on.body.data).toMatchObject({ zapier: { enabled: true, token_set: true }, droz: { enabled: false, token_set: true } });
    const row = await t.database.db.workspace.findUniqueOrThrow({ where: { id: acme.workspaceId } });
    expect(JSON.stringify(row.integrations)).not.toContain('zap-secret-123');
    const ws = await t.http.get('/api/v1/workspaces/me').set(auth('admin'));
    expect(JSON.stringify(ws.body)).not.toContain('sealed_tokens');
    expect(
      (
        await t.http
          .patch('/api/v1/workspaces/me')
          .set(auth('admin'))
          .send({ integrations: { zapier: { enabled: false } } })
      ).status,
    ).toBe(400);
    // Removing the token of an integration that is on is refused; turning it off first works.
    expect(
      (
        await t.http
          .put('/api/v1/workspaces/me/integrations')
          .set(auth('admin'))
          .send({ zapier: { token: '' } })
      ).status,
    ).toBe(400);
    const cleared = await t.http
      .put('/api/v1/workspaces/me/integrations')
      .set(auth('admin'))
      .send({ zapier: { enabled: false, token: '' } });
    expect(cleared.body.data.zapier).toEqual({ enabled: false, token_set: false });
    expect(cleared.body.data.droz).toEqual({ enabled: false, token_set: true });
  });

  it('wants an https voice-phone URL; admins only', async () => {
    const bad = await t.http
      .put('/api/v1/workspaces/me/integrations')
      .set(auth('admin'))
      .send({ voice_phone: { enabled: true, url: 'javascript:alert(1)' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error_message).toBe('The URL must start with https://');
    expect(
      (
        await t.http
          .put('/api/v1/workspaces/me/integrations')
          .set(auth('admin'))
          .send({ voice_phone: { enabled: true, url: 'not a url' } })
      ).body.error_message,
    ).toBe('Invalid URL');
    const ok = await t.http
      .put('/api/v1/workspaces/me/integrations')
      .set(auth('admin'))
      .send({ voice_phone: { enabled: true, url: 'https://phone.example.com/embed' } });
    expect(ok.body.data.voice_phone).toEqual({ enabled: true, url: 'https://phone.example.com/embed' });
    expect((await t.http.get('/api/v1/workspaces/me/integrations').set(auth('manager'))).status).toBe(403);
    expect((await t.http.put('/api/v1/workspaces/me/integrations').set(auth('agent')).send({})).status).toBe(403);
    expect((await t.http.get('/api/v1/workspaces/me/integrations').set(auth('outsider'))).body.data.voice_phone).toEqual({
      enabled: false,
      url: null,
    });
  });

  it('refuses a voice-phone URL on loopback, private or metadata addresses, unless listed', async () => {
    const open = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_IP: '1000' }, { shareWith: t });
    try {
      for (const host of [
        '127.0.0.1',
        '[::1]',
        '0.0.0.0',
        '2130706433',
        '0x7f000001',
        '169.254.169.254',
        '[::ffff:127.0.0.1]',
        '[::7f00:1]',
        'localhost',
      ]) {
        const res = await open.http
          .put('/api/v1/workspaces/me/integrations')
          .set(auth('admin'))
          .send({ voice_phone: { enabled: true, url: `https://${host}/phone` } });
        expect([res.status, res.body.code, res.body.error_message]).toEqual([
          400,
          'outbound_address_not_allowed',
          'This address is not allowed: it points to this server or a private network',
        ]);
      }
      expect(
        (
          await open.http
            .put('/api/v1/workspaces/me/integrations')
            .set(auth('admin'))
            .send({ voice_phone: { enabled: true, url: 'https://8.8.8.8/phone' } })
        ).status,
      ).toBe(200);
    } finally {
      await open.close();
    }
    const demo = await startTestApp({ OUTBOUND_ALLOW_HOSTS: 'localhost' }, { shareWith: t });
    try {
      // Outside production a listed local address passes (the demo); production wants https (not tested here: its login needs production secrets).
      expect(
        (
          await demo.http
            .put('/api/v1/workspaces/me/integrations')
            .set(auth('admin'))
            .send({ voice_phone: { url: 'http://localhost:8080/phone' } })
        ).status,
      ).toBe(200);
    } finally {
      await demo.close();
    }
  });

  it("shows the embed to every user of the workspace only while it is on and on the provider's domains", async () => {
    const foreign = await t.http
      .put('/api/v1/workspaces/me/integrations')
      .set(auth('admin'))
      .send({ voice_phone: { enabled: true, url: 'https://example.com.evil.net/embed' } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error_message).toBe("The URL must be on the voice-phone provider's domains: example.com, voip.test");
    expect(
      (
        await t.http
          .put('/api/v1/workspaces/me/integrations')
          .set(auth('admin'))
          .send({ voice_phone: { url: 'https://pbx.voip.test/agent' } })
      ).status,
    ).toBe(200);
    const seen = await t.http.get('/api/v1/workspaces/me/voice_phone').set(auth('agent'));
    expect(seen.status).toBe(200);
    expect(seen.body.data).toEqual({ enabled: true, url: 'https://pbx.voip.test/agent' });
    expect((await t.http.get('/api/v1/workspaces/me/voice_phone').set(auth('outsider'))).body.data).toEqual({ enabled: false, url: null });
    expect((await t.http.get('/api/v1/workspaces/me/voice_phone')).status).toBe(401);
    // A URL saved before the provider's domains changed is not embedded.
    await t.database.db.workspace.update({
      where: { id: acme.workspaceId },
      data: { integrations: { voice_phone: { enabled: true, url: 'https://old-provider.net/phone' } } },
    });
    expect((await t.http.get('/api/v1/workspaces/me/voice_phone').set(auth('agent'))).body.data).toEqual({ enabled: false, url: null });
    await t.http
      .put('/api/v1/workspaces/me/integrations')
      .set(auth('admin'))
      .send({ voice_phone: { enabled: false, url: 'https://pbx.voip.test/agent' } });
    expect((await t.http.get('/api/v1/workspaces/me/voice_phone').set(auth('agent'))).body.data).toEqual({ enabled: false, url: null });
  });
});

describe('voice-phone URL scheme (https only in production)', () => {
  it('takes http for this machine only outside production, and https everywhere', async () => {
    const local = { ...t.env, VOICE_PHONE_DOMAINS: ['localhost'], OUTBOUND_ALLOW_HOSTS: 'localhost,127.0.0.1' };
    await expect(checkVoiceUrl('http://localhost:4000/phone', { ...local, NODE_ENV: 'development' })).resolves.toBeUndefined();
    await expect(checkVoiceUrl('http://localhost:4000/phone', { ...local, NODE_ENV: 'production' })).rejects.toMatchObject({
      code: 'url_https_required',
      message: 'The URL must start with https://',
    });
    await expect(checkVoiceUrl('https://localhost:4000/phone', { ...local, NODE_ENV: 'production' })).resolves.toBeUndefined();
    for (const env of ['development', 'production'] as const) {
      await expect(checkVoiceUrl('http://phone.example.com/', { ...t.env, NODE_ENV: env })).rejects.toMatchObject({
        message: 'The URL must start with https://',
      });
    }
  });
});
