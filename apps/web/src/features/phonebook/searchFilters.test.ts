import { describe, expect, it } from 'vitest';
import { phonebookFilters } from './searchFilters';

// Phonebook search: name and phone filters need at least 3 characters
// ('Should have at least 3 characters').
describe('phonebook search filters', () => {
  it('does not filter on empty fields', () => {
    expect(phonebookFilters({ name: '', phone: '  ' })).toEqual({ errors: {}, query: {} });
  });
  it('refuses a name or phone shorter than 3 characters and keeps the last search', () => {
    expect(phonebookFilters({ name: 'Ma', phone: '' })).toEqual({ errors: { name: 'Should have at least 3 characters' }, query: null });
    expect(phonebookFilters({ name: 'Maria', phone: ' 11 ' })).toEqual({
      errors: { phone: 'Should have at least 3 characters' },
      query: null,
    });
  });
  it('sends trimmed filters of at least 3 characters', () => {
    expect(phonebookFilters({ name: ' Mar ', phone: '+55 11' })).toEqual({ errors: {}, query: { name: 'Mar', phone_number: '+55 11' } });
  });
});
