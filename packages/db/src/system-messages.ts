import type { Prisma } from '../generated/prisma/client';

/**
 * A message the platform sends to the contact on the desk's behalf (a menu, a survey, a ticket
 * announcement, the out-of-hours reply): written as the desk's, pending, and delivered like an
 * agent's message by the caller's channel-delivery job.
 */
export async function insertSystemMessage(
  tx: Prisma.TransactionClient,
  m: { id: string; tenantId: string; conversationId: string; content: string; tags: string[]; at: Date },
) {
  return tx.message.create({
    data: {
      id: m.id,
      tenantId: m.tenantId,
      conversationId: m.conversationId,
      author: 'USER',
      content: m.content,
      tags: m.tags,
      state: 'pending',
      status: 'sending',
      createdAt: m.at,
    },
  });
}
