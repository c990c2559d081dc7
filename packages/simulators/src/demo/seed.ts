// Demo tenant for `pnpm start`: every feature flag on, one user per role (README "Demo logins").
import { readSharedSettings } from '@atende/config';
import { createDb } from '@atende/db';
import { DEMO_CHANNEL_TOKEN, DEMO_DOMAIN, DEMO_LIVECHAT_CHANNEL_ID, DEMO_PASSWORD, seedDemo } from './index';

const db = createDb(readSharedSettings(['DATABASE_URL'], process.env).DATABASE_URL);
const result = await seedDemo(db);
if (result.seeded) {
  process.stdout.write(
    `seed: demo tenant ready (${Object.keys(result.tenant.users).length} users @${DEMO_DOMAIN}, password ${DEMO_PASSWORD})\n`,
  );
  process.stdout.write(`seed: demo API channel ${result.channelId} (inbound token ${DEMO_CHANNEL_TOKEN})\n`);
  process.stdout.write(`seed: demo livechat widget at /livechat/${DEMO_LIVECHAT_CHANNEL_ID}\n`);
} else {
  process.stdout.write(`seed: skipped, ${result.reason}\n`);
}
await db.$disconnect();
