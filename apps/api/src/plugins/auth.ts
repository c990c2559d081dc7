import { AppError, type Role } from '@atende/contract';
import { currentRoles } from '@atende/db';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { resolveSession, type Session } from '../modules/session/session';
import { tokenFrom } from '../modules/session/tokens';
import { isApiToken, resolveApiToken } from '../modules/session/api-tokens';
import { allowedOrigins, assertSameOriginWrite } from './security-headers';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's bearer is a custom channel's token (RouteDef.channelToken): no session is resolved. */
    channelToken?: boolean;
  }
  interface FastifyRequest {
    /** The caller's session, or null when the request carries no valid one. */
    session: Session | null;
    /** Why the token was refused, answered when the route needs a session. */
    sessionError: AppError | null;
    /** The caller's roles as stored now (null once removed), for privileged writes. */
    storedRoles: (() => Promise<Role[] | null>) | null;
  }
}

/** Resolves the session of every /api (and /sso) request from its bearer token or cookie. */
export function registerAuth(app: FastifyInstance, ctx: AppContext): void {
  const allowed = allowedOrigins(ctx.env.ALLOWED_ORIGINS);
  app.decorateRequest('session', null);
  app.decorateRequest('sessionError', null);
  app.decorateRequest('storedRoles', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/') && !request.url.startsWith('/sso/')) return;
    // A channel's token is no session: trying one cost a failed JWT check and an error's stack
    // trace on every contact message.
    if (request.routeOptions.config.channelToken) return;
    const token = tokenFrom(request.headers, request.cookies ?? {});
    if (!token) return;
    // A cookie-authenticated write must come from one of our pages (CSRF).
    assertSameOriginWrite(request, allowed, !request.headers.authorization);
    request.storedRoles = async () => {
      if (!request.session) return null;
      return currentRoles(ctx.db, request.session.userId);
    };
    try {
      // An integration's API token (/api/v1/oauth/tokens) or a user's session token.
      request.session = isApiToken(token) ? await resolveApiToken(ctx.db, token) : await resolveSession(ctx.db, token, ctx.env.JWT_SECRET);
    } catch (error) {
      if (error instanceof AppError) request.sessionError = error;
      else throw error;
    }
  });
}
