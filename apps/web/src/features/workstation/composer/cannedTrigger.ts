/** Canned responses open on this symbol at the start of the text (symbol not shown; '/' as common in chat tools). */
export const CANNED_TRIGGER = '/';
/** Characters needed after the symbol before suggestions show. */
export const CANNED_MIN_QUERY = 1;
/** At most this many suggestions are listed. */
export const CANNED_LIMIT = 10;

/** The canned search typed in the composer, or null when the text is not a canned search. */
export function cannedQuery(text: string): string | null {
  if (!text.startsWith(CANNED_TRIGGER) || text.includes('\n')) return null;
  const query = text.slice(CANNED_TRIGGER.length);
  return query.length >= CANNED_MIN_QUERY ? query : null;
}
