import { encryptCredentials, providerIdentity } from '@atende/channels';
import { parseSecretsKey, readSharedSettings } from '@atende/config';
import type { Db, CreatedTenant } from '@atende/db';

export interface DemoProviderChannel {
  id: string;
  name: string;
  type: string;
  entrySectorId: string | null;
  /** Channel.config settings (base_url pointing at this run's demo provider, ...). */
  settings: Record<string, string>;
  /** Encrypted at rest like any channel's; their names go to config.credentials_set. */
  credentials: Record<string, string>;
}

/**
 * A demo tenant's channel pointed at one of the demo providers that `pnpm start` and the e2e stack
 * run, stored as the channels api stores one. Re-seeding points it at this run's ports and secrets
 * (name and entry point stay as the admin left them). Idempotent.
 */
export async function seedDemoProviderChannel(db: Db, tenant: CreatedTenant, channel: DemoProviderChannel): Promise<string> {
  const key = parseSecretsKey(readSharedSettings(['CHANNEL_SECRETS_KEY'], process.env).CHANNEL_SECRETS_KEY);
  const data = {
    config: { ...channel.settings, credentials_set: Object.keys(channel.credentials).sort() },
    credentialsEncrypted: encryptCredentials(channel.credentials, key),
    providerIdentity:
      providerIdentity({ id: channel.id, type: channel.type, config: channel.settings, credentials: channel.credentials })?.identity ??
      null,
  };
  await db.channel.upsert({
    where: { id: channel.id },
    create: {
      id: channel.id,
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      name: channel.name,
      type: channel.type,
      entrySectorId: channel.entrySectorId,
      ...data,
    },
    update: data,
  });
  return channel.id;
}
