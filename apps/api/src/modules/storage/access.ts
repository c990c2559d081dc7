import { mayUse, roleCovers } from '@atende/core';
import { conversationsHoldingFile, isCampaignVisibleTo, isCannedAnnex, isTemplateOrWidgetMedia, type Db } from '@atende/db';
import { mayRead } from '../conversations/access';
import type { Session } from '../session/session';

/** How many of the conversations holding one file are weighed (a file is rarely in more). */
const CONVERSATIONS_CHECKED = 50;

/**
 * Whether the caller may download a stored file of their tenant: only through
 * something they can read, never because the file is merely in their tenant.
 *  - their own upload;
 *  - a subscriber file: the campaign's managers (the role matrix's campaigns row, and the campaign
 *    visible to them: their own, a public one, or any for admins);
 *  - an attachment: a conversation holding it that they may read (the messages route's rule);
 *  - a canned response's annex: whoever may use canned responses;
 *  - template media and livechat widget images (referenced by their uuid in a template's components
 *    or a channel's config): every user of the tenant reads templates and channels.
 */
export async function mayDownload(
  db: Db,
  session: Session,
  file: { id: string; tenantId: string; uploadedById: number | null; campaignId: string | null },
): Promise<boolean> {
  if (file.tenantId !== session.tenantId) return false;
  if (file.uploadedById !== null && file.uploadedById === session.userId) return true;
  if (file.campaignId) {
    if (!mayUse(session.roles, session.tenantConfig.features, 'campaigns')) return false;
    const admin = roleCovers(session.roles, 'admin');
    return isCampaignVisibleTo(
      db,
      { tenantId: session.tenantId, workspaceId: session.workspaceId, userId: session.userId, admin },
      file.campaignId,
    );
  }
  const conversations = await conversationsHoldingFile(db, session.tenantId, file.id, CONVERSATIONS_CHECKED);
  for (const conversation of conversations) {
    if (await mayRead(db, session, conversation)) return true;
  }
  if (mayUse(session.roles, session.tenantConfig.features, 'canned_responses.use')) {
    if (await isCannedAnnex(db, session.tenantId, file.id)) return true;
  }
  // The uuid is a validated path parameter (hex and hyphens only), so it is a plain substring here.
  return isTemplateOrWidgetMedia(db, session.tenantId, file.id);
}
