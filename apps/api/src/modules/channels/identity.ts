import type { ProviderIdentity } from '@atende/channels';
import { AppError } from '@atende/contract';
import { channelHoldingIdentity, Prisma, type Db } from '@atende/db';

/**
 * Provider identities belong to one live channel: the page, account, number or bot
 * a provider routes its webhooks by. The unique index on Channel.providerIdentity is the guarantee;
 * the read below only answers early, before a provider is pointed at a channel that will not exist
 * (Telegram setWebhook, Meta subscribed_apps).
 */
export function identityTaken(found: Pick<ProviderIdentity, 'field'> | null): AppError {
  const error = new AppError('channel_identity_taken', 'This page, account, number or bot is already connected to another channel');
  return found?.field ? new AppError(error.code, error.message, [{ path: found.field, message: error.message }]) : error;
}

/** Another live channel, of any tenant, holding this identity: 409. */
export async function assertIdentityFree(db: Db, found: ProviderIdentity | null, exceptChannelId: string | null): Promise<void> {
  if (!found) return;
  if (await channelHoldingIdentity(db, found.identity, exceptChannelId)) throw identityTaken(found);
}

/** Whether a write failed on the providerIdentity index: a channel saved meanwhile took it. */
function isIdentityClash(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== 'P2002') return false;
  return JSON.stringify(error.meta ?? {}).includes('providerIdentity');
}

/** Runs a channel write, answering the index's refusal as the same 409 the early read gives. */
export async function writingIdentity<T>(found: ProviderIdentity | null, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isIdentityClash(error)) throw identityTaken(found);
    throw error;
  }
}
