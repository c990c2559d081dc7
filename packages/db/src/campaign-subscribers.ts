import type { CampaignSubscriber, Prisma } from '../generated/prisma/client';

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
  const moved = await db.campaignSubscriber.updateMany({
    where: { tenantId, campaignId, state: 'unknown' },
    data: { state: 'pending', errorMessage: null },
  });
  return moved.count;
}

type Tx = Prisma.TransactionClient;

/** A subscriber of the tenant's campaign, by its id or its contact's; null when there is none. */
export function findCampaignSubscriber(
  db: Pick<Tx, 'campaignSubscriber'>,
  tenantId: string,
  campaignId: string,
  idOrContactId: string,
): Promise<CampaignSubscriber | null> {
  return db.campaignSubscriber.findFirst({ where: { tenantId, campaignId, OR: [{ contactId: idOrContactId }, { id: idOrContactId }] } });
}

export function campaignSubscriberById(db: Pick<Tx, 'campaignSubscriber'>, id: string): Promise<CampaignSubscriber> {
  return db.campaignSubscriber.findUniqueOrThrow({ where: { id } });
}

/** A page of a campaign's subscribers in these states (any when none), oldest first, and how many there are. */
export async function listCampaignSubscribersPage(
  db: Pick<Tx, 'campaignSubscriber'>,
  tenantId: string,
  campaignId: string,
  states: string[] | undefined,
  page: { skip: number; take: number },
): Promise<{ rows: CampaignSubscriber[]; total: number }> {
  const where: Prisma.CampaignSubscriberWhereInput = { tenantId, campaignId, ...(states?.length ? { state: { in: states } } : {}) };
  const [rows, total] = await Promise.all([
    db.campaignSubscriber.findMany({ where, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], skip: page.skip, take: page.take }),
    db.campaignSubscriber.count({ where }),
  ]);
  return { rows, total };
}

/**
 * Moves a subscriber to `to` only while it is still in `from` (a sender that took it meanwhile
 * wins); back to pending its error is cleared. Whether it moved.
 */
export async function moveSubscriberState(db: Pick<Tx, 'campaignSubscriber'>, id: string, from: string, to: string): Promise<boolean> {
  const changed = await db.campaignSubscriber.updateMany({
    where: { id, state: from },
    data: { state: to, ...(to === 'pending' ? { errorMessage: null } : {}) },
  });
  return changed.count > 0;
}

/** Deletes a subscriber still pending; whether it was. */
export async function deletePendingSubscriber(db: Pick<Tx, 'campaignSubscriber'>, id: string): Promise<boolean> {
  return (await db.campaignSubscriber.deleteMany({ where: { id, state: 'pending' } })).count > 0;
}
