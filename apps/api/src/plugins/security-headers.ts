import helmet from '@fastify/helmet';
import { AppError } from '@atende/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The livechat widget page: the one page websites embed in an iframe (spec 002 §3). */
const FRAMABLE = /^\/livechat\/[^/?#]+\/?(?:[?#]|$)/;

/**
 * The web app's Content-Security-Policy (issue 12 item 6): scripts only from our origin, never
 * inline; styles may be inline because Mantine writes its CSS variables in a style tag; images
 * also from https (livechat logos and avatars may be https addresses) and blob/data (previews);
 * the composer fetches pasted markdown images from their sites; the voice-phone embed is an
 * iframe. Outside production (local simulators, test pages) those may be plain http too. Only the
 * widget page may be framed, by any site.
 */
export function contentSecurityPolicy(path: string, production = true): string {
  const remote = production ? 'https:' : 'https: http:';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${remote}`,
    "media-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${remote}`,
    `frame-src ${remote}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${FRAMABLE.test(path) ? '*' : "'none'"}`,
  ].join('; ');
}

/** Whether a browser's Origin is ours or listed (ALLOWED_ORIGINS); a missing one is not a browser's request. */
export function originAllowed(origin: string | undefined, host: string | undefined, allowed: ReadonlySet<string>): boolean {
  if (origin === undefined) return true;
  if (allowed.has(origin)) return true;
  if (!host || !URL.canParse(origin)) return false;
  const url = new URL(origin);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === host;
}

export const allowedOrigins = (list: string): Set<string> => new Set(list.split(',').map((o) => o.trim()).filter(Boolean));

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The origin a browser request came from: its Origin header, else the origin of its Referer. */
function requestOrigin(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  if (typeof origin === 'string') return origin;
  const referer = request.headers.referer;
  if (typeof referer === 'string' && URL.canParse(referer)) return new URL(referer).origin;
  return undefined;
}

/**
 * A state-changing request authenticated by the session cookie must come from a page of ours (or of
 * an allowed origin): the cookie goes with any site's form post, so without this check another site
 * could act for a signed-in user (CSRF). Bearer tokens are not sent by browsers on their own.
 */
export function assertSameOriginWrite(request: FastifyRequest, allowed: ReadonlySet<string>, viaCookie: boolean): void {
  if (!viaCookie || !STATE_CHANGING.has(request.method)) return;
  if (!originAllowed(requestOrigin(request), request.headers.host, allowed)) {
    throw new AppError('origin_not_allowed', 'This request comes from a site that is not allowed to act on this account');
  }
}

/** Security headers on every answer (@fastify/helmet), and the web app's CSP on its pages. */
export async function registerSecurityHeaders(app: FastifyInstance, options: { https: boolean; production: boolean }): Promise<void> {
  await app.register(helmet, {
    // Set per page below: only HTML needs it, and the widget page differs.
    contentSecurityPolicy: false,
    frameguard: false,
    referrerPolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    // HSTS only means something behind HTTPS.
    strictTransportSecurity: options.https,
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('text/html')) {
      const path = request.url;
      reply.header('content-security-policy', contentSecurityPolicy(path, options.production));
      if (!FRAMABLE.test(path)) reply.header('x-frame-options', 'DENY');
    }
    return payload;
  });
}
