import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../testing';
import { contentSecurityPolicy } from './security-headers';

// Framing, CSRF and headers. The attacks first: another site posting a form with the
// signed-in user's cookie, and another site framing the app.
let t: TestApp;
let dist: string;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let cookie: string;
let token: string;

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'atende-web-'));
  await writeFile(
    join(dist, 'index.html'),
    '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/app.js"></script></body></html>',
  );
  t = await startTestApp({ WEB_DIST: dist, ALLOWED_ORIGINS: 'http://localhost:5173', VOICE_PHONE_DOMAINS: 'voip.example' });
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
    const forged = await t.http
      .post('/api/v1/channels')
      .set('Cookie', cookie)
      .set('Origin', 'https://evil.example')
      .type('form')
      .send(channelForm('Forged'));
    expect(forged.status).toBe(403);
    expect(forged.body).toMatchObject({ code: 'origin_not_allowed' });
    const byReferer = await t.http
      .delete(`/api/v1/channels/${acme.tenantId}`)
      .set('Cookie', cookie)
      .set('Referer', 'https://evil.example/page');
    expect(byReferer.status).toBe(403);
    expect(await t.database.db.channel.count()).toBe(before);
  });

  it('accepts the same write from the app’s own origin, an allowed origin, a bearer token, or a client that is not a browser', async () => {
    const own = await t.http.post('/api/v1/channels').set('Cookie', cookie).set('Origin', t.url).type('form').send(channelForm('Own'));
    expect(own.status).toBe(201);
    const listed = await t.http
      .post('/api/v1/channels')
      .set('Cookie', cookie)
      .set('Origin', 'http://localhost:5173')
      .type('form')
      .send(channelForm('Dev server'));
    expect(listed.status).toBe(201);
    const bearer = await t.http
      .post('/api/v1/channels')
      .set('Authorization', `Bearer ${token}`)
      .set('Origin', 'https://integrations.example')
      .type('form')
      .send(channelForm('Bearer'));
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

  // Img/connect/frame-src allowed any host. The app frames only the voice-phone
  // provider's domains (VOICE_PHONE_DOMAINS); the widget, framed by any site, talks to us alone.
  it('lets the app frame only the voice-phone domains, and the widget connect only to us and frame nothing', async () => {
    const directive = (csp: string, name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `));
    const app = String((await t.http.get('/app')).headers['content-security-policy']);
    // Outside production the local simulators may be plain http on this machine, and nowhere else.
    expect(directive(app, 'frame-src')).toBe(
      "frame-src 'self' https://voip.example https://*.voip.example http://localhost:* http://127.0.0.1:*",
    );
    expect(app).not.toMatch(/(?:^|; )[a-z-]+-src[^;]* http:(?: |;|$)/);
    const widget = String((await t.http.get('/livechat/517e0c4a-0000-4000-8000-00000000c4a7')).headers['content-security-policy']);
    expect(directive(widget, 'connect-src')).toBe("connect-src 'self'");
    expect(directive(widget, 'frame-src')).toBe("frame-src 'none'");
    // In production: no plain http at all, and the voice phone's domains only.
    const production = contentSecurityPolicy('/app', { production: true, voicePhoneDomains: ['voip.example'] });
    expect(production).not.toContain('http:');
    expect(production).not.toContain('localhost');
    expect(directive(production, 'frame-src')).toBe("frame-src 'self' https://voip.example https://*.voip.example");
    // A stray character in the setting never becomes a directive of its own.
    expect(contentSecurityPolicy('/app', { production: true, voicePhoneDomains: ['voip.example; script-src *'] })).not.toContain(
      'script-src *',
    );
  });

  // The app's pages could connect to any https site (and any local http one) only
  // because the composer fetched pasted markdown images in the browser; the server downloads them now
  // (storage/from-url.test.ts). Images of other sites are still shown, so img-src keeps them.
  it('lets every page connect to our origin alone, in production and out of it, and still show https images', async () => {
    const directive = (csp: string, name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `));
    for (const path of ['/app', '/app/chat-history', '/login', '/livechat/517e0c4a-0000-4000-8000-00000000c4a7']) {
      const csp = String((await t.http.get(path)).headers['content-security-policy']);
      expect(directive(csp, 'connect-src'), path).toBe("connect-src 'self'");
    }
    const production = contentSecurityPolicy('/app', { production: true, voicePhoneDomains: [] });
    expect(directive(production, 'connect-src')).toBe("connect-src 'self'");
    expect(directive(production, 'img-src')).toBe("img-src 'self' data: blob: https:");
    const app = String((await t.http.get('/app')).headers['content-security-policy']);
    expect(directive(app, 'img-src')).toBe("img-src 'self' data: blob: https: http://localhost:* http://127.0.0.1:*");
  });

  it('sends neither HSTS nor Secure cookies when the app is served over plain http', async () => {
    expect(t.env.PUBLIC_URL).toMatch(/^http:/);
    expect((await t.http.get('/api/health')).headers['strict-transport-security']).toBeUndefined();
    const login = await t.http.post('/api/v1/login').type('form').send({ email: 'admin@acme.test', password: TEST_PASSWORD });
    expect(String(login.headers['set-cookie'])).not.toMatch(/;\s*Secure/i);
  });
});

// An https PUBLIC_URL (behind a TLS proxy) makes the session cookie Secure and sends
// HSTS, and the browser origin allowed by default is that address, not a fixed http://localhost:3000.
describe('served at an https PUBLIC_URL', () => {
  let behindProxy: TestApp;
  beforeAll(async () => {
    behindProxy = await startTestApp({ PUBLIC_URL: 'https://app.atende.example' }, { shareWith: t });
  });
  afterAll(() => behindProxy?.close());

  it('marks the session cookie Secure and sends HSTS', async () => {
    const login = await behindProxy.http.post('/api/v1/login').type('form').send({ email: 'admin@acme.test', password: TEST_PASSWORD });
    expect(login.status).toBe(200);
    expect(String(login.headers['set-cookie'])).toMatch(/;\s*Secure/i);
    expect((await behindProxy.http.get('/api/health')).headers['strict-transport-security']).toMatch(/max-age=\d+/);
  });

  it('accepts cookie writes from the served origin by default, and refuses the old fixed localhost:3000', async () => {
    const fromApp = await behindProxy.http
      .post('/api/v1/channels')
      .set('Cookie', cookie)
      .set('Origin', 'https://app.atende.example')
      .type('form')
      .send(channelForm('Through the proxy'));
    expect(fromApp.status).toBe(201);
    const before = await t.database.db.channel.count();
    const fromLocalhost = await behindProxy.http
      .post('/api/v1/channels')
      .set('Cookie', cookie)
      .set('Origin', 'http://localhost:3000')
      .type('form')
      .send(channelForm('Local page'));
    expect(fromLocalhost.status).toBe(403);
    expect(fromLocalhost.body).toMatchObject({ code: 'origin_not_allowed' });
    expect(await t.database.db.channel.count()).toBe(before);
  });
});
