import { DEV_CHANNEL_SECRETS_KEY, encryptCredentials, parseSecretsKey } from '@atende/channels';
import {
  DEMO_MESSENGER_CHANNEL_ID, DEMO_META_APP_SECRET_DEFAULT, DEMO_META_PAGE_ID, DEMO_META_PAGE_TOKEN_DEFAULT, DEMO_META_PORT_DEFAULT, DEMO_META_VERIFY_TOKEN_DEFAULT,
} from '@atende/channels/meta-demo-defaults';
import type { Db } from './client';
import type { CreatedTenant } from './fixtures';

export { DEMO_MESSENGER_CHANNEL_ID };

/**
 * The demo tenant's Messenger channel, pointed at the demo Meta that `pnpm start` and the e2e stack
 * run (packages/channels/src/meta/demo-provider.ts), whose webhook is this channel's with the same
 * app secret. Re-seeding points it at this run's port. Idempotent.
 */
export async function seedDemoMessenger(db: Db, tenant: CreatedTenant, entrySectorId: string | null): Promise<string> {
  const key = parseSecretsKey(process.env.CHANNEL_SECRETS_KEY ?? DEV_CHANNEL_SECRETS_KEY);
  const credentials = {
    access_token: process.env.DEMO_META_PAGE_TOKEN ?? DEMO_META_PAGE_TOKEN_DEFAULT,
    app_secret: process.env.DEMO_META_APP_SECRET ?? DEMO_META_APP_SECRET_DEFAULT,
    verify_token: process.env.DEMO_META_VERIFY_TOKEN ?? DEMO_META_VERIFY_TOKEN_DEFAULT,
  };
  const data = {
    config: { base_url: `http://127.0.0.1:${process.env.DEMO_META_PORT ?? DEMO_META_PORT_DEFAULT}`, page_id: DEMO_META_PAGE_ID, credentials_set: Object.keys(credentials).sort() },
    credentialsEncrypted: encryptCredentials(credentials, key),
  };
  await db.channel.upsert({
    where: { id: DEMO_MESSENGER_CHANNEL_ID },
    create: { id: DEMO_MESSENGER_CHANNEL_ID, tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, name: 'Messenger', type: 'messenger', entrySectorId, ...data },
    update: data,
  });
  return DEMO_MESSENGER_CHANNEL_ID;
}
