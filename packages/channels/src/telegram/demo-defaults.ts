/**
 * The demo Telegram Bot API (demo-provider.ts, the Telegram simulator) defaults, shared with the
 * seed's demo channel so both sides agree without configuration. Constants only.
 */
export const DEMO_TELEGRAM_PORT_DEFAULT = 4013;
export const DEMO_TELEGRAM_BOT_TOKEN_DEFAULT = '7000000001:AAdemo-atende-telegram-bot-token';
