import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sameSecret } from '@atende/channels';

/**
 * The Meta simulator's login side (login.ts speaks to it): the login dialog as a small HTML page
 * ("Continue as <user>" sends the browser back to redirect_uri with code and state, "Cancel" with
 * error=access_denied), the code and fb_exchange_token exchanges, /me/accounts with the demo user's
 * pages (one linked to an Instagram professional account) and /{page-id}/subscribed_apps.
 */

export interface SimulatedPage {
  id: string;
  name: string;
  accessToken: string;
  instagram?: { id: string; username: string };
}

export interface MetaLoginSimulatorOptions {
  appId: string;
  appSecret: string;
  /** The pages the demo user manages. */
  pages: SimulatedPage[];
  userName?: string;
}

export interface MetaLoginSimulator {
  /** Page ids subscribed to the app (POST /{page-id}/subscribed_apps), in order. */
  subscribed(): string[];
}

const CODE_TTL_MS = 10 * 60_000;
const loginError = (code: number, message: string, subcode?: number) => ({
  error: {
    message,
    type: 'OAuthException',
    code,
    ...(subcode ? { error_subcode: subcode } : {}),
    fbtrace_id: randomBytes(8).toString('base64url'),
  },
});
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function registerMetaLogin(app: FastifyInstance, options: MetaLoginSimulatorOptions): MetaLoginSimulator {
  const user = options.userName ?? 'Demo User';
  const codes = new Map<string, { redirectUri: string; expiresAt: number; used: boolean }>();
  const userTokens = new Set<string>();
  const subscribed: string[] = [];
  const tokenOf = (headers: Record<string, unknown>, query: Record<string, string | undefined>) => {
    const auth = headers.authorization;
    return typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice(7) : query.access_token;
  };
  const refused = (reply: FastifyReply, code: number, message: string, subcode?: number) =>
    reply.code(400).send(loginError(code, message, subcode));

  app.get<{ Params: { version: string }; Querystring: Record<string, string | undefined> }>(
    '/:version/dialog/oauth',
    async (request, reply) => {
      const { client_id: clientId, redirect_uri: redirectUri, state = '' } = request.query;
      if (clientId !== options.appId || !redirectUri || !URL.canParse(redirectUri) || !/^https?:$/.test(new URL(redirectUri).protocol)) {
        return reply.code(400).type('text/html').send('<!doctype html><title>Error</title><p>Invalid app ID or redirect_uri.</p>');
      }
      const code = `AQ${randomBytes(24).toString('base64url')}`;
      codes.set(code, { redirectUri, expiresAt: Date.now() + CODE_TTL_MS, used: false });
      const back = (params: Record<string, string>) => {
        const url = new URL(redirectUri);
        for (const [k, v] of Object.entries({ ...params, state })) url.searchParams.set(k, v);
        return escapeHtml(url.toString());
      };
      const scopes = (request.query.scope ?? '')
        .split(',')
        .filter(Boolean)
        .map((s) => `<li>${escapeHtml(s)}</li>`)
        .join('');
      return reply.type('text/html')
        .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Log in with Facebook</title></head>
<body style="font-family:sans-serif;max-width:28rem;margin:4rem auto">
<h1>Meta (simulator)</h1><p>Atende is requesting access to:</p><ul>${scopes}</ul>
<p><a id="continue" href="${back({ code })}">Continue as ${escapeHtml(user)}</a></p>
<p><a id="cancel" href="${back({ error: 'access_denied', error_code: '200', error_description: 'Permissions error', error_reason: 'user_denied' })}">Cancel</a></p>
</body></html>`);
    },
  );

  app.get<{ Params: { version: string }; Querystring: Record<string, string | undefined> }>(
    '/:version/oauth/access_token',
    async (request, reply) => {
      const q = request.query;
      if (q.client_id !== options.appId || !sameSecret(q.client_secret, options.appSecret))
        return refused(reply, 101, 'Error validating application. Invalid application ID or secret.');
      if (q.grant_type === 'fb_exchange_token') {
        if (!q.fb_exchange_token || !userTokens.has(q.fb_exchange_token))
          return refused(reply, 190, 'Invalid OAuth access token - Cannot parse access token');
        const token = `EAAlong${randomBytes(18).toString('base64url')}`;
        userTokens.add(token);
        return { access_token: token, token_type: 'bearer', expires_in: 5_183_944 };
      }
      const entry = q.code ? codes.get(q.code) : undefined;
      if (!entry) return refused(reply, 100, 'Invalid verification code format.');
      if (entry.used) return refused(reply, 100, 'This authorization code has been used.', 36009);
      if (entry.expiresAt < Date.now()) return refused(reply, 100, 'This authorization code has expired.', 36007);
      if (entry.redirectUri !== q.redirect_uri)
        return refused(
          reply,
          100,
          'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
          36008,
        );
      entry.used = true;
      const token = `EAAuser${randomBytes(18).toString('base64url')}`;
      userTokens.add(token);
      return { access_token: token, token_type: 'bearer', expires_in: 5400 };
    },
  );

  app.get<{ Params: { version: string }; Querystring: Record<string, string | undefined> }>(
    '/:version/me/accounts',
    async (request, reply) => {
      const token = tokenOf(request.headers, request.query);
      if (!token || !userTokens.has(token)) return refused(reply, 190, 'Invalid OAuth access token - Cannot parse access token');
      const data = options.pages.map((p) => ({
        id: p.id,
        name: p.name,
        access_token: p.accessToken,
        category: 'Business',
        tasks: ['ANALYZE', 'ADVERTISE', 'MESSAGING', 'MODERATE', 'CREATE_CONTENT', 'MANAGE'],
        ...(p.instagram ? { instagram_business_account: { id: p.instagram.id, username: p.instagram.username } } : {}),
      }));
      return { data, paging: { cursors: { before: 'MAZDZD', after: 'MQZDZD' } } };
    },
  );

  app.post<{ Params: { version: string; node: string }; Querystring: Record<string, string | undefined> }>(
    '/:version/:node/subscribed_apps',
    async (request, reply) => {
      const page = options.pages.find((p) => p.id === request.params.node);
      if (!page) return refused(reply, 100, `(#100) Object with ID '${request.params.node}' does not exist`, 33);
      if (!sameSecret(tokenOf(request.headers, request.query), page.accessToken))
        return refused(reply, 190, 'Invalid OAuth access token - Cannot parse access token');
      if (!subscribed.includes(page.id)) subscribed.push(page.id);
      return { success: true };
    },
  );
  app.get('/_simulator/subscribed_apps', async () => ({ subscribed }));

  return { subscribed: () => [...subscribed] };
}
