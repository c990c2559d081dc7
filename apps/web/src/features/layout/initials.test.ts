import { describe, expect, it } from 'vitest';
import { initials } from './initials';

// spec 000 §9: avatars with generated initials.
describe('initials', () => {
  it('takes the first letters of the first two words', () => {
    expect(initials('Maria da Silva')).toBe('MD');
    expect(initials('Agent 2')).toBe('A2');
  });
  it('takes two letters of a single word, and never returns nothing', () => {
    expect(initials('supervisor')).toBe('SU');
    expect(initials('  ')).toBe('?');
  });
});
