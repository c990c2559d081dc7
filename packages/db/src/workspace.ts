import type { Prisma } from '../generated/prisma/client';
import type { Db } from './client';

/** A tenant's workspace: what admin records belong to. */
export interface WorkspaceScope {
  tenantId: string;
  workspaceId: string;
}

/** How many of these ids are live (not deleted) sectors of the workspace. */
export function countLiveSectors(
  db: Pick<Prisma.TransactionClient, 'sector'>,
  ws: WorkspaceScope,
  ids: readonly string[],
): Promise<number> {
  return db.sector.count({ where: { id: { in: [...ids] }, tenantId: ws.tenantId, workspaceId: ws.workspaceId, deletedAt: null } });
}

/** Whether the sector exists in the workspace and is not deleted. */
export async function isLiveSector(db: Pick<Prisma.TransactionClient, 'sector'>, ws: WorkspaceScope, id: string): Promise<boolean> {
  return (await db.sector.count({ where: { id, tenantId: ws.tenantId, workspaceId: ws.workspaceId, deletedAt: null } })) > 0;
}

/** Whether the channel exists in the workspace and is not deleted. */
export async function isLiveChannel(db: Pick<Prisma.TransactionClient, 'channel'>, ws: WorkspaceScope, id: string): Promise<boolean> {
  return (await db.channel.count({ where: { id, tenantId: ws.tenantId, workspaceId: ws.workspaceId, deletedAt: null } })) > 0;
}

/**
 * Runs `work` in one transaction and returns its result; the api's services use it instead of
 * opening `$transaction` themselves, so that every query stays inside packages/db.
 */
export function withTransaction<T>(
  db: Db,
  work: (tx: Prisma.TransactionClient) => Promise<T>,
  options?: { isolationLevel?: Prisma.TransactionIsolationLevel; timeout?: number; maxWait?: number },
): Promise<T> {
  return db.$transaction(work, options);
}

/** The workspace's stored integrations settings (JSON). */
export function workspaceIntegrations(
  db: Pick<Prisma.TransactionClient, 'workspace'>,
  ws: WorkspaceScope,
): Promise<{ id: string; integrations: Prisma.JsonValue }> {
  return db.workspace.findFirstOrThrow({ where: { id: ws.workspaceId, tenantId: ws.tenantId }, select: { id: true, integrations: true } });
}

export async function storeWorkspaceIntegrations(
  db: Pick<Prisma.TransactionClient, 'workspace'>,
  ws: WorkspaceScope,
  integrations: Prisma.InputJsonValue,
): Promise<void> {
  await db.workspace.update({ where: { id: ws.workspaceId, tenantId: ws.tenantId }, data: { integrations } });
}

/** The usernames of these users of the tenant. */
export function usernamesOf(
  db: Pick<Prisma.TransactionClient, 'user'>,
  tenantId: string,
  ids: readonly number[],
): Promise<{ id: number; username: string }[]> {
  return db.user.findMany({ where: { tenantId, id: { in: [...new Set(ids)] } }, select: { id: true, username: true } });
}
