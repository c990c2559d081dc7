import { describe, expect, it } from 'vitest';
import { formatPhoneForDisplay, isStrictE164, normalizePhone, phoneVariants, RECENT_PHONES_MAX } from './phone';

// Phone numbers valid for the default calling country (BR), normalised to international format.
describe('phone numbers', () => {
  it('normalises Brazilian national and international numbers to E.164', () => {
    expect(normalizePhone('(11) 99999-0000')).toBe('+5511999990000');
    expect(normalizePhone('+55 11 99999 0000')).toBe('+5511999990000');
    expect(normalizePhone('+1 415 555 2671')).toBe('+14155552671');
  });
  it('rejects invalid numbers and junk', () => {
    expect(normalizePhone('123')).toBeNull();
    expect(normalizePhone('abc')).toBeNull();
    expect(normalizePhone('')).toBeNull();
    expect(normalizePhone('9'.repeat(40))).toBeNull();
  });
  it('accepts only E.164 with the country code for selected-text binding', () => {
    expect(isStrictE164('+5511999990000')).toBe(true);
    expect(isStrictE164('11999990000')).toBe(false);
    expect(isStrictE164('+55 11 99999-0000')).toBe(false);
  });
  it('displays national format, raw when unparseable, -- when empty', () => {
    expect(formatPhoneForDisplay('+5511999990000')).toBe('(11) 99999-0000');
    expect(formatPhoneForDisplay('abc')).toBe('abc');
    expect(formatPhoneForDisplay(null)).toBe('--');
  });
});

// WhatsApp writes Brazilian mobiles without the ninth digit; both forms are one phone.
describe('normalizePhone remembers recent answers', () => {
  it('by country as well as text, invalid ones too, and stays right after it is emptied', () => {
    // The same national number read in two countries: two answers, each asked twice.
    for (let i = 0; i < 2; i++) {
      expect(normalizePhone('(415) 555-2671', 'US')).toBe('+14155552671');
      expect(normalizePhone('(415) 555-2671', 'BR')).toBe('+554155552671');
      expect(normalizePhone(' 11 98888-0001 ', 'BR')).toBe('+5511988880001');
      expect(normalizePhone('12345', 'BR')).toBeNull();
    }
    // More distinct numbers than it keeps: the answers do not change.
    for (let i = 0; i <= RECENT_PHONES_MAX; i++) normalizePhone(`+5511${String(900_000_000 + i)}`, 'BR');
    expect(normalizePhone('(415) 555-2671', 'US')).toBe('+14155552671');
    expect(normalizePhone('(415) 555-2671', 'BR')).toBe('+554155552671');
    expect(normalizePhone('12345', 'BR')).toBeNull();
  });
});

describe('phoneVariants', () => {
  it('gives a Brazilian mobile with and without its ninth digit', () => {
    expect(phoneVariants('+5511987650123')).toEqual(['+5511987650123', '+551187650123']);
    expect(phoneVariants('+551187650123')).toEqual(['+551187650123', '+5511987650123']);
  });
  it('leaves landlines and other countries alone', () => {
    expect(phoneVariants('+551133334444')).toEqual(['+551133334444']);
    expect(phoneVariants('+14155550123')).toEqual(['+14155550123']);
    expect(phoneVariants('not a phone')).toEqual(['not a phone']);
  });
});
