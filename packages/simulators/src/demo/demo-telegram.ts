import {
  DEMO_TELEGRAM_BOT_TOKEN_DEFAULT,
  DEMO_TELEGRAM_CHANNEL_ID,
  DEMO_TELEGRAM_PORT_DEFAULT,
  DEMO_TELEGRAM_WEBHOOK_SECRET_DEFAULT,
} from '../telegram/demo-defaults';
import type { Db, CreatedTenant } from '@atende/db';
import { seedDemoProviderChannel } from './demo-channel';

export { DEMO_TELEGRAM_CHANNEL_ID };

/**
 * The demo tenant's Telegram channel, pointed at the demo Bot API that `pnpm start` and the e2e stack
 * run (packages/simulators/src/telegram/demo-provider.ts), whose webhook starts set to this channel
 * with the same secret (the seed cannot call setWebhook: the simulator may not be up yet).
 */
export function seedDemoTelegram(db: Db, tenant: CreatedTenant, entrySectorId: string | null): Promise<string> {
  return seedDemoProviderChannel(db, tenant, {
    id: DEMO_TELEGRAM_CHANNEL_ID,
    name: 'Telegram',
    type: 'telegram',
    entrySectorId,
    settings: { base_url: `http://127.0.0.1:${process.env.DEMO_TELEGRAM_PORT ?? DEMO_TELEGRAM_PORT_DEFAULT}` },
    credentials: {
      bot_token: process.env.DEMO_TELEGRAM_BOT_TOKEN ?? DEMO_TELEGRAM_BOT_TOKEN_DEFAULT,
      webhook_secret: process.env.DEMO_TELEGRAM_WEBHOOK_SECRET ?? DEMO_TELEGRAM_WEBHOOK_SECRET_DEFAULT,
    },
  });
}
