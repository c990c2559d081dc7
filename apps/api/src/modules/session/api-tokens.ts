import { createHash, randomBytes } from 'node:crypto';
import { API_TOKEN_PREFIX, AppError } from '@atende/contract';
import { apiTokenHolder, revokeApiTokensOfUser, touchApiToken, type Db } from '@atende/db';
import { tenantConfigOf, type Session } from './session';

/** How often the last-use time of a token is written (not on every request). */
const LAST_USE_RESOLUTION_MS = 60_000;

export const hashApiToken = (token: string) => createHash('sha256').update(token).digest('hex');
export const isApiToken = (token: string) => token.startsWith(API_TOKEN_PREFIX);

/** A new secret token (prefix + 40 random base62-ish characters) and a public client id. */
export function newApiToken(): { token: string; clientId: string } {
  return { token: `${API_TOKEN_PREFIX}${randomBytes(30).toString('base64url')}`, clientId: `cli_${randomBytes(12).toString('hex')}` };
}

/**
 * The session an API token stands for: its creator with the creator's CURRENT roles, read on every
 * use (a demoted user's tokens lose the roles at once, a removed user's stop), while
 * the token is not revoked nor expired. Refused tokens answer 401 like a bad session.
 */
export async function resolveApiToken(db: Db, token: string): Promise<Session> {
  const row = await apiTokenHolder(db, hashApiToken(token));
  const now = Date.now();
  if (!row || row.revokedAt || row.deletedAt || row.roles.length === 0) throw new AppError('api_token_invalid', 'Invalid API token');
  if (row.expiresAt.getTime() <= now) throw new AppError('api_token_expired', 'This API token has expired');
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > LAST_USE_RESOLUTION_MS) {
    await touchApiToken(db, row.id, new Date(now));
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
    apiToken: true,
  };
}

/** Ends every API token a user made (their password changed: whoever held it may have made them). */
export async function revokeUserApiTokens(db: Pick<Db, 'apiToken'>, tenantId: string, userId: number): Promise<number> {
  return revokeApiTokensOfUser(db, tenantId, userId);
}
