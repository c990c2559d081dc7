// The demo's WhatsApp provider: a 360dialog simulator that `pnpm start` and the e2e stack run for
// the demo tenant's "WhatsApp" channel (packages/simulators/src/demo/demo-whatsapp.ts), so templates are really
// submitted and approved, and contacts can write on WhatsApp. Steered over HTTP (/_simulator/*),
// including POST /_simulator/webhook-url when the api's address is known only later.
import {
  DEMO_WHATSAPP_API_KEY_DEFAULT,
  DEMO_WHATSAPP_PORT_DEFAULT,
  DEMO_WHATSAPP_SECOND_API_KEY,
  DEMO_WHATSAPP_SECOND_PORT_DEFAULT,
  DEMO_WHATSAPP_WEBHOOK_SECRET_DEFAULT,
} from './demo-defaults';
import { startWhatsAppSimulator } from './simulator';

// A demo process, not the product: it reads its environment here (DEMO_* variables, the api's port),
// outside the settings of packages/config, which hold what the api and the worker read.
const port = Number(process.env.DEMO_WHATSAPP_PORT ?? DEMO_WHATSAPP_PORT_DEFAULT);
const simulator = await startWhatsAppSimulator({
  provider: '360dialog',
  port,
  host: '127.0.0.1',
  credentials: {
    api_key: process.env.DEMO_WHATSAPP_API_KEY ?? DEMO_WHATSAPP_API_KEY_DEFAULT,
    webhook_secret: process.env.DEMO_WHATSAPP_WEBHOOK_SECRET ?? DEMO_WHATSAPP_WEBHOOK_SECRET_DEFAULT,
  },
  webhookUrl: process.env.DEMO_WHATSAPP_WEBHOOK_URL || undefined,
});
console.warn(`demo WhatsApp provider (360dialog simulator) listening at ${simulator.baseUrl}`);
// The second account, for a channel an admin creates; its webhook is set over HTTP once the channel exists.
const second = await startWhatsAppSimulator({
  provider: '360dialog',
  port: Number(process.env.DEMO_WHATSAPP_SECOND_PORT ?? DEMO_WHATSAPP_SECOND_PORT_DEFAULT),
  host: '127.0.0.1',
  credentials: { api_key: DEMO_WHATSAPP_SECOND_API_KEY, webhook_secret: '' },
});
console.warn(`demo WhatsApp provider, second 360dialog account, listening at ${second.baseUrl}`);
const stop = () => void Promise.all([simulator.close(), second.close()]).then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
