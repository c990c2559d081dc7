// The demo's Telegram Bot API: a Telegram simulator that `pnpm start` and the e2e stack run for the
// demo tenant's "Telegram" channel (packages/simulators/src/demo/demo-telegram.ts), so contacts can write to the
// bot and agents' answers arrive (docs/channels.md, Telegram). It serves two bots: the seeded
// channel's, whose webhook starts pointed at that channel, and a second one with no webhook until a
// Telegram channel created with its token calls setWebhook.
import {
  DEMO_TELEGRAM_BOT_TOKEN_DEFAULT,
  DEMO_TELEGRAM_CHANNEL_ID,
  DEMO_TELEGRAM_PORT_DEFAULT,
  DEMO_TELEGRAM_SECOND_BOT_TOKEN_DEFAULT,
  DEMO_TELEGRAM_WEBHOOK_SECRET_DEFAULT,
} from './demo-defaults';
import { startTelegramSimulator } from './simulator';

// A demo process, not the product: it reads its environment here (DEMO_* variables, the api's port),
// outside the settings of packages/config, which hold what the api and the worker read.
const port = Number(process.env.DEMO_TELEGRAM_PORT ?? DEMO_TELEGRAM_PORT_DEFAULT);
const apiPort = process.env.PORT ?? '3000';
const simulator = await startTelegramSimulator({
  token: process.env.DEMO_TELEGRAM_BOT_TOKEN ?? DEMO_TELEGRAM_BOT_TOKEN_DEFAULT,
  port,
  host: '127.0.0.1',
  webhook: {
    url: process.env.DEMO_TELEGRAM_WEBHOOK_URL || `http://127.0.0.1:${apiPort}/api/v1/channels/${DEMO_TELEGRAM_CHANNEL_ID}/webhook`,
    secret: process.env.DEMO_TELEGRAM_WEBHOOK_SECRET ?? DEMO_TELEGRAM_WEBHOOK_SECRET_DEFAULT,
  },
  bots: [{ token: DEMO_TELEGRAM_SECOND_BOT_TOKEN_DEFAULT, username: 'atende_second_bot' }],
});
console.warn(`demo Telegram Bot API (simulator) listening at ${simulator.baseUrl}`);
const stop = () => void simulator.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
