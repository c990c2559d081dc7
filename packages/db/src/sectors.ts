import type { Prisma } from '../generated/prisma/client';

/** The sector's id when it exists in the tenant and is not deleted; null otherwise (or for no sector). */
export async function liveSectorId(db: Pick<Prisma.TransactionClient, 'sector'>, tenantId: string, sectorId: string | null | undefined): Promise<string | null> {
  if (!sectorId) return null;
  return (await db.sector.findFirst({ where: { id: sectorId, tenantId, deletedAt: null }, select: { id: true } }))?.id ?? null;
}
