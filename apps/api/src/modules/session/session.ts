import { AppError, type Role, type TenantConfig } from '@atende/contract';
import { tenantConfigOf } from '@atende/core';
import { sessionHolder, type Db } from '@atende/db';
import { verifySessionToken } from './tokens';

/** Who is calling, resolved from the token on every request. Roles are those of sign-in time; a change of them ends the session (UserSession.roles). */
export interface Session {
  sessionId: string;
  userId: number;
  userUuid: string;
  tenantId: string;
  workspaceId: string;
  roles: Role[];
  tenantConfig: TenantConfig;
  expiresAt: Date;
  /** Set when the caller is an integration's API token (sessionId is then the token's id). */
  apiToken?: true;
}

export { tenantConfigOf };

/** Verifies the token and checks, in Postgres, that its session is live and its user still exists. */
export async function resolveSession(db: Db, token: string, secret: string): Promise<Session> {
  const verified = verifySessionToken(token, secret);
  if (!verified.ok) {
    throw verified.reason === 'expired'
      ? new AppError('session_expired', 'Your session has expired, sign in again')
      : new AppError('session_token_invalid', 'Invalid session token');
  }
  const { claims } = verified;
  // Runs on every request: one indexed join in plain SQL rather than three ORM queries.
  const row = await sessionHolder(db, claims.sid);
  if (!row || row.revokedAt || row.expiresAt <= new Date() || row.deletedAt || row.userUuid !== claims.sub || row.tenantId !== claims.tid) {
    throw new AppError('session_ended', 'Your session has ended, sign in again');
  }
  return {
    sessionId: row.id,
    userId: row.userId,
    userUuid: row.userUuid,
    tenantId: row.tenantId,
    workspaceId: row.workspaceId,
    roles: row.roles,
    tenantConfig: tenantConfigOf(row.config),
    expiresAt: row.expiresAt,
  };
}
