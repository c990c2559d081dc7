import { RE2JS } from 're2js';
import { LIVECHAT_VALIDATOR_MAX } from './livechat';

// A module of its own: only code that runs user patterns (the api, the livechat widget and the
// appearance form) loads the RE2 engine; code that merely reads channels does not (issue 13 item 1).

/**
 * A pattern written by a user, compiled for RE2's linear-time engine (issue 12 item 2): matching takes
 * time proportional to the input whatever the pattern, so no pattern can stall the api's event loop.
 * RE2 has no back-references or lookarounds; such patterns do not compile. Null when it does not.
 */
export function compileUserPattern(pattern: string): RE2JS | null {
  try {
    return RE2JS.compile(pattern);
  } catch {
    return null;
  }
}

/** Whether the whole of `value` matches a user's pattern, in linear time; false for a pattern that does not compile. */
export function matchesUserPattern(pattern: string, value: string): boolean {
  return compileUserPattern(pattern)?.matches(value) ?? false;
}

/**
 * Why a custom field's validator cannot be used, or null. Patterns are written by admins and run on
 * visitors' input, in the widget and in the api, by the same linear-time engine (RE2), so the form,
 * the widget and the api agree on what a pattern means.
 */
export function livechatValidatorProblem(pattern: string): string | null {
  if (pattern.length > LIVECHAT_VALIDATOR_MAX) return `The validator must have at most ${LIVECHAT_VALIDATOR_MAX} characters`;
  if (!compileUserPattern(pattern)) return 'The validator is not a valid regular expression (back-references and lookarounds are not supported)';
  return null;
}
