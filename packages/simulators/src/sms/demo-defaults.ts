/**
 * The demo SMS provider (demo-provider.ts, the Twilio simulator speaking SMS) defaults, shared with
 * the seed's demo channel so both sides agree without configuration. Constants only.
 */
export const DEMO_SMS_PORT_DEFAULT = 4014;
export const DEMO_SMS_ACCOUNT_SID_DEFAULT = 'AC00000000000000000000000000demo14';
export const DEMO_SMS_AUTH_TOKEN_DEFAULT = 'demo-sms-twilio-auth-token';
export const DEMO_SMS_FROM_NUMBER_DEFAULT = '+15005550006';
/** A second number of the same demo account, connected to no channel: for an SMS channel created in the admin screen. */
export const DEMO_SMS_SECOND_NUMBER_DEFAULT = '+15005550014';
/** The seeded demo SMS channel's id: the demo provider posts inbound messages to its webhook address. */
export const DEMO_SMS_CHANNEL_ID = '5e5e9a00-0000-4000-8000-000000004014';
