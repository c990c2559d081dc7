import { hasAnyRole, mayUse, roleCovers } from '@atende/core';
import { isServingContact, openedByVisibleCampaign, type Db } from '@atende/db';
import type { Session } from '../session/session';

/**
 * Who may read a conversation and its messages: supervisors and above; its agent; and an agent now
 * serving the same contact, for the contact's finished conversations (the customer journey of
 * /client-journey/agent/{id} from the conversation the agent has open); and a campaign
 * manager, for the conversations a reply to one of the campaigns they see opened (the report's
 * conversation link).
 */
export async function mayRead(
  db: Db,
  session: Session,
  conv: { id: string; userId: number | null; contactId: string; state: string },
): Promise<boolean> {
  if (roleCovers(session.roles, 'supervisor') || conv.userId === session.userId) return true;
  if (mayUse(session.roles, session.tenantConfig.features, 'campaigns')) {
    // Campaigns they see: their own and the public ones (every one for admins, covered above).
    if (
      await openedByVisibleCampaign(db, session.tenantId, conv.id, { userId: session.userId, admin: hasAnyRole(session.roles, ['admin']) })
    )
      return true;
  }
  if (conv.state !== 'closed') return false;
  return isServingContact(db, session.tenantId, conv.contactId, session.userId);
}
