import { hasAnyRole, mayUse, roleCovers } from '@atende/core';
import { ACTIVE_STATES } from '@atende/conversations';
import type { Db } from '@atende/db';
import type { Session } from '../session/session';

/**
 * Who may read a conversation and its messages: supervisors and above; its agent; and an agent now
 * serving the same contact, for the contact's finished conversations (the customer journey of
 * spec 000 §2: /client-journey/agent/{id} from the conversation the agent has open); and a campaign
 * manager, for the conversations a reply to one of the campaigns they see opened (the report's
 * conversation link, issue 14 item 10).
 */
export async function mayRead(db: Db, session: Session, conv: { id: string; userId: number | null; contactId: string; state: string }): Promise<boolean> {
  if (roleCovers(session.roles, 'supervisor') || conv.userId === session.userId) return true;
  if (mayUse(session.roles, session.tenantConfig.features, 'campaigns')) {
    // Campaigns they see: their own and the public ones (every one for admins, covered above).
    const visible = hasAnyRole(session.roles, ['admin']) ? {} : { OR: [{ createdById: session.userId }, { isPublic: true }] };
    const replies = await db.campaignSubscriber.count({ where: { tenantId: session.tenantId, conversationId: conv.id, campaign: { deletedAt: null, ...visible } } });
    if (replies > 0) return true;
  }
  if (conv.state !== 'closed') return false;
  const serving = await db.conversation.count({
    where: { tenantId: session.tenantId, contactId: conv.contactId, userId: session.userId, state: { in: [...ACTIVE_STATES] } },
  });
  return serving > 0;
}
