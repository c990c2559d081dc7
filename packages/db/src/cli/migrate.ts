import { parseSecretsKey, readSharedSettings } from '@atende/config';
import { backfillChannelIdentities } from '../channel-identities';
import { createDb } from '../client';
import { ensureDatabase, runMigrations } from '../migrations';

// The api's and the worker's variables, with their defaults: migrations run before the api starts, in its environment.
const settings = readSharedSettings(['DATABASE_URL', 'CHANNEL_SECRETS_KEY'], process.env);
const url = settings.DATABASE_URL;
await ensureDatabase(url);
const result = await runMigrations(url);
process.stdout.write(
  `migrations: ${result.applied.length} applied${result.applied.length ? ` (${result.applied.join(', ')})` : ''}, ${result.alreadyApplied.length} already applied\n`,
);
// Channel identities held in encrypted credentials (Telegram, 360dialog): SQL cannot read them.
const db = createDb(url, { poolSize: 1 });
try {
  const identities = await backfillChannelIdentities(db, parseSecretsKey(settings.CHANNEL_SECRETS_KEY));
  if (identities.filled || identities.clashing) {
    process.stdout.write(
      `channel identities: ${identities.filled} filled, ${identities.clashing} left empty (another live channel holds them)\n`,
    );
  }
} finally {
  await db.$disconnect();
}
