import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

/** The default calling country is BR; the phone input offers BR, US, CA. */
export const DEFAULT_PHONE_COUNTRY: CountryCode = 'BR';
export const PHONE_COUNTRIES: readonly CountryCode[] = ['BR', 'US', 'CA'];

/** Maps a tenant's default_country_code ('+55') to a country for parsing national numbers. */
export function countryForCallingCode(code: string | undefined): CountryCode {
  switch ((code ?? '+55').replace('+', '')) {
    case '1':
      return 'US';
    case '55':
      return 'BR';
    default:
      return DEFAULT_PHONE_COUNTRY;
  }
}

/**
 * Phones read lately, `country|input` → E.164 or null: the same contacts write again and again, and
 * parsing one took 2% of the api's CPU under message load. Emptied when full.
 */
const recentPhones = new Map<string, string | null>();
export const RECENT_PHONES_MAX = 5_000;

/** A valid phone in E.164, or null. National numbers are read in `country`. */
export function normalizePhone(input: string, country: CountryCode = DEFAULT_PHONE_COUNTRY): string | null {
  const trimmed = input.trim();
  if (!trimmed || trimmed.length > 32) return null;
  const key = `${country}|${trimmed}`;
  const known = recentPhones.get(key);
  if (known !== undefined) return known;
  const parsed = parsePhoneNumberFromString(trimmed, country);
  const e164 = parsed && parsed.isValid() ? parsed.number : null;
  if (recentPhones.size >= RECENT_PHONES_MAX) recentPhones.clear();
  recentPhones.set(key, e164);
  return e164;
}

/** Selected-text binding: a telephone field takes only E.164 text that starts with the country code. */
export function isStrictE164(text: string): boolean {
  if (!/^\+\d{8,15}$/.test(text.trim())) return false;
  return normalizePhone(text) !== null;
}

/** National format for display, else the raw value, else '--'. */
export function formatPhoneForDisplay(value: string | null | undefined): string {
  if (!value) return '--';
  const parsed = parsePhoneNumberFromString(value);
  return parsed && parsed.isValid() ? parsed.formatNational() : value;
}

/**
 * The forms one phone takes on WhatsApp: a Brazilian mobile is written by WhatsApp without the ninth
 * digit ('+55 11 8765-0123' for '+55 11 98765-0123'), so a reply must match a subscriber stored
 * either way. Other numbers have the one form.
 */
export function phoneVariants(e164: string): string[] {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed || parsed.countryCallingCode !== '55') return [e164];
  const national = String(parsed.nationalNumber);
  const area = national.slice(0, 2);
  const subscriber = national.slice(2);
  // 11 digits with a leading 9: the mobile with its ninth digit; 10 digits starting 6-9: without it.
  if (subscriber.length === 9 && subscriber.startsWith('9')) return [e164, `+55${area}${subscriber.slice(1)}`];
  if (subscriber.length === 8 && /^[6-9]/.test(subscriber)) return [e164, `+55${area}9${subscriber}`];
  return [e164];
}
