import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerWeb } from './web';

// The built web app as the api serves it: /login gets its own light page, every
// other client route the app, hashed assets precompressed and immutable, pages always revalidated.
let dist: string;
let app: FastifyInstance;
const ASSET = 'console.log("an asset of the build, long enough to be worth compressing");'.repeat(20);

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'atende-web-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<html>the app</html>');
  writeFileSync(join(dist, 'login.html'), '<html>the sign-in page</html>');
  writeFileSync(join(dist, 'app.html'), '<html>the app, the workstation preloaded</html>');
  writeFileSync(join(dist, 'assets/app-abc123.js'), ASSET);
  writeFileSync(join(dist, 'assets/app-abc123.js.br'), brotliCompressSync(ASSET));
  app = Fastify();
  expect(await registerWeb(app, dist)).toBe(true);
});
afterAll(async () => {
  await app.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('web app serving', () => {
  it('sends the sign-in page for /login and the app for every other client route, never cached', async () => {
    for (const [url, body] of [
      ['/login', 'the sign-in page'],
      ['/login/?max_agents_reached=true', 'the sign-in page'],
      ['/app', 'the app, the workstation preloaded'],
      ['/app/?tab=1', 'the app, the workstation preloaded'],
      ['/app/chat-history', '<html>the app</html>'],
      ['/application', '<html>the app</html>'],
      ['/admin/users', '<html>the app</html>'],
      ['/login-history', 'the app'],
    ] as const) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain(body);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('sends a hashed asset brotli-compressed to a browser that accepts it, cached for a year', async () => {
    const res = await app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.length).toBeLessThan(ASSET.length);
  });

  it('answers an unknown api path with a JSON 404, not a page', async () => {
    const res = await app.inject({ url: '/api/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
  });

  it('still serves the app at /login and /app from a build without the sign-in and agent pages', async () => {
    const old = mkdtempSync(join(tmpdir(), 'atende-web-old-'));
    writeFileSync(join(old, 'index.html'), '<html>the app</html>');
    const server = Fastify();
    await registerWeb(server, old);
    for (const url of ['/login', '/app']) {
      const res = await server.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe('<html>the app</html>');
    }
    await server.close();
    rmSync(old, { recursive: true, force: true });
  });
});
