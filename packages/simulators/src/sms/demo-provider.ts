// The demo's SMS provider: the Twilio simulator (../whatsapp/simulator.ts, SMS dialect) that
// `pnpm start` and the e2e stack run for the demo tenant's "SMS" channel (packages/simulators/src/demo/demo-sms.ts),
// so a contact can text the business over HTTP (docs/channels.md, SMS) and agents' answers
// arrive (GET /_simulator/sent). The demo account owns two numbers: the seeded channel's, whose
// inbound messages go to that channel's webhook unless DEMO_SMS_WEBHOOK_URL (or POST
// /_simulator/webhook-url) says otherwise, and a second one for a channel created in the admin
// screen (POST /_simulator/webhook-url with its `number` sets its webhook).
import {
  DEMO_SMS_ACCOUNT_SID_DEFAULT,
  DEMO_SMS_AUTH_TOKEN_DEFAULT,
  DEMO_SMS_CHANNEL_ID,
  DEMO_SMS_FROM_NUMBER_DEFAULT,
  DEMO_SMS_PORT_DEFAULT,
  DEMO_SMS_SECOND_NUMBER_DEFAULT,
} from './demo-defaults';
import { startWhatsAppSimulator } from '../whatsapp/simulator';

// A demo process, not the product: it reads its environment here (DEMO_* variables, the api's port),
// outside the settings of packages/config, which hold what the api and the worker read.
const port = Number(process.env.DEMO_SMS_PORT ?? DEMO_SMS_PORT_DEFAULT);
const apiPort = process.env.PORT ?? '3000';
const simulator = await startWhatsAppSimulator({
  provider: 'twilio_sms',
  port,
  host: '127.0.0.1',
  credentials: {
    account_sid: process.env.DEMO_SMS_ACCOUNT_SID ?? DEMO_SMS_ACCOUNT_SID_DEFAULT,
    auth_token: process.env.DEMO_SMS_AUTH_TOKEN ?? DEMO_SMS_AUTH_TOKEN_DEFAULT,
  },
  numbers: [DEMO_SMS_FROM_NUMBER_DEFAULT, DEMO_SMS_SECOND_NUMBER_DEFAULT],
  webhookUrl: process.env.DEMO_SMS_WEBHOOK_URL || `http://127.0.0.1:${apiPort}/api/v1/channels/${DEMO_SMS_CHANNEL_ID}/webhook`,
});
console.warn(`demo SMS provider (Twilio simulator) listening at ${simulator.baseUrl}`);
const stop = () => void simulator.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
