/**
 * The demo Telegram Bot API (demo-provider.ts, the Telegram simulator) defaults, shared with the
 * seed's demo channel so both sides agree without configuration. Constants only.
 */
export const DEMO_TELEGRAM_PORT_DEFAULT = 4013;
export const DEMO_TELEGRAM_BOT_TOKEN_DEFAULT = '7000000001:AAdemo-atende-telegram-bot-token';
/** A second bot on the same demo Bot API, connected to no channel: for a Telegram channel created in the admin screen. */
export const DEMO_TELEGRAM_SECOND_BOT_TOKEN_DEFAULT = '7000000002:AAdemo-atende-telegram-second-bot-token';
export const DEMO_TELEGRAM_WEBHOOK_SECRET_DEFAULT = 'demo-telegram-webhook-secret';
/** The seeded demo Telegram channel's id: the demo Bot API posts updates to its webhook address. */
export const DEMO_TELEGRAM_CHANNEL_ID = '7e1e9a00-0000-4000-8000-000000004013';
