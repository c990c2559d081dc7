import { mayUse, roleCovers } from '@atende/core';
import type { Db } from '@atende/db';
import { mayRead } from '../conversations/access';
import type { Session } from '../session/session';

/** How many of the conversations holding one file are weighed (a file is rarely in more). */
const CONVERSATIONS_CHECKED = 50;

/**
 * Whether the caller may download a stored file of their tenant (issue 12, Low): only through
 * something they can read, never because the file is merely in their tenant.
 *  - their own upload;
 *  - a subscriber file: the campaign's managers (the role matrix's campaigns row, and the campaign
 *    visible to them: their own, a public one, or any for admins, spec 001 §6);
 *  - an attachment: a conversation holding it that they may read (the messages route's rule);
 *  - a canned response's annex: whoever may use canned responses;
 *  - template media and livechat widget images (referenced by their uuid in a template's components
 *    or a channel's config): every user of the tenant reads templates and channels.
 */
export async function mayDownload(db: Db, session: Session, file: { id: string; tenantId: string; uploadedById: number | null; campaignId: string | null }): Promise<boolean> {
  if (file.tenantId !== session.tenantId) return false;
  if (file.uploadedById !== null && file.uploadedById === session.userId) return true;
  if (file.campaignId) {
    if (!mayUse(session.roles, session.tenantConfig.features, 'campaigns')) return false;
    const admin = roleCovers(session.roles, 'admin');
    const campaign = await db.campaign.findFirst({
      where: { id: file.campaignId, tenantId: session.tenantId, workspaceId: session.workspaceId, deletedAt: null, ...(admin ? {} : { OR: [{ createdById: session.userId }, { isPublic: true }] }) },
      select: { id: true },
    });
    return campaign !== null;
  }
  const conversations = await db.conversation.findMany({
    where: { tenantId: session.tenantId, messages: { some: { annexId: file.id } } },
    select: { id: true, userId: true, contactId: true, state: true },
    take: CONVERSATIONS_CHECKED,
  });
  for (const conversation of conversations) {
    if (await mayRead(db, session, conversation)) return true;
  }
  if (mayUse(session.roles, session.tenantConfig.features, 'canned_responses.use')) {
    const canned = await db.cannedResponse.count({ where: { tenantId: session.tenantId, annexId: file.id, deletedAt: null } });
    if (canned > 0) return true;
  }
  // The uuid is a validated path parameter (hex and hyphens only), so it is a plain substring here.
  const [template] = await db.$queryRaw<{ found: number }[]>`
    SELECT 1 AS found FROM "OutboundTemplate"
    WHERE "tenantId" = ${session.tenantId}::uuid AND "deletedAt" IS NULL AND components::text LIKE ${`%${file.id}%`}
    UNION ALL
    SELECT 1 AS found FROM "Channel"
    WHERE "tenantId" = ${session.tenantId}::uuid AND "deletedAt" IS NULL AND type = 'livechat' AND config::text LIKE ${`%${file.id}%`}
    LIMIT 1`;
  return template !== undefined;
}
