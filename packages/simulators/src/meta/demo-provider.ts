// The demo's Meta: Meta simulators playing Messenger and Instagram messaging that `pnpm start` and the
// e2e stack run for the demo tenant's "Messenger" and "Instagram" channels (packages/simulators/src/demo/demo-meta.ts),
// so contacts can write to the page and agents' answers arrive (docs/channels.md, Messenger and Instagram). Both
// also play Facebook Login for the /messenger-setup and /instagram-setup screens (scripts/demo-meta-env.mjs),
// and serve the demo user's second page, "Atende Outlet" (defaultPages), connected to no channel.
import {
  DEMO_INSTAGRAM_CHANNEL_ID,
  DEMO_INSTAGRAM_PORT_DEFAULT,
  DEMO_MESSENGER_CHANNEL_ID,
  DEMO_META_APP_ID,
  DEMO_META_APP_SECRET_DEFAULT,
  DEMO_META_PAGE_ID,
  DEMO_META_PAGE_TOKEN_DEFAULT,
  DEMO_META_PORT_DEFAULT,
  DEMO_META_VERIFY_TOKEN_DEFAULT,
} from './demo-defaults';
import { startMetaSimulator } from './simulator';

// A demo process, not the product: it reads its environment here (DEMO_* variables, the api's port),
// outside the settings of packages/config, which hold what the api and the worker read.
const apiPort = process.env.PORT ?? '3000';
const shared = {
  pageId: DEMO_META_PAGE_ID,
  pageToken: process.env.DEMO_META_PAGE_TOKEN ?? DEMO_META_PAGE_TOKEN_DEFAULT,
  appSecret: process.env.DEMO_META_APP_SECRET ?? DEMO_META_APP_SECRET_DEFAULT,
  host: '127.0.0.1',
  login: { appId: DEMO_META_APP_ID },
};
const webhookOf = (given: string | undefined, channelId: string) => ({
  url: given || `http://127.0.0.1:${apiPort}/api/v1/channels/${channelId}/webhook`,
  verifyToken: process.env.DEMO_META_VERIFY_TOKEN ?? DEMO_META_VERIFY_TOKEN_DEFAULT,
});
const simulator = await startMetaSimulator({
  ...shared,
  object: 'page',
  port: Number(process.env.DEMO_META_PORT ?? DEMO_META_PORT_DEFAULT),
  webhook: webhookOf(process.env.DEMO_META_WEBHOOK_URL, DEMO_MESSENGER_CHANNEL_ID),
});
console.warn(`demo Meta (Messenger simulator) listening at ${simulator.baseUrl}`);
const instagram = await startMetaSimulator({
  ...shared,
  object: 'instagram',
  port: Number(process.env.DEMO_INSTAGRAM_PORT ?? DEMO_INSTAGRAM_PORT_DEFAULT),
  webhook: webhookOf(process.env.DEMO_INSTAGRAM_WEBHOOK_URL, DEMO_INSTAGRAM_CHANNEL_ID),
});
console.warn(`demo Meta (Instagram simulator) listening at ${instagram.baseUrl}`);
const stop = () => void Promise.all([simulator.close(), instagram.close()]).then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
