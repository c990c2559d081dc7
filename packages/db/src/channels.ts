import type { Prisma } from '../generated/prisma/client';

type Reader = Pick<Prisma.TransactionClient, 'channel'>;

/**
 * The live channel, of any tenant, that holds a provider identity (the page, account, number or
 * bot a provider routes its webhooks by), other than `exceptChannelId`; null when it is free. The
 * unique index on Channel.providerIdentity is the guarantee; this read only answers early.
 */
export async function channelHoldingIdentity(db: Reader, identity: string, exceptChannelId: string | null): Promise<string | null> {
  const holder = await db.channel.findFirst({
    where: { providerIdentity: identity, deletedAt: null, ...(exceptChannelId ? { id: { not: exceptChannelId } } : {}) },
    select: { id: true },
  });
  return holder?.id ?? null;
}

/** The live channels holding these identities: at most one each, whatever the tenant. */
export function liveChannelsByIdentity(db: Reader, identities: readonly string[]): Promise<{ id: string; tenantId: string; providerIdentity: string | null }[]> {
  if (identities.length === 0) return Promise.resolve([]);
  return db.channel.findMany({ where: { providerIdentity: { in: [...identities] }, deletedAt: null }, select: { id: true, tenantId: true, providerIdentity: true } });
}
