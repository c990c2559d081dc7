import { describe, expect, it } from 'vitest';
import { formatPhoneForDisplay, isStrictE164, normalizePhone } from './phone';

// spec 000 §5: phone numbers valid for the default calling country (BR), normalised to international format.
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
