import { foldText } from './canned';

/** A rule a form field breaks: the field's path (a.b.0.c) and the message shown under it. */
export interface FieldIssue {
  path: string;
  message: string;
}

/** Text compared as people read it: no accents, case or surrounding spaces. */
export const foldTrimmed = (s: string): string => foldText(s.trim());

export const maxCharactersMessage = (max: number): string => `${max} characters maximum`;

/** A required text of at most `max` characters: pushes the first rule it breaks. */
export function checkRequiredText(issues: FieldIssue[], path: string, value: string, max: number, requiredMessage: string): void {
  if (!value.trim()) issues.push({ path, message: requiredMessage });
  else if (value.length > max) issues.push({ path, message: maxCharactersMessage(max) });
}
