import { useState } from 'react';
import type { PhonebookFilters } from './searchFilters';

export type PhonebookQuery = NonNullable<PhonebookFilters['query']>;

/**
 * The filters of the last valid search: an invalid field keeps the previous results on screen.
 * A new object only when the valid search changes (a field made invalid and then valid again
 * counts as a change), so callers can reset their paging on its identity.
 */
export function useLastValidQuery(filters: PhonebookFilters): PhonebookQuery {
  const key = filters.query ? JSON.stringify(filters.query) : null;
  const [last, setLast] = useState<{ key: string | null; query: PhonebookQuery }>(() => ({ key, query: filters.query ?? {} }));
  // Updated while rendering ("previous value in state"): the search asked is never a render behind.
  if (key !== last.key) {
    const next = { key, query: key === null ? last.query : (JSON.parse(key) as PhonebookQuery) };
    setLast(next);
    return next.query;
  }
  return last.query;
}
