// The demo tenant `pnpm start`, the e2e stack and the benchmarks seed (`pnpm db:seed`): never part of a production bundle.
export { seedDemo, DEMO_USERS, DEMO_PASSWORD, DEMO_DOMAIN, type DemoSeedResult } from './demo';
export { DEMO_CHANNEL_TOKEN } from './demo-conversations';
export { DEMO_WHATSAPP_CHANNEL_ID } from './demo-whatsapp';
export { DEMO_TELEGRAM_CHANNEL_ID } from './demo-telegram';
export { DEMO_SMS_CHANNEL_ID } from './demo-sms';
export { DEMO_INSTAGRAM_CHANNEL_ID, DEMO_MESSENGER_CHANNEL_ID } from './demo-meta';
export { DEMO_EMAIL_CHANNEL_ID } from './demo-email';
export { DEMO_LIVECHAT_CHANNEL_ID } from './demo-livechat';
