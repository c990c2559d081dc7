import type { Prisma } from '../generated/prisma/client';

/**
 * Stores the status a provider answered to a template's submission, unless a status report changed
 * the template since the submission began (`statusAtStart`): the provider's webhook can beat its
 * answer, and the report is the newer news. Whether the answer's status was stored.
 */
export async function storeSubmissionStatus(
  db: Pick<Prisma.TransactionClient, 'outboundTemplate'>,
  templateId: string,
  statusAtStart: string,
  answer: { status: string; reason: string | null },
): Promise<boolean> {
  const stored = await db.outboundTemplate.updateMany({ where: { id: templateId, status: statusAtStart }, data: { status: answer.status, rejectedReason: answer.reason } });
  return stored.count > 0;
}
