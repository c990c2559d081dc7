import type { Prisma, Role } from '../generated/prisma/client';
import type { WorkspaceScope } from './workspace';

type Client = Pick<Prisma.TransactionClient, 'apiToken'>;

export type ApiTokenRow = Prisma.ApiTokenGetPayload<object>;

/** What an API token's use reads: the token, its creator's current roles and state, the tenant's config. */
export interface ApiTokenHolderRow {
  id: string;
  tenantId: string;
  roles: Role[];
  revokedAt: Date | null;
  expiresAt: Date;
  lastUsedAt: Date | null;
  userId: number;
  userUuid: string;
  workspaceId: string;
  deletedAt: Date | null;
  config: unknown;
}

/** The token with this hash and who holds it, or null; one indexed join, on every request the token makes. */
export async function apiTokenHolder(
  db: Pick<Prisma.TransactionClient, '$queryRaw'>,
  tokenHash: string,
): Promise<ApiTokenHolderRow | null> {
  const [row] = await db.$queryRaw<
    ApiTokenHolderRow[]
  >`SELECT k.id, k."tenantId", u.roles::text[] AS roles, k."revokedAt", k."expiresAt", k."lastUsedAt",
           u.id AS "userId", u.uuid::text AS "userUuid", k."workspaceId", u."deletedAt", t.config
    FROM "ApiToken" k JOIN "User" u ON u.id = k."userId" JOIN "Tenant" t ON t.id = k."tenantId"
    WHERE k."tokenHash" = ${tokenHash}`;
  return row ?? null;
}

export async function touchApiToken(db: Client, id: string, at: Date): Promise<void> {
  await db.apiToken.update({ where: { id }, data: { lastUsedAt: at } });
}

/** Revokes every live API token a user made; how many. */
export async function revokeApiTokensOfUser(db: Client, tenantId: string, userId: number): Promise<number> {
  const { count } = await db.apiToken.updateMany({ where: { tenantId, userId, revokedAt: null }, data: { revokedAt: new Date() } });
  return count;
}

/** The workspace's live (not revoked, not expired) tokens, newest first, optionally by client name (contains) or id. */
export function listLiveApiTokens(
  db: Client,
  ws: WorkspaceScope,
  filter: { clientName?: string | undefined; clientId?: string | undefined },
): Promise<ApiTokenRow[]> {
  return db.apiToken.findMany({
    where: {
      tenantId: ws.tenantId,
      workspaceId: ws.workspaceId,
      revokedAt: null,
      expiresAt: { gt: new Date() },
      ...(filter.clientName ? { clientName: { contains: filter.clientName, mode: 'insensitive' } } : {}),
      ...(filter.clientId ? { clientId: filter.clientId } : {}),
    },
    orderBy: { createdAt: 'desc' },
  });
}

export function insertApiToken(
  db: Client,
  ws: WorkspaceScope,
  t: { userId: number; clientName: string; clientId: string; tokenHash: string; tokenPrefix: string; roles: Role[]; expiresAt: Date },
): Promise<ApiTokenRow> {
  return db.apiToken.create({ data: { tenantId: ws.tenantId, workspaceId: ws.workspaceId, ...t } });
}

/** The workspace's token not revoked (expired or not), or null. */
export function findUnrevokedApiToken(db: Client, ws: WorkspaceScope, id: string): Promise<ApiTokenRow | null> {
  return db.apiToken.findFirst({ where: { id, tenantId: ws.tenantId, workspaceId: ws.workspaceId, revokedAt: null } });
}

export async function revokeApiToken(db: Client, tenantId: string, id: string): Promise<void> {
  await db.apiToken.update({ where: { id, tenantId }, data: { revokedAt: new Date() } });
}
