import {
  getDomainSwitchJwt,
  getSignInOptions,
  login,
  loginWithCode,
  loginWithDomainSwitchJwt,
  logout,
  requestPasswordReset,
  resetPasswordWithCode,
} from '@atende/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import type { PasswordRecoveryService } from './password-recovery';
import type { ClientInfo, SessionService } from './service';
import { SESSION_COOKIE } from './tokens';

export const clientInfo = (request: FastifyRequest): ClientInfo => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

export function sessionRoutes(app: FastifyInstance, ctx: AppContext, sessions: SessionService, recovery: PasswordRecoveryService): void {
  const setCookie = (reply: FastifyReply, token: string, maxAge: number) =>
    reply.setCookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure: ctx.env.COOKIE_SECURE, path: '/', maxAge });

  bind(app, login, 'public', async ({ body, request, reply }) => {
    const result = await sessions.login(body.email, body.password, clientInfo(request));
    setCookie(reply, result.token, result.maxAgeSeconds);
    return { data: result.data, token: result.token };
  });

  bind(app, loginWithCode, 'public', async ({ body, request, reply }) => {
    const result = await sessions.loginWithCode(body.login_code, clientInfo(request));
    setCookie(reply, result.token, result.maxAgeSeconds);
    return { data: result.data, token: result.token };
  });

  bind(app, loginWithDomainSwitchJwt, 'public', async ({ body, request, reply }) => {
    const result = await sessions.loginWithDomainSwitchToken(body.jwt, clientInfo(request));
    setCookie(reply, result.token, result.maxAgeSeconds);
    return { data: result.data, token: result.token };
  });

  bind(app, getDomainSwitchJwt, 'signed_in', async ({ session, query }) => ({
    data: await sessions.issueDomainSwitchToken(session, query.page),
  }));

  // Forgot password by e-mail code, offered only when the server sends mail.
  bind(app, getSignInOptions, 'public', async () => ({ data: { password_recovery: recovery.available } }));
  bind(app, requestPasswordReset, 'public', async ({ body, request }) => ({
    data: await recovery.request(body.email, clientInfo(request)),
  }));
  bind(app, resetPasswordWithCode, 'public', async ({ body, request }) => {
    await recovery.reset(body.email, body.code, body.password, clientInfo(request));
    return { data: { ok: true as const } };
  });

  bind(app, logout, 'signed_in', async ({ session, request, reply }) => {
    await sessions.logout(session, clientInfo(request));
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { data: { ok: true as const } };
  });
}
