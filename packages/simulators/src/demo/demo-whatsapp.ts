import { encryptCredentials, providerIdentity } from '@atende/channels';
import { parseSecretsKey, readSharedSettings } from '@atende/config';
import { DEMO_WHATSAPP_API_KEY_DEFAULT, DEMO_WHATSAPP_PORT_DEFAULT, DEMO_WHATSAPP_WEBHOOK_SECRET_DEFAULT } from '../whatsapp/demo-defaults';
import type { Db, CreatedTenant } from '@atende/db';

/** The demo tenant's WhatsApp (360dialog) channel: a fixed id, so the demo provider knows its webhook address. */
export const DEMO_WHATSAPP_CHANNEL_ID = '3600d1a1-0000-4000-8000-000000000360';

/**
 * A 360dialog channel pointed at the demo provider that `pnpm start` and the e2e stack run
 * (packages/simulators/src/whatsapp/demo-provider.ts), so templates really go through submission
 * and approval. Re-seeding points it at this run's provider port and key. Idempotent.
 */
export async function seedDemoWhatsApp(db: Db, tenant: CreatedTenant, entrySectorId: string | null): Promise<string> {
  const key = parseSecretsKey(readSharedSettings(['CHANNEL_SECRETS_KEY'], process.env).CHANNEL_SECRETS_KEY);
  const credentials = {
    api_key: process.env.DEMO_WHATSAPP_API_KEY ?? DEMO_WHATSAPP_API_KEY_DEFAULT,
    webhook_secret: process.env.DEMO_WHATSAPP_WEBHOOK_SECRET ?? DEMO_WHATSAPP_WEBHOOK_SECRET_DEFAULT,
  };
  const data = {
    config: {
      base_url: `http://127.0.0.1:${process.env.DEMO_WHATSAPP_PORT ?? DEMO_WHATSAPP_PORT_DEFAULT}`,
      api_version: 'cloud',
      credentials_set: Object.keys(credentials).sort(),
    },
    credentialsEncrypted: encryptCredentials(credentials, key),
    providerIdentity:
      providerIdentity({ id: DEMO_WHATSAPP_CHANNEL_ID, type: 'whatsapp_360dialog', config: {}, credentials })?.identity ?? null,
  };
  await db.channel.upsert({
    where: { id: DEMO_WHATSAPP_CHANNEL_ID },
    create: {
      id: DEMO_WHATSAPP_CHANNEL_ID,
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      name: 'WhatsApp',
      type: 'whatsapp_360dialog',
      entrySectorId,
      ...data,
    },
    update: data,
  });
  return DEMO_WHATSAPP_CHANNEL_ID;
}
