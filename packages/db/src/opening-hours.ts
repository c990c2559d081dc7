import type { Prisma } from '../generated/prisma/client';
import type { WorkspaceScope } from './workspace';

type Client = Pick<Prisma.TransactionClient, 'openingHours' | 'workspace'>;

export type OpeningHoursRow = Prisma.OpeningHoursGetPayload<object>;

/** The workspace's stored opening hours, or null when never set. */
export function findOpeningHours(db: Client, ws: WorkspaceScope): Promise<OpeningHoursRow | null> {
  return db.openingHours.findFirst({ where: { tenantId: ws.tenantId, workspaceId: ws.workspaceId } });
}

/**
 * Sets the workspace's opening hours; false (nothing written) when the workspace does not exist in
 * the tenant.
 */
export async function storeOpeningHours(
  db: Client,
  ws: WorkspaceScope,
  hours: { enabled: boolean; timezone: string; days: Prisma.InputJsonValue; outOfHoursMessage: string },
): Promise<boolean> {
  const found = await db.workspace.findFirst({ where: { id: ws.workspaceId, tenantId: ws.tenantId }, select: { id: true } });
  if (!found) return false;
  await db.openingHours.upsert({
    where: { workspaceId: found.id, tenantId: ws.tenantId },
    create: { ...hours, tenantId: ws.tenantId, workspaceId: found.id },
    update: hours,
  });
  return true;
}
