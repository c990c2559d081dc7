import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UPLOAD_MAX_BYTES } from '@atende/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';
import { fileNameOf, URL_DOWNLOADS } from './from-url';

// Pasted markdown images are fetched and re-uploaded. The browser once
// fetched them, which is why the app's CSP let pages connect to any site; the server fetches them now,
// through the guarded outbound client, under the upload's size limit and an images-only type policy.
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(32, 3)]);
const OVER_LIMIT = Buffer.concat([PNG, Buffer.alloc(UPLOAD_MAX_BYTES, 1)]);

/** "Another site on the web": the images and pages a pasted markdown text may point to. */
function serve(request: IncomingMessage, response: ServerResponse): void {
  const send = (status: number, type: string, body: Buffer | string, headers: Record<string, string> = {}): void =>
    void response.writeHead(status, { 'content-type': type, ...headers }).end(body);
  switch (new URL(request.url ?? '/', 'http://x').pathname) {
    case '/img/logo.png':
      return send(200, 'image/png', PNG);
    case '/':
      return send(200, 'image/jpeg; charset=binary', JPEG);
    case '/big.png':
      return send(200, 'image/png', OVER_LIMIT);
    case '/streamed-big.png': {
      // No Content-Length: the size is known only while reading.
      response.writeHead(200, { 'content-type': 'image/png', 'transfer-encoding': 'chunked' });
      for (let offset = 0; offset < OVER_LIMIT.length; offset += 256 * 1024)
        response.write(OVER_LIMIT.subarray(offset, offset + 256 * 1024));
      return void response.end();
    }
    case '/drawing.svg':
      return send(200, 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    case '/page.html':
      return send(200, 'text/html; charset=utf-8', '<!doctype html><title>not an image</title>');
    case '/manual.pdf':
      return send(200, 'application/pdf', '%PDF-1.7\n');
    case '/fake.png':
      return send(200, 'image/png', '<html>not a png</html>');
    case '/to-metadata':
      return send(302, 'text/plain', '', { location: 'http://169.254.169.254/latest/meta-data/' });
    case '/to-logo':
      return send(301, 'text/plain', '', { location: '/img/logo.png' });
    default:
      return send(404, 'text/html', '<h1>secret internal error page</h1>');
  }
}

let site: Server;
let base: string;
let t: TestApp;
/** The same api with no OUTBOUND_ALLOW_HOSTS: this machine is a private address to it. */
let strict: TestApp;
const tokens: Record<string, string> = {};
const fromUrl = (app: TestApp, user: string, body: Record<string, unknown>) =>
  app.http.post('/api/v1/storage/files/from_url').set('Authorization', `Bearer ${tokens[user]}`).send(body);

beforeAll(async () => {
  site = createServer(serve);
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  t = await startTestApp({ OUTBOUND_ALLOW_HOSTS: '127.0.0.1' });
  strict = await startTestApp({}, { shareWith: t });
  await t.tenant('Acme', { users: { agent: ['agent'], agent2: ['agent'], supervisor: ['supervisor'], admin: ['admin'] } });
  for (const name of ['agent', 'agent2', 'supervisor', 'admin']) tokens[name] = await t.login(`${name}@acme.test`);
});
afterAll(async () => {
  await strict?.close();
  await t?.close();
  await new Promise((resolve) => site?.close(resolve));
});

describe('POST /api/v1/storage/files/from_url', () => {
  it('downloads a pasted image and stores it as an upload of the agent, who can then attach and download it', async () => {
    const res = await fromUrl(t, 'agent', { url: `${base}/img/logo.png`, alt: 'nosso logo' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const stored = res.body.data.data as { uuid: string; uri: string; content_type: string; original_filename: string; size: number };
    expect(stored).toMatchObject({
      content_type: 'image/png',
      original_filename: 'logo.png',
      size: PNG.length,
      uri: `/api/v1/storage/files/${stored.uuid}`,
    });
    const row = await t.database.db.storedFile.findUniqueOrThrow({ where: { id: stored.uuid } });
    expect(row.uploadedById).not.toBeNull();
    const download = await t.http
      .get(stored.uri)
      .set('Authorization', `Bearer ${tokens.agent}`)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(download.status).toBe(200);
    expect(Buffer.compare(download.body as Buffer, PNG)).toBe(0);
    // Every signed-in role may, as with an upload.
    for (const user of ['supervisor', 'admin']) expect((await fromUrl(t, user, { url: `${base}/img/logo.png` })).status).toBe(201);
    expect((await t.http.post('/api/v1/storage/files/from_url').send({ url: `${base}/img/logo.png` })).status).toBe(401);
  });

  it('names a file after its address, else its alt text, and follows a redirect to the image', async () => {
    const named = await fromUrl(t, 'agent', { url: `${base}/?size=2`, alt: 'gato' });
    expect(named.status, JSON.stringify(named.body)).toBe(201);
    expect(named.body.data.data).toMatchObject({ original_filename: 'gato.jpg', content_type: 'image/jpeg' });
    const redirected = await fromUrl(t, 'agent', { url: `${base}/to-logo` });
    expect(redirected.status, JSON.stringify(redirected.body)).toBe(201);
    expect(redirected.body.data.data).toMatchObject({ original_filename: 'to-logo.png', content_type: 'image/png', size: PNG.length });
  });

  it('refuses an address on this machine when OUTBOUND_ALLOW_HOSTS does not list it, and a redirect to cloud metadata', async () => {
    const before = await t.database.db.storedFile.count();
    const local = await fromUrl(strict, 'agent', { url: `${base}/img/logo.png` });
    expect(local.status).toBe(400);
    expect(local.body).toMatchObject({ code: 'outbound_address_not_allowed', fields: [{ path: 'url' }] });
    const metadata = await fromUrl(t, 'agent', { url: `${base}/to-metadata` });
    expect(metadata.status).toBe(400);
    expect(metadata.body).toMatchObject({ code: 'outbound_address_not_allowed' });
    expect(await t.database.db.storedFile.count()).toBe(before);
  });

  it('refuses an image over the upload limit with 413 and the limit, whether or not its size was announced', async () => {
    const before = await t.database.db.storedFile.count();
    for (const path of ['/big.png', '/streamed-big.png']) {
      const res = await fromUrl(t, 'agent', { url: `${base}${path}` });
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(413);
      expect(res.body).toMatchObject({ code: 'payload_too_large', params: { max_bytes: UPLOAD_MAX_BYTES, max_size: '5 MB' } });
    }
    expect(await t.database.db.storedFile.count()).toBe(before);
  });

  it('refuses an SVG, a page, a PDF (an upload type, but not an image) and a PNG whose bytes are not one', async () => {
    const before = await t.database.db.storedFile.count();
    const svg = await fromUrl(t, 'agent', { url: `${base}/drawing.svg` });
    expect(svg.status).toBe(415);
    expect(svg.body).toMatchObject({ code: 'file_type_not_allowed', params: { type: 'image/svg+xml' } });
    const page = await fromUrl(t, 'agent', { url: `${base}/page.html` });
    expect(page.status).toBe(415);
    expect(page.body).toMatchObject({ code: 'file_type_not_allowed', params: { type: 'text/html' } });
    const pdf = await fromUrl(t, 'agent', { url: `${base}/manual.pdf` });
    expect(pdf.status).toBe(415);
    expect(pdf.body).toMatchObject({ code: 'file_type_not_allowed', params: { type: 'application/pdf' } });
    const fake = await fromUrl(t, 'agent', { url: `${base}/fake.png` });
    expect(fake.status).toBe(415);
    expect(fake.body).toMatchObject({ code: 'file_content_mismatch', params: { type: 'image/png' } });
    expect(await t.database.db.storedFile.count()).toBe(before);
  });

  it('answers 422 remote_file_unavailable with a status line, never the remote page, for a missing image or a closed port', async () => {
    const missing = await fromUrl(t, 'agent', { url: `${base}/sumiu.png` });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ code: 'remote_file_unavailable', params: { reason: 'HTTP 404 Not Found' } });
    expect(JSON.stringify(missing.body)).not.toContain('secret internal error page');
    // A port just closed: nobody answers there.
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const port = (gone.address() as AddressInfo).port;
    await new Promise((resolve) => gone.close(resolve));
    const unreachable = await fromUrl(t, 'agent', { url: `http://127.0.0.1:${port}/x.png` });
    expect(unreachable.status).toBe(422);
    expect(unreachable.body).toMatchObject({ code: 'remote_file_unavailable', params: { reason: 'no answer' } });
  });

  it('refuses what is not an http(s) address with 400, before any request', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/a.png', 'not a url', 'http://user:pass@127.0.0.1/a.png']) {
      const res = await fromUrl(t, 'agent', { url });
      expect(res.status, url).toBe(400);
      expect(res.body, url).toMatchObject({ error_message: expect.any(String) });
      expect(['validation_failed', 'url_invalid'], url).toContain(res.body.code);
    }
  });

  it(`takes at most ${URL_DOWNLOADS.limit} downloads per user and minute, then 429 with the wait`, async () => {
    // Refused addresses count too: each is a request the user made the server try.
    for (let i = 0; i < URL_DOWNLOADS.limit; i++)
      expect((await fromUrl(strict, 'agent2', { url: `${base}/img/logo.png` })).status).toBe(400);
    const over = await fromUrl(t, 'agent2', { url: `${base}/img/logo.png` });
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'remote_file_rate_limited', params: { retry_after_seconds: expect.any(Number) } });
    // Another user is not held back by it.
    expect((await fromUrl(t, 'agent', { url: `${base}/img/logo.png` })).status).toBe(201);
  });
});

describe('the stored name of a downloaded image', () => {
  it('is the last segment of the address, else the alt text, with the extension of its type', () => {
    expect(fileNameOf(new URL('https://a.test/p/foto%20azul.png?v=2'), 'image/png')).toBe('foto azul.png');
    expect(fileNameOf(new URL('https://a.test/'), 'image/jpeg', 'gato')).toBe('gato.jpg');
    expect(fileNameOf(new URL('https://a.test/render'), 'image/webp')).toBe('render.webp');
    expect(fileNameOf(new URL('https://a.test/'), 'image/gif')).toBe('image.gif');
    expect(fileNameOf(new URL('https://a.test/a%2F..%2F..%2Fetc%2Fpasswd'), 'image/png')).toBe('a_.._.._etc_passwd.png');
  });
});
