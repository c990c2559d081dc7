import type { Prisma } from '../generated/prisma/client';
import type { WorkspaceScope } from './workspace';

type Client = Pick<Prisma.TransactionClient, 'pause'>;
export type PauseRow = Prisma.PauseGetPayload<object>;

/** The workspace's live pause, or null. */
export function findPause(db: Client, ws: WorkspaceScope, id: string): Promise<PauseRow | null> {
  return db.pause.findFirst({ where: { id, tenantId: ws.tenantId, workspaceId: ws.workspaceId, deletedAt: null } });
}

/** Whether another live pause of the workspace has this description, case aside. */
export async function pauseDescriptionTaken(db: Client, ws: WorkspaceScope, description: string, exceptId?: string): Promise<boolean> {
  const taken = await db.pause.findFirst({
    where: {
      tenantId: ws.tenantId,
      workspaceId: ws.workspaceId,
      deletedAt: null,
      description: { equals: description, mode: 'insensitive' },
      ...(exceptId ? { NOT: { id: exceptId } } : {}),
    },
    select: { id: true },
  });
  return taken !== null;
}

export function insertPause(db: Client, ws: WorkspaceScope, description: string): Promise<PauseRow> {
  return db.pause.create({ data: { tenantId: ws.tenantId, workspaceId: ws.workspaceId, description } });
}

export function describePause(db: Client, tenantId: string, id: string, description: string): Promise<PauseRow> {
  return db.pause.update({ where: { id, tenantId }, data: { description } });
}

/** Deletes (softly): agents on the pause stay paused on it; nobody can choose it again. */
export async function softDeletePause(db: Client, tenantId: string, id: string): Promise<void> {
  await db.pause.update({ where: { id, tenantId }, data: { deletedAt: new Date() } });
}

/** The tenant's live pause, whatever its workspace, or null. */
export function findTenantPause(db: Client, tenantId: string, id: string): Promise<PauseRow | null> {
  return db.pause.findFirst({ where: { id, tenantId, deletedAt: null } });
}
