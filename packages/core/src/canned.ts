/** Lower-cases and strips accents, for accent- and case-insensitive matching. */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/gi;

/** Replaces {{user_name}} and {{workspace_name}} placeholders by the stored values. */
export function fillPlaceholders(text: string, values: { userName: string; workspaceName: string }): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const key = name.toLowerCase();
    if (key === 'user_name' || key === 'user' || key === 'agent_name') return values.userName;
    if (key === 'workspace_name' || key === 'workspace') return values.workspaceName;
    return whole;
  });
}

export interface CannedLike {
  keyword: string;
  message: string;
  category: { name: string } | null;
}

/**
 * Canned search: prefix match, accent- and case-insensitive, on the keyword, the
 * category, or the text with placeholders removed.
 */
export function searchCanned<T extends CannedLike>(query: string, responses: readonly T[], limit = 20): T[] {
  const q = foldText(query.trim());
  if (!q) return responses.slice(0, limit);
  const starts = (s: string | undefined) => (s ? foldText(s).startsWith(q) : false);
  return responses
    .filter((r) => starts(r.keyword) || starts(r.category?.name) || starts(r.message.replace(PLACEHOLDER, '').trim()))
    .slice(0, limit);
}
