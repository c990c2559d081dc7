import {
  DEMO_INSTAGRAM_CHANNEL_ID,
  DEMO_INSTAGRAM_PORT_DEFAULT,
  DEMO_MESSENGER_CHANNEL_ID,
  DEMO_META_APP_SECRET_DEFAULT,
  DEMO_META_PAGE_ID,
  DEMO_META_PAGE_TOKEN_DEFAULT,
  DEMO_META_PORT_DEFAULT,
  DEMO_META_VERIFY_TOKEN_DEFAULT,
} from '../meta/demo-defaults';
import type { Db, CreatedTenant } from '@atende/db';
import { seedDemoProviderChannel } from './demo-channel';

export { DEMO_INSTAGRAM_CHANNEL_ID, DEMO_MESSENGER_CHANNEL_ID };

/**
 * The demo tenant's Messenger and Instagram channels, pointed at the demo Metas that `pnpm start`
 * and the e2e stack run (packages/simulators/src/meta/demo-provider.ts: Messenger on one port,
 * Instagram messaging on another), whose webhooks are these channels' with the same app secret.
 */
export async function seedDemoMeta(db: Db, tenant: CreatedTenant, entrySectorId: string | null): Promise<void> {
  const credentials = {
    access_token: process.env.DEMO_META_PAGE_TOKEN ?? DEMO_META_PAGE_TOKEN_DEFAULT,
    app_secret: process.env.DEMO_META_APP_SECRET ?? DEMO_META_APP_SECRET_DEFAULT,
    verify_token: process.env.DEMO_META_VERIFY_TOKEN ?? DEMO_META_VERIFY_TOKEN_DEFAULT,
  };
  const port = {
    messenger: process.env.DEMO_META_PORT ?? DEMO_META_PORT_DEFAULT,
    instagram: process.env.DEMO_INSTAGRAM_PORT ?? DEMO_INSTAGRAM_PORT_DEFAULT,
  };
  for (const [type, id, name] of [
    ['messenger', DEMO_MESSENGER_CHANNEL_ID, 'Messenger'],
    ['instagram', DEMO_INSTAGRAM_CHANNEL_ID, 'Instagram'],
  ] as const) {
    await seedDemoProviderChannel(db, tenant, {
      id,
      name,
      type,
      entrySectorId,
      settings: { base_url: `http://127.0.0.1:${port[type]}`, page_id: DEMO_META_PAGE_ID },
      credentials,
    });
  }
}
