/**
 * The demo WhatsApp provider's defaults (demo-provider.ts, a 360dialog simulator), shared with the
 * seed's demo channel so both sides agree without configuration. Constants only: importing this
 * file starts nothing.
 */
export const DEMO_WHATSAPP_PORT_DEFAULT = 4011;
export const DEMO_WHATSAPP_API_KEY_DEFAULT = 'demo-360-api-key';
export const DEMO_WHATSAPP_WEBHOOK_SECRET_DEFAULT = 'demo-360-webhook-secret';
/**
 * A second 360dialog account, connected to no channel: an admin creates a 360dialog channel with it in
 * Settings > Workspace (the demo account's key already belongs to the demo channel) and points its
 * webhook at the new channel over HTTP.
 */
export const DEMO_WHATSAPP_SECOND_PORT_DEFAULT = 4019;
export const DEMO_WHATSAPP_SECOND_API_KEY = 'demo-360-second-api-key';
