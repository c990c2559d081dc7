import {
  DEMO_SMS_ACCOUNT_SID_DEFAULT,
  DEMO_SMS_AUTH_TOKEN_DEFAULT,
  DEMO_SMS_CHANNEL_ID,
  DEMO_SMS_FROM_NUMBER_DEFAULT,
  DEMO_SMS_PORT_DEFAULT,
} from '../sms/demo-defaults';
import type { Db, CreatedTenant } from '@atende/db';
import { seedDemoProviderChannel } from './demo-channel';

export { DEMO_SMS_CHANNEL_ID };

/**
 * The demo tenant's SMS channel (Twilio, MMS on), pointed at the demo Twilio simulator that `pnpm
 * start` and the e2e stack run (packages/simulators/src/sms/demo-provider.ts), which posts inbound
 * messages to this channel's webhook signed with the same auth token.
 */
export function seedDemoSms(db: Db, tenant: CreatedTenant, entrySectorId: string | null): Promise<string> {
  return seedDemoProviderChannel(db, tenant, {
    id: DEMO_SMS_CHANNEL_ID,
    name: 'SMS',
    type: 'sms',
    entrySectorId,
    settings: {
      base_url: `http://127.0.0.1:${process.env.DEMO_SMS_PORT ?? DEMO_SMS_PORT_DEFAULT}`,
      account_sid: process.env.DEMO_SMS_ACCOUNT_SID ?? DEMO_SMS_ACCOUNT_SID_DEFAULT,
      from_number: DEMO_SMS_FROM_NUMBER_DEFAULT,
      mms_enabled: 'true',
    },
    credentials: { auth_token: process.env.DEMO_SMS_AUTH_TOKEN ?? DEMO_SMS_AUTH_TOKEN_DEFAULT },
  });
}
