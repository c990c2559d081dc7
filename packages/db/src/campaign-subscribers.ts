import type { Prisma } from '../generated/prisma/client';

type Writer = Pick<Prisma.TransactionClient, 'campaignSubscriber'>;

/**
 * A dispatcher taking over a campaign: rows claimed but never requested ('scheduled') go back to
 * pending; rows whose request was on its way when the previous dispatcher died ('sending') become
 * 'unknown' with `reason`, never sent again by themselves (the provider may have taken them).
 */
export async function settleInterruptedSends(db: Writer, campaignId: string, reason: string): Promise<void> {
  await db.campaignSubscriber.updateMany({ where: { campaignId, state: 'scheduled' }, data: { state: 'pending' } });
  await db.campaignSubscriber.updateMany({ where: { campaignId, state: 'sending' }, data: { state: 'unknown', errorMessage: reason } });
}

/** The manager's knowing resend: a campaign's 'unknown' rows back to pending. How many moved. */
export async function releaseUnknownSubscribers(db: Writer, tenantId: string, campaignId: string): Promise<number> {
  const moved = await db.campaignSubscriber.updateMany({ where: { tenantId, campaignId, state: 'unknown' }, data: { state: 'pending', errorMessage: null } });
  return moved.count;
}
