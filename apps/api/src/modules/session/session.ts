import { AppError, TenantConfigSchema, type Role, type TenantConfig } from '@atende/contract';
import type { Db } from '@atende/db';
import { verifySessionToken } from './tokens';

/** Who is calling, resolved from the token on every request. Roles are those of sign-in time (spec 000 §6). */
export interface Session {
  sessionId: string;
  userId: number;
  userUuid: string;
  tenantId: string;
  workspaceId: string;
  roles: Role[];
  tenantConfig: TenantConfig;
  expiresAt: Date;
}

export function tenantConfigOf(raw: unknown): TenantConfig {
  const parsed = TenantConfigSchema.safeParse(raw ?? {});
  return parsed.success ? parsed.data : TenantConfigSchema.parse({});
}

/** Verifies the token and checks, in Postgres, that its session is live and its user still exists. */
export async function resolveSession(db: Db, token: string, secret: string): Promise<Session> {
  const verified = verifySessionToken(token, secret);
  if (!verified.ok) {
    throw verified.reason === 'expired'
      ? new AppError('session_expired', 'Your session has expired, sign in again')
      : new AppError('unauthorized', 'Invalid session token');
  }
  const { claims } = verified;
  const row = await db.userSession.findUnique({
    where: { id: claims.sid },
    include: { user: { include: { tenant: true } } },
  });
  if (!row || row.revokedAt || row.expiresAt <= new Date() || row.user.deletedAt || row.user.uuid !== claims.sub || row.tenantId !== claims.tid) {
    throw new AppError('session_expired', 'Your session has ended, sign in again');
  }
  return {
    sessionId: row.id,
    userId: row.user.id,
    userUuid: row.user.uuid,
    tenantId: row.tenantId,
    workspaceId: row.user.workspaceId,
    roles: row.roles as Role[],
    tenantConfig: tenantConfigOf(row.user.tenant.config),
    expiresAt: row.expiresAt,
  };
}
