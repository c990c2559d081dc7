/**
 * The demo mail provider (demo-provider.ts, the e-mail simulator) and the worker's inbound listener
 * defaults, shared with the seed's demo e-mail channel so both sides agree without configuration.
 * Constants only.
 */
/** The demo channel's SMTP server (the simulator): agents' replies arrive here and are printed. */
export const DEMO_EMAIL_SMTP_PORT_DEFAULT = 4016;
/** The worker's inbound SMTP listener in the demo (EMAIL_INBOUND_SMTP_PORT): contacts write here. */
export const DEMO_EMAIL_INBOUND_PORT_DEFAULT = 4017;
export const DEMO_EMAIL_FROM_ADDRESS = 'suporte@demo.atende.test';
export const DEMO_EMAIL_PASSWORD_DEFAULT = 'demo-smtp-password';
/** Base64url like the secrets the api makes; its first 24 characters are the forwarding address's token. */
export const DEMO_EMAIL_WEBHOOK_SECRET_DEFAULT = 'demoEmailForwardingToken0001';
export const DEMO_EMAIL_CHANNEL_ID = '7e1e9a00-0000-4000-8000-000000004016';
/** The demo's forwarding address (EMAIL_INBOUND_DOMAIN defaults to localhost). */
export const DEMO_EMAIL_FORWARDING_ADDRESS = `${DEMO_EMAIL_CHANNEL_ID.replace(/-/g, '')}.${DEMO_EMAIL_WEBHOOK_SECRET_DEFAULT.slice(0, 24)}@localhost`;
