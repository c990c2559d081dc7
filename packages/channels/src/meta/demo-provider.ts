// The demo's Meta: a Meta simulator playing Messenger that `pnpm start` and the e2e stack run for
// the demo tenant's "Messenger" channel (packages/db/src/demo-messenger.ts), so contacts can write
// to the page and agents' answers arrive (README: play a Messenger contact).
import { DEMO_INSTAGRAM_PORT_DEFAULT, DEMO_MESSENGER_CHANNEL_ID, DEMO_META_APP_SECRET_DEFAULT, DEMO_META_PAGE_ID, DEMO_META_PAGE_TOKEN_DEFAULT, DEMO_META_PORT_DEFAULT, DEMO_META_VERIFY_TOKEN_DEFAULT } from './demo-defaults';
import { startMetaSimulator } from './simulator';

const port = Number(process.env.DEMO_META_PORT ?? DEMO_META_PORT_DEFAULT);
const apiPort = process.env.PORT ?? '3000';
const simulator = await startMetaSimulator({
  object: 'page',
  pageId: DEMO_META_PAGE_ID,
  pageToken: process.env.DEMO_META_PAGE_TOKEN ?? DEMO_META_PAGE_TOKEN_DEFAULT,
  appSecret: process.env.DEMO_META_APP_SECRET ?? DEMO_META_APP_SECRET_DEFAULT,
  port,
  host: '127.0.0.1',
  webhook: {
    url: process.env.DEMO_META_WEBHOOK_URL || `http://127.0.0.1:${apiPort}/api/v1/channels/${DEMO_MESSENGER_CHANNEL_ID}/webhook`,
    verifyToken: process.env.DEMO_META_VERIFY_TOKEN ?? DEMO_META_VERIFY_TOKEN_DEFAULT,
  },
});
console.warn(`demo Meta (Messenger simulator) listening at ${simulator.baseUrl}`);
// Instagram messaging on the same app and page: its webhook is set over HTTP (/_simulator/webhook) once an
// Instagram channel exists (the admin screen shows the address to give Meta).
const instagram = await startMetaSimulator({
  object: 'instagram',
  pageId: DEMO_META_PAGE_ID,
  pageToken: process.env.DEMO_META_PAGE_TOKEN ?? DEMO_META_PAGE_TOKEN_DEFAULT,
  appSecret: process.env.DEMO_META_APP_SECRET ?? DEMO_META_APP_SECRET_DEFAULT,
  port: Number(process.env.DEMO_INSTAGRAM_PORT ?? DEMO_INSTAGRAM_PORT_DEFAULT),
  host: '127.0.0.1',
});
console.warn(`demo Meta (Instagram simulator) listening at ${instagram.baseUrl}`);
const stop = () => void Promise.all([simulator.close(), instagram.close()]).then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
