import type { ScopedDb } from './scoped';

/**
 * At most once for agent messages: a message is claimed for posting by writing `postedAt` before
 * the request; only a pending message not failed and not yet begun is claimed. Whether it was.
 */
export async function claimMessageForPosting(db: ScopedDb, messageId: string): Promise<boolean> {
  const claimed = await db.message.updateMany({
    where: { id: messageId, state: 'pending', OR: [{ status: null }, { status: 'sending' }], postedAt: null },
    data: { status: 'sending', postedAt: new Date() },
  });
  return claimed.count > 0;
}

/** The provider provably took nothing: a later attempt may post the message again. */
export async function releaseMessagePosting(db: ScopedDb, messageId: string): Promise<void> {
  await db.message.updateMany({ where: { id: messageId, state: 'pending' }, data: { postedAt: null } });
}

/** A message whose posting began but whose outcome was never learnt becomes failed with `reason`. Whether it changed. */
export async function failPostingWithUnknownOutcome(db: ScopedDb, messageId: string, reason: string): Promise<boolean> {
  const marked = await db.message.updateMany({
    where: { id: messageId, state: 'pending', postedAt: { not: null }, OR: [{ status: null }, { status: 'sending' }] },
    data: { status: 'failed', errorMessage: reason },
  });
  return marked.count > 0;
}
