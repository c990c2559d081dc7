import { createHash } from 'node:crypto';
import type { ChannelDefinition, ChannelValues, ProviderIdentity } from './definition';

/**
 * The pieces of the provider identity rules (definition.identity) that several types share. The
 * backfill in migration 20261202010000 repeats the config-derived rules in SQL; keep the two alike.
 */

export type IdentityOf = NonNullable<ChannelDefinition['identity']>;

/** A non-secret provider id as compared: trimmed and lower-cased (Meta and Telegram ids are digits, Twilio SIDs hex). */
export const idValue = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().toLowerCase() : null;
/** A phone number's digits only: '+1 (500) 555-0006', 'whatsapp:+15005550006' and '15005550006' are one number. */
export const digitsValue = (value: unknown): string | null => idValue(value)?.replace(/[^0-9]/g, '') || null;
/** A secret is kept only as its digest. */
export const digest = (secret: string) => createHash('sha256').update(secret).digest('hex');
/** A trimmed secret, or '' when absent. */
export const secretValue = (secrets: ChannelValues, key: string): string => (typeof secrets[key] === 'string' ? secrets[key].trim() : '');

/** Twilio (SMS, WhatsApp): the account and the sender number, or its messaging service when no number is set. */
export const twilioIdentity =
  (kind: 'sms' | 'whatsapp_twilio'): IdentityOf =>
  (settings): ProviderIdentity | null => {
    const account = idValue(settings.account_sid);
    const number = digitsValue(settings.from_number);
    const service = idValue(settings.messaging_service_sid);
    if (!account || !(number || service)) return null;
    return number
      ? { identity: `${kind}:${account}:${number}`, field: 'from_number' }
      : { identity: `${kind}:${account}:${service}`, field: 'messaging_service_sid' };
  };
