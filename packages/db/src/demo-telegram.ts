import { DEV_CHANNEL_SECRETS_KEY, encryptCredentials, parseSecretsKey } from '@atende/channels';
import {
  DEMO_TELEGRAM_BOT_TOKEN_DEFAULT, DEMO_TELEGRAM_CHANNEL_ID, DEMO_TELEGRAM_PORT_DEFAULT, DEMO_TELEGRAM_WEBHOOK_SECRET_DEFAULT,
} from '@atende/channels/telegram-demo-defaults';
import type { Db } from './client';
import type { CreatedTenant } from './fixtures';

export { DEMO_TELEGRAM_CHANNEL_ID };

/**
 * The demo tenant's Telegram channel, pointed at the demo Bot API that `pnpm start` and the e2e stack
 * run (packages/channels/src/telegram/demo-provider.ts), whose webhook starts set to this channel
 * with the same secret (the seed cannot call setWebhook: the simulator may not be up yet).
 * Re-seeding points it at this run's port and token. Idempotent.
 */
export async function seedDemoTelegram(db: Db, tenant: CreatedTenant, entrySectorId: string | null): Promise<string> {
  const key = parseSecretsKey(process.env.CHANNEL_SECRETS_KEY ?? DEV_CHANNEL_SECRETS_KEY);
  const credentials = {
    bot_token: process.env.DEMO_TELEGRAM_BOT_TOKEN ?? DEMO_TELEGRAM_BOT_TOKEN_DEFAULT,
    webhook_secret: process.env.DEMO_TELEGRAM_WEBHOOK_SECRET ?? DEMO_TELEGRAM_WEBHOOK_SECRET_DEFAULT,
  };
  const data = {
    config: { base_url: `http://127.0.0.1:${process.env.DEMO_TELEGRAM_PORT ?? DEMO_TELEGRAM_PORT_DEFAULT}`, credentials_set: Object.keys(credentials).sort() },
    credentialsEncrypted: encryptCredentials(credentials, key),
  };
  await db.channel.upsert({
    where: { id: DEMO_TELEGRAM_CHANNEL_ID },
    create: { id: DEMO_TELEGRAM_CHANNEL_ID, tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, name: 'Telegram', type: 'telegram', entrySectorId, ...data },
    update: data,
  });
  return DEMO_TELEGRAM_CHANNEL_ID;
}
