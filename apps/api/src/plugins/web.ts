import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { isAgentScreenPath } from '@atende/core';

const SIGN_IN_PATH = /^\/login\/?$/;

/**
 * Serves the built web app from the api's own origin, so one URL has it all. Unknown paths that
 * are not /api, /sso or /socket get index.html (client-side routing). Returns false when no build exists.
 */
export async function registerWeb(app: FastifyInstance, dist: string): Promise<boolean> {
  if (!existsSync(join(dist, 'index.html'))) return false;
  const hasLoginPage = existsSync(join(dist, 'login.html'));
  const hasAgentPage = existsSync(join(dist, 'app.html'));
  await app.register(fastifyStatic, {
    root: dist,
    wildcard: false,
    index: false,
    // The build writes .br and .gz beside each asset (apps/web/vite.config.ts): sent as they are, with
    // content-encoding, to clients that accept them.
    preCompressed: true,
    // Our own Cache-Control below, not the plugin's max-age=0.
    cacheControl: false,
    setHeaders(res, path) {
      // Vite fingerprints assets: cache them for a year; index.html must always be revalidated.
      res.setHeader('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.get('/*', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path.startsWith('/api/') || path.startsWith('/sso/') || path.startsWith('/socket')) {
      return reply.status(404).send({ error_message: `No route ${request.method} ${path}`, code: 'not_found' });
    }
    const file = path.slice(1);
    if (file && !file.includes('..') && existsSync(join(dist, file))) return reply.sendFile(file);
    // /login has a page of its own, the sign-in form without the app.
    // /app is the app with the agent screen's chunks preloaded; the other routes fetch theirs on use.
    const page =
      SIGN_IN_PATH.test(path) && hasLoginPage ? 'login.html' : isAgentScreenPath(path) && hasAgentPage ? 'app.html' : 'index.html';
    return reply.type('text/html').header('Cache-Control', 'no-cache').sendFile(page);
  });
  return true;
}
