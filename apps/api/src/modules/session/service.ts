import { randomBytes, randomUUID } from 'node:crypto';
import { AppError, isFeatureOn, rooms, type Role } from '@atende/contract';
import { agentAvailable, presentUser, returnAgentChats, signOffAgent } from '@atende/conversations';
import {
  countLiveSessions,
  dummyPasswordHash,
  liveSessionIds,
  liveUserByUuid,
  openUserSession,
  recordLoginEvent,
  recordLoginEvents,
  revokeUserSessions,
  setActingSession,
  signInCandidates,
  userWithTenant,
  verifyPassword,
  withTransaction,
  type Prisma,
} from '@atende/db';
import type { AppContext } from '../../context';
import { seenAtSignIn } from '../../realtime/presence';
import { LoginThrottle } from './login-throttle';
import { tenantConfigOf, type Session } from './session';
import { DOMAIN_SWITCH_TTL_SECONDS, signDomainSwitchToken, verifyDomainSwitchToken } from './domain-switch';
import { signSessionToken } from './tokens';

export interface ClientInfo {
  ip: string;
  userAgent?: string;
}

const LOGIN_CODE_TTL_SECONDS = 60;

export class SessionService {
  private readonly throttle: LoginThrottle;

  constructor(private readonly ctx: AppContext) {
    this.throttle = new LoginThrottle(ctx.redis, ctx.env.REDIS_PREFIX, {
      freePerPair: ctx.env.LOGIN_FREE_ATTEMPTS_PER_PAIR,
      perIp: ctx.env.LOGIN_MAX_ATTEMPTS_PER_IP,
      windowSeconds: ctx.env.LOGIN_WINDOW_SECONDS,
      maxDelaySeconds: ctx.env.LOGIN_MAX_DELAY_SECONDS,
    });
  }

  /** Email and password sign-in. Wrong credentials answer 401 without saying which part was wrong. */
  async login(emailInput: string, password: string, client: ClientInfo) {
    const email = emailInput.trim().toLowerCase();
    await this.throttle.assertAllowed(email, client.ip);
    // The same email may exist in several tenants: the password decides which account it is.
    const candidates = await signInCandidates(this.ctx.db, email);
    let matched: (typeof candidates)[number] | undefined;
    for (const user of candidates) {
      if (await verifyPassword(user.passwordHash, password)) {
        matched = user;
        break;
      }
    }
    if (candidates.length === 0) await verifyPassword(await dummyPasswordHash(), password);
    if (!matched) {
      await this.throttle.recordFailure(email, client.ip);
      // The same e-mail may be a user of several tenants and no password matched: the attempt was on
      // each of those accounts, so each tenant's login history shows it (never another tenant's).
      if (candidates.length > 0) {
        await recordLoginEvents(
          this.ctx.db,
          candidates.map((user) => ({
            tenantId: user.tenantId,
            userId: user.id,
            event: 'login_failed',
            ip: client.ip,
            userAgent: client.userAgent?.slice(0, 512),
          })),
        );
      }
      throw new AppError('invalid_credentials', 'Invalid email or password');
    }
    await this.throttle.recordSuccess(email, client.ip);
    const started = await this.startSession(matched.id, client);
    await agentAvailable(this.ctx, matched.tenantId, matched.id);
    return started;
  }

  /**
   * Checks a signed-in user's current password (password change). Wrong guesses count
   * against the account's sign-in limit, so a borrowed session cannot brute-force the password.
   */
  async verifyCurrentPassword(user: { email: string; passwordHash: string }, password: string, client: ClientInfo): Promise<boolean> {
    await this.throttle.assertAllowed(user.email, client.ip);
    const ok = await verifyPassword(user.passwordHash, password);
    if (!ok) await this.throttle.recordFailure(user.email, client.ip);
    return ok;
  }

  /** Sign-in with a one-time code from the QR modal; the code is consumed whatever happens next. */
  async loginWithCode(code: string, client: ClientInfo) {
    await this.throttle.assertAllowed(`code:${client.ip}`, client.ip);
    const userId = await this.ctx.redis.getdel(this.codeKey(code));
    if (!userId) {
      await this.throttle.recordFailure(`code:${client.ip}`, client.ip);
      throw new AppError('login_code_invalid', 'This login code is invalid or has expired');
    }
    const user = await userWithTenant(this.ctx.db, Number(userId));
    if (!user || user.deletedAt) throw new AppError('login_code_invalid', 'This login code is invalid or has expired');
    // The flag is checked when the code is used too: switching qr_code_login off stops codes already shown.
    if (!isFeatureOn({ config: tenantConfigOf(user.tenant.config) }, 'qr_code_login')) {
      throw new AppError('feature_disabled', 'Feature not enabled for this tenant');
    }
    return this.startSession(user.id, client);
  }

  async issueLoginCode(session: Session): Promise<{ login_code: string; tenant_domain: string; expires_in: number }> {
    const code = randomBytes(24).toString('base64url');
    await this.ctx.redis.set(this.codeKey(code), String(session.userId), 'EX', LOGIN_CODE_TTL_SECONDS);
    return { login_code: code, tenant_domain: this.ctx.env.TENANT_DOMAIN, expires_in: LOGIN_CODE_TTL_SECONDS };
  }

  /**
   * (GET /sso/domain_switch/jwt): a token that signs the caller in on another domain
   * of this deployment (same JWT_SECRET, database and Redis) through /ssoload. Its jti is kept in
   * Redis for its 60 s and taken on use, so it works once.
   */
  async issueDomainSwitchToken(session: Session, page: string | undefined) {
    // An integration's token has no browser to move, and must not turn into its creator's session.
    if (session.apiToken) throw new AppError('api_token_switches_domain', 'API tokens cannot switch domains');
    const { token, jti } = signDomainSwitchToken({ uuid: session.userUuid, tenantId: session.tenantId }, this.ctx.env.JWT_SECRET);
    await this.ctx.redis.set(this.domainSwitchKey(jti), session.userUuid, 'EX', DOMAIN_SWITCH_TTL_SECONDS);
    const query = new URLSearchParams({ jwt: token, ...(page ? { page } : {}) });
    return { jwt: token, expires_in: DOMAIN_SWITCH_TTL_SECONDS, ssoload_path: `/ssoload?${query}` };
  }

  /** Signs in with a domain-switch token: well signed, unexpired, and not used before. */
  async loginWithDomainSwitchToken(token: string, client: ClientInfo) {
    const refused = new AppError('sign_in_link_invalid', 'This sign-in link is invalid or has expired');
    await this.throttle.assertAllowed(`sso:${client.ip}`, client.ip);
    const claims = verifyDomainSwitchToken(token, this.ctx.env.JWT_SECRET);
    const owner = claims ? await this.ctx.redis.getdel(this.domainSwitchKey(claims.jti)) : null;
    if (!claims || owner !== claims.sub) {
      await this.throttle.recordFailure(`sso:${client.ip}`, client.ip);
      throw refused;
    }
    const user = await liveUserByUuid(this.ctx.db, claims.tid, claims.sub);
    if (!user) throw refused;
    return this.startSession(user.id, client);
  }

  private domainSwitchKey(jti: string) {
    return `${this.ctx.env.REDIS_PREFIX}domain-switch:${jti}`;
  }

  private codeKey(code: string) {
    return `${this.ctx.env.REDIS_PREFIX}login-code:${code}`;
  }

  private async startSession(userId: number, client: ClientInfo) {
    const { env, db } = this.ctx;
    const expiresAt = new Date(Date.now() + env.SESSION_TTL_SECONDS * 1000);
    const sessionId = randomUUID();
    const user = await openUserSession(db, {
      sessionId,
      userId,
      expiresAt,
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 512) ?? null,
    });
    await seenAtSignIn(this.ctx.redis, env.REDIS_PREFIX, user.id).catch((error: unknown) =>
      this.ctx.log.warn({ err: error }, 'presence start failed'),
    );
    const token = signSessionToken({ sid: sessionId, sub: user.uuid, tid: user.tenantId }, env.JWT_SECRET, env.SESSION_TTL_SECONDS);
    this.ctx.realtime.emit(rooms.metrics(user.tenantId), 'update-user', { tenant_uuid: user.tenantId, user: presentUser(user) });
    return {
      token,
      maxAgeSeconds: env.SESSION_TTL_SECONDS,
      data: { uuid: user.uuid, email: user.email, username: user.username, tenant: { uuid: user.tenantId }, roles: user.roles as Role[] },
    };
  }

  /** Ends the caller's session (the agent's active chats return to the queue). */
  async logout(session: Session, client: ClientInfo): Promise<void> {
    // An integration has no sign-in to end, and must not sign its creator out: its token is revoked in the settings.
    if (session.apiToken)
      throw new AppError('api_token_sign_out_refused', 'API tokens are revoked in the integrations settings, not signed out');
    await this.revokeSessions({ id: session.sessionId }, 'logout', async () => {
      const others = await countLiveSessions(this.ctx.db, session.userId);
      await recordLoginEvent(this.ctx.db, {
        tenantId: session.tenantId,
        userId: session.userId,
        event: 'logout',
        ip: client.ip,
        userAgent: client.userAgent?.slice(0, 512),
      });
      // Signed in elsewhere with a browser still connected: the user stays logged in there, but the
      // chats go back to the queue all the same, as the logout dialog says. A
      // session no browser is using keeps nobody online.
      if (others > 0 && (await this.ctx.realtime.connectedElsewhere(session.userUuid, session.sessionId))) {
        await returnAgentChats(this.ctx, session.tenantId, session.userId, 'logoff');
      } else {
        await this.takeUserOffline(session.tenantId, session.userId, 'self');
      }
    });
  }

  /**
   * Revokes sessions, then runs `announce` (events the dropped browsers must still receive), then
   * drops their live sockets on every api process.
   */
  async revokeSessions(
    where: { id?: string; userId?: number; notId?: string },
    reason: string,
    announce?: () => Promise<void>,
  ): Promise<string[]> {
    const ids = await revokeUserSessions(this.ctx.db, where, reason);
    await announce?.();
    await this.ctx.realtime.disconnectSessions(ids);
    return ids;
  }

  /**
   * Writes a user's row in one transaction that names the calling session, where the database ends
   * the user's other live sessions if the write changes their roles or removes them (trigger
   * User_sessions_follow_user: a demoted admin's open session must not keep acting as admin). The calling session, when it is that user's, takes the new roles instead. Then
   * `announce` runs (what the ended browsers must still hear), then their sockets are dropped.
   */
  async writeUser<T>(
    caller: Session,
    userId: number,
    write: (tx: Prisma.TransactionClient) => Promise<T>,
    announce?: (result: T) => Promise<unknown>,
  ): Promise<T> {
    const { result, ended } = await withTransaction(this.ctx.db, async (tx) => {
      // An API token is not a session: the token's holder keeps none while their roles change.
      if (!caller.apiToken) await setActingSession(tx, caller.sessionId);
      const live = await liveSessionIds(tx, userId);
      const result = await write(tx);
      const kept = new Set(await liveSessionIds(tx, userId));
      return { result, ended: live.filter((id) => !kept.has(id)) };
    });
    await announce?.(result);
    await this.ctx.realtime.disconnectSessions(ended);
    return result;
  }

  /**
   * Marks the user offline, tells their browsers and the supervisors' dashboards, and returns their
   * active chats to the queue; the worker does the same when every session expired.
   */
  async takeUserOffline(tenantId: string, userId: number, by: 'self' | 'supervisor' | 'system'): Promise<void> {
    await signOffAgent(this.ctx, tenantId, userId, by);
  }
}
