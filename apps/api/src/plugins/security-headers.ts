import helmet from '@fastify/helmet';
import { AppError } from '@atende/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The livechat widget page: the one page websites embed in an iframe. */
const FRAMABLE = /^\/livechat\/[^/?#]+\/?(?:[?#]|$)/;

/** Where the pages may load images and frame, besides our own origin. */
export interface CspSources {
  production: boolean;
  /** VOICE_PHONE_DOMAINS: the voice-phone embed is framed only on them; empty: every https address. */
  voicePhoneDomains: readonly string[];
}

/**
 * The web app's Content-Security-Policy (docs/security.md): scripts only from
 * our origin, never inline; styles may be inline because Mantine writes its CSS variables in a style
 * tag. Every page connects to our origin alone (connect-src 'self'): the api, socket.io and stored
 * files (on disk or S3) are served through it, and a pasted markdown image is downloaded by the
 * server (POST /api/v1/storage/files/from_url, through the guarded outbound client), not by the
 * browser, so a script injected into a page cannot send what it reads to another site. Images stay
 * open to any https site (img-src): the app shows pictures that are not ours, contacts' pictures,
 * template headers, the livechat widget's logo, avatar and background. Frames, per page:
 * - the livechat widget, which any site may frame, frames nothing;
 * - the agent app frames only the voice-phone provider's domains (any https address while
 *   VOICE_PHONE_DOMAINS is empty, as the integration then accepts any). The tenant's external-system
 *   page frames its url under the same frame-src: with VOICE_PHONE_DOMAINS set it must be on them too.
 * Outside production the local simulators and test pages on this machine may be plain http (images, frames).
 */
export function contentSecurityPolicy(path: string, sources: CspSources): string {
  const widget = FRAMABLE.test(path);
  const local = sources.production ? [] : ['http://localhost:*', 'http://127.0.0.1:*'];
  const remote = ['https:', ...local].join(' ');
  // Host names only: a stray character in the setting must not end up as a directive of the header.
  const domains = sources.voicePhoneDomains.filter((d) => /^[a-z0-9.-]+$/i.test(d));
  const voicePhone = domains.length ? [...domains.flatMap((d) => [`https://${d}`, `https://*.${d}`]), ...local].join(' ') : remote;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${remote}`,
    "media-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    widget ? "frame-src 'none'" : `frame-src 'self' ${voicePhone}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${widget ? '*' : "'none'"}`,
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

export const allowedOrigins = (list: string): Set<string> =>
  new Set(
    list
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
  );

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

/**
 * Security headers on every answer (@fastify/helmet), and the web app's CSP on its pages. `https`:
 * the app is served over https (PUBLIC_URL, or COOKIE_SECURE), so browsers are told to keep to it (HSTS).
 */
export async function registerSecurityHeaders(app: FastifyInstance, options: CspSources & { https: boolean }): Promise<void> {
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
      reply.header('content-security-policy', contentSecurityPolicy(path, options));
      if (!FRAMABLE.test(path)) reply.header('x-frame-options', 'DENY');
    }
    return payload;
  });
}
