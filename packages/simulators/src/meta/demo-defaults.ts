/**
 * The demo Meta (demo-provider.ts, the Meta simulator playing Messenger) defaults, shared with the
 * seed's demo Messenger channel so both sides agree without configuration. Constants only.
 */
export const DEMO_META_PORT_DEFAULT = 4015;
/** The demo Meta playing Instagram messaging (same app and page), for Instagram channels created in the admin screen. */
export const DEMO_INSTAGRAM_PORT_DEFAULT = 4018;
export const DEMO_META_PAGE_ID = '100000000004015';
export const DEMO_META_PAGE_TOKEN_DEFAULT = 'EAAdemo-atende-messenger-page-token';
export const DEMO_META_APP_SECRET_DEFAULT = 'demo-messenger-app-secret';
export const DEMO_META_VERIFY_TOKEN_DEFAULT = 'demo-messenger-verify-token';
/** The demo Meta app the channel setup screens log in with (scripts/demo-meta-env.mjs gives the api the same). */
export const DEMO_META_APP_ID = '4015000000000001';
/** The seeded demo Instagram channel's id: the demo Meta playing Instagram posts webhooks to its address. */
export const DEMO_INSTAGRAM_CHANNEL_ID = '3e55e9e0-0000-4000-8000-000000004018';
/** The seeded demo Messenger channel's id: the demo Meta posts webhooks to its address. */
export const DEMO_MESSENGER_CHANNEL_ID = '3e55e9e0-0000-4000-8000-000000004015';
