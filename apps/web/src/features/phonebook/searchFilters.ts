import { listContacts } from '@atende/contract';

/** What the agent typed in the phonebook's search fields. */
export interface PhonebookSearch {
  name: string;
  phone: string;
}

export interface PhonebookFilters {
  /** Per-field message ('Should have at least 3 characters'), untranslated. */
  errors: { name?: string; phone?: string };
  /** The GET /api/v1/contacts filters, or null while a field is invalid (the last valid search stays). */
  query: { name?: string; phone_number?: string } | null;
}

// The contract's own rules (at least 3 characters), so client and api agree.
const nameRule = listContacts.query.shape.name;
const phoneRule = listContacts.query.shape.phone_number;

function check(rule: typeof nameRule | typeof phoneRule, text: string): { value?: string; error?: string } {
  const trimmed = text.trim();
  if (!trimmed) return {};
  const parsed = rule.safeParse(trimmed);
  return parsed.success ? { value: parsed.data } : { error: parsed.error.issues[0]?.message ?? 'Should have at least 3 characters' };
}

/** Phonebook search: name and phone filters need at least 3 characters; empty fields do not filter. */
export function phonebookFilters(search: PhonebookSearch): PhonebookFilters {
  const name = check(nameRule, search.name);
  const phone = check(phoneRule, search.phone);
  const errors = { ...(name.error ? { name: name.error } : {}), ...(phone.error ? { phone: phone.error } : {}) };
  if (name.error || phone.error) return { errors, query: null };
  return { errors, query: { ...(name.value ? { name: name.value } : {}), ...(phone.value ? { phone_number: phone.value } : {}) } };
}
