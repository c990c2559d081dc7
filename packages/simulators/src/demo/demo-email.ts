import {
  DEMO_EMAIL_CHANNEL_ID,
  DEMO_EMAIL_FROM_ADDRESS,
  DEMO_EMAIL_PASSWORD_DEFAULT,
  DEMO_EMAIL_SMTP_PORT_DEFAULT,
  DEMO_EMAIL_WEBHOOK_SECRET_DEFAULT,
} from '../email/demo-defaults';
import type { Db, CreatedTenant } from '@atende/db';
import { seedDemoProviderChannel } from './demo-channel';

export { DEMO_EMAIL_CHANNEL_ID };

/**
 * The demo tenant's e-mail channel: it sends through the demo mail provider that
 * `pnpm start` and the e2e stack run (packages/simulators/src/email/demo-provider.ts) and takes mail
 * at its fixed forwarding address through the worker's inbound listener.
 */
export function seedDemoEmail(db: Db, tenant: CreatedTenant, entrySectorId: string | null): Promise<string> {
  return seedDemoProviderChannel(db, tenant, {
    id: DEMO_EMAIL_CHANNEL_ID,
    name: 'E-mail',
    type: 'email',
    entrySectorId,
    settings: {
      smtp_host: '127.0.0.1',
      smtp_port: String(process.env.DEMO_EMAIL_SMTP_PORT ?? DEMO_EMAIL_SMTP_PORT_DEFAULT),
      smtp_secure: 'false',
      from_address: DEMO_EMAIL_FROM_ADDRESS,
    },
    credentials: {
      password: process.env.DEMO_EMAIL_PASSWORD ?? DEMO_EMAIL_PASSWORD_DEFAULT,
      webhook_secret: DEMO_EMAIL_WEBHOOK_SECRET_DEFAULT,
    },
  });
}
