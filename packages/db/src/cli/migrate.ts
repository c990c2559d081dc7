import { DEV_CHANNEL_SECRETS_KEY, parseSecretsKey } from '@atende/channels';
import { backfillChannelIdentities } from '../channel-identities';
import { createDb } from '../client';
import { ensureDatabase, runMigrations } from '../migrations';

const url = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/atende';
await ensureDatabase(url);
const result = await runMigrations(url);
process.stdout.write(
  `migrations: ${result.applied.length} applied${result.applied.length ? ` (${result.applied.join(', ')})` : ''}, ${result.alreadyApplied.length} already applied\n`,
);
// Channel identities held in encrypted credentials (Telegram, 360dialog): SQL cannot read them.
const db = createDb(url, { poolSize: 1 });
try {
  const identities = await backfillChannelIdentities(db, parseSecretsKey(process.env.CHANNEL_SECRETS_KEY ?? DEV_CHANNEL_SECRETS_KEY));
  if (identities.filled || identities.clashing) {
    process.stdout.write(`channel identities: ${identities.filled} filled, ${identities.clashing} left empty (another live channel holds them)\n`);
  }
} finally {
  await db.$disconnect();
}
