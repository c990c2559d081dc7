import { fieldMessage, type ErrorCode } from '@atende/contract';
import { foldText } from './canned';

/**
 * A rule a form field breaks: the field's path (a.b.0.c) and the message shown under it, a text of
 * the contract's catalogue (field-messages.ts) that finds its code. `code` and `params` only for a
 * message outside the catalogue (a livechat field's own validator message, written by its admin).
 */
export interface FieldIssue {
  path: string;
  message: string;
  code?: ErrorCode;
  params?: Record<string, string | number>;
}

/** Text compared as people read it: no accents, case or surrounding spaces. */
export const foldTrimmed = (s: string): string => foldText(s.trim());

export const maxCharactersMessage = (max: number): string => fieldMessage('field_too_long', { max });

/** A required text of at most `max` characters: pushes the first rule it breaks. */
export function checkRequiredText(issues: FieldIssue[], path: string, value: string, max: number, requiredMessage: string): void {
  if (!value.trim()) issues.push({ path, message: requiredMessage });
  else if (value.length > max) issues.push({ path, message: maxCharactersMessage(max) });
}

// Code-unit regexes (no u flag): NUL, a high surrogate not followed by a low one, a low one alone.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text Postgres cannot store: NUL (text and jsonb refuse it) and unpaired UTF-16 surrogates (jsonb refuses them). */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/** The text with NULs dropped and unpaired surrogates replaced by U+FFFD, so Postgres can store it. */
export function storableText(value: string): string {
  return UNSTORABLE.test(value) ? value.replace(UNSTORABLE_ALL, (c) => (c === '\u0000' ? '' : '\uFFFD')) : value;
}

/**
 * Every string (and object key) of a provider's parsed message made storable: one bad character in
 * one message of a webhook must not lose it nor the messages beside it. The value
 * itself comes back when nothing needed cleaning.
 */
export function storableStrings<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (depth > 32 || value === null || typeof value !== 'object' || value instanceof Date || value instanceof Uint8Array) return value;
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => storableStrings(item, depth + 1));
    return items.some((item, i) => item !== value[i]) ? (items as T) : value;
  }
  const entries = Object.entries(value);
  const cleaned = entries.map(([k, v]) => [storableText(k), storableStrings(v, depth + 1)] as const);
  return cleaned.some(([k, v], i) => k !== entries[i]![0] || v !== entries[i]![1]) ? (Object.fromEntries(cleaned) as T) : value;
}
