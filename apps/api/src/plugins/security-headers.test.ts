import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../testing';

// Issue 12 item 6: framing, CSRF and headers. The attacks first: another site posting a form with the
// signed-in user's cookie, and another site framing the app.
let t: TestApp;
let dist: string;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let cookie: string;
let token: string;

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'atende-web-'));
  await writeFile(join(dist, 'index.html'), '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/app.js"></script></body></html>');
  t = await startTestApp({ WEB_DIST: dist });
  acme = await t.tenant('Acme');
  const login = await t.http.post('/api/v1/login').type('form').send({ email: 'admin@acme.test', password: TEST_PASSWORD });
  token = login.body.token as string;
  const setCookie = login.headers['set-cookie'] as unknown as string[];
  cookie = setCookie.map((c) => c.split(';')[0]).join('; ');
});
afterAll(async () => {
  await t?.close();
  await rm(dist, { recursive: true, force: true });
});

const channelForm = (name: string) => ({ name, type: 'livechat', entry_point: acme.sectors[0]!.id });

describe('cookie-authenticated writes (CSRF)', () => {
  it('refuses a form post from another site that carries the user’s cookie, and stores nothing', async () => {
    const before = await t.database.db.channel.count();
    const forged = await t.http.post('/api/v1/channels').set('Cookie', cookie).set('Origin', 'https://evil.example').type('form').send(channelForm('Forged'));
    expect(forged.status).toBe(403);
    expect(forged.body).toMatchObject({ code: 'origin_not_allowed' });
    const byReferer = await t.http.delete(`/api/v1/channels/${acme.tenantId}`).set('Cookie', cookie).set('Referer', 'https://evil.example/page');
    expect(byReferer.status).toBe(403);
    expect(await t.database.db.channel.count()).toBe(before);
  });

  it('accepts the same write from the app’s own origin, an allowed origin, a bearer token, or a client that is not a browser', async () => {
    const own = await t.http.post('/api/v1/channels').set('Cookie', cookie).set('Origin', t.url).type('form').send(channelForm('Own'));
    expect(own.status).toBe(201);
    const listed = await t.http.post('/api/v1/channels').set('Cookie', cookie).set('Origin', 'http://localhost:5173').type('form').send(channelForm('Dev server'));
    expect(listed.status).toBe(201);
    const bearer = await t.http.post('/api/v1/channels').set('Authorization', `Bearer ${token}`).set('Origin', 'https://integrations.example').type('form').send(channelForm('Bearer'));
    expect(bearer.status).toBe(201);
    const noOrigin = await t.http.post('/api/v1/channels').set('Cookie', cookie).type('form').send(channelForm('Script'));
    expect(noOrigin.status).toBe(201);
    // Reading is not a write: a foreign origin may still GET (the browser keeps the answer from it).
    expect((await t.http.get('/api/v1/users/me').set('Cookie', cookie).set('Origin', 'https://evil.example')).status).toBe(200);
  });
});

describe('security headers', () => {
  it('sends nosniff and a referrer policy on api answers', async () => {
    const res = await t.http.get('/api/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('same-origin');
  });

  it('serves the app with a CSP of our own scripts only, and forbids framing it', async () => {
    const res = await t.http.get('/app');
    expect(res.status).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('lets any website frame the livechat widget page, which is what it is for', async () => {
    const res = await t.http.get('/livechat/517e0c4a-0000-4000-8000-00000000c4a7');
    expect(res.status).toBe(200);
    expect(String(res.headers['content-security-policy'])).toContain('frame-ancestors *');
    expect(res.headers['x-frame-options']).toBeUndefined();
  });
});
