import type { Prisma } from '../generated/prisma/client';

type Client = Pick<Prisma.TransactionClient, 'storedFile'>;

export type StoredFileRow = Prisma.StoredFileGetPayload<object>;

export function insertStoredFile(
  db: Client,
  file: {
    id: string;
    tenantId: string;
    originalFilename: string;
    contentType: string;
    size: number;
    service: string;
    storageKey: string;
    uploadedById: number | null;
  },
): Promise<StoredFileRow> {
  return db.storedFile.create({ data: file });
}

/** The tenant's stored file, or null. */
export function findStoredFile(db: Client, tenantId: string, id: string): Promise<StoredFileRow | null> {
  return db.storedFile.findFirst({ where: { id, tenantId } });
}

/** A stored file of any tenant (for a signed link, which names the file itself), or null. */
export function findStoredFileById(db: Client, id: string): Promise<StoredFileRow | null> {
  return db.storedFile.findUnique({ where: { id } });
}

/** Whether the live campaign of the workspace is visible to the user: theirs, public, or any for an admin. */
export async function isCampaignVisibleTo(
  db: Pick<Prisma.TransactionClient, 'campaign'>,
  who: { tenantId: string; workspaceId: string; userId: number; admin: boolean },
  campaignId: string,
): Promise<boolean> {
  const campaign = await db.campaign.findFirst({
    where: {
      id: campaignId,
      tenantId: who.tenantId,
      workspaceId: who.workspaceId,
      deletedAt: null,
      ...(who.admin ? {} : { OR: [{ createdById: who.userId }, { isPublic: true }] }),
    },
    select: { id: true },
  });
  return campaign !== null;
}

/** Up to `take` conversations of the tenant with a message carrying the file. */
export function conversationsHoldingFile(
  db: Pick<Prisma.TransactionClient, 'conversation'>,
  tenantId: string,
  fileId: string,
  take: number,
): Promise<Prisma.ConversationGetPayload<{ select: { id: true; userId: true; contactId: true; state: true } }>[]> {
  return db.conversation.findMany({
    where: { tenantId, messages: { some: { annexId: fileId } } },
    select: { id: true, userId: true, contactId: true, state: true },
    take,
  });
}

/** Whether a live canned response of the tenant has the file as its annex. */
export async function isCannedAnnex(
  db: Pick<Prisma.TransactionClient, 'cannedResponse'>,
  tenantId: string,
  fileId: string,
): Promise<boolean> {
  return (await db.cannedResponse.count({ where: { tenantId, annexId: fileId, deletedAt: null } })) > 0;
}

/**
 * Whether a live template's components or a live livechat channel's config of the tenant name the
 * file. `fileId` must be a validated uuid (hex and hyphens), so it is a plain substring in LIKE.
 */
export async function isTemplateOrWidgetMedia(
  db: Pick<Prisma.TransactionClient, '$queryRaw'>,
  tenantId: string,
  fileId: string,
): Promise<boolean> {
  const [template] = await db.$queryRaw<{ found: number }[]>`
    SELECT 1 AS found FROM "OutboundTemplate"
    WHERE "tenantId" = ${tenantId}::uuid AND "deletedAt" IS NULL AND components::text LIKE ${`%${fileId}%`}
    UNION ALL
    SELECT 1 AS found FROM "Channel"
    WHERE "tenantId" = ${tenantId}::uuid AND "deletedAt" IS NULL AND type = 'livechat' AND config::text LIKE ${`%${fileId}%`}
    LIMIT 1`;
  return template !== undefined;
}
