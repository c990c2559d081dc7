import type { ChannelDefinition } from '../definition';
import { twilioIdentity } from '../identity-rules';
import { TwilioSecretsSchema, TwilioSettingsSchema } from '../twilio/settings';
import { SmsTwilioAdapter } from './adapter';

/** SMS (and MMS when mms_enabled) through Twilio Programmable Messaging. */
export const smsChannel: ChannelDefinition = {
  types: ['sms'],
  settingsSchema: TwilioSettingsSchema,
  secretsSchema: TwilioSecretsSchema,
  createAdapter: (options) => new SmsTwilioAdapter({ outbound: options.outbound, ...options.sms }),
  identity: twilioIdentity('sms'),
};
