import { decryptCredentials, providerIdentity } from '@atende/channels';
import { Prisma } from '../generated/prisma/client';
import type { Db } from './client';

/**
 * Fills Channel.providerIdentity where the migration's SQL could not: identities derived from a
 * secret (Telegram's bot id from its token, 360dialog's key digest) live in the encrypted
 * credentials. Run by `pnpm db:migrate` after the migrations; idempotent (only live rows without an
 * identity are read). A row whose identity another live channel already holds stays NULL, as the
 * migration leaves clashes: the oldest channel keeps it.
 */
export async function backfillChannelIdentities(db: Db, secretsKey: Buffer): Promise<{ filled: number; clashing: number }> {
  const rows = await db.channel.findMany({
    where: { providerIdentity: null, deletedAt: null, credentialsEncrypted: { not: null } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, type: true, config: true, credentialsEncrypted: true },
  });
  let filled = 0;
  let clashing = 0;
  for (const row of rows) {
    let credentials: Record<string, unknown> | null = null;
    try {
      credentials = decryptCredentials(row.credentialsEncrypted!, secretsKey);
    } catch {
      continue; // unreadable with this key: the channel gets its identity when its admin saves it again
    }
    const found = providerIdentity({ id: row.id, type: row.type, config: row.config, credentials });
    if (!found) continue;
    try {
      await db.channel.update({ where: { id: row.id }, data: { providerIdentity: found.identity } });
      filled += 1;
    } catch (error) {
      if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002')) throw error;
      clashing += 1;
    }
  }
  return { filled, clashing };
}
