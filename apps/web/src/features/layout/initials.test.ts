import { describe, expect, it } from 'vitest';
import { contactLabel, initials } from './initials';

// Avatars with generated initials.
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

describe('contactLabel', () => {
  it('names a contact by its name, else its phone, else its e-mail, never blank', () => {
    expect(contactLabel({ name: 'Maria Souza', phone_number: '+5511987654321' })).toBe('Maria Souza');
    expect(contactLabel({ name: '  ', phone_number: '+5511987654321', email: 'm@x.com' })).toBe('+5511987654321');
    expect(contactLabel({ name: '', phone_number: null, email: 'm@x.com' })).toBe('m@x.com');
    expect(contactLabel({ name: '', phone_number: null, email: null })).toBe('--');
  });
});
