import { RE2JS } from 're2js';
import { LIVECHAT_VALIDATOR_MAX } from './livechat';
import { fieldMessage } from './field-messages';

// A module of its own: only code that runs user patterns (the api, the livechat widget and the
// appearance form) loads the RE2 engine; code that merely reads channels does not.

/**
 * The most instructions a user pattern may compile to (RE2's own measure, `programSize()`). RE2 is
 * linear in the input but each character may step every instruction of the program: with re2js a
 * freshly compiled 1,000-instruction program takes about 50 ms on 2,000 characters in the worst
 * case (a 32,000-instruction one, `[^!]{0,999}` sixteen times, about 1 s). 1,000 is far above what a
 * format check needs (a CPF is about 40, an e-mail 15 to 60, `[A-Za-z ]{2,60}` about 120).
 */
export const USER_PATTERN_PROGRAM_MAX = 1000;

/**
 * The most matching work one form may ask for: the sum, over the validators it runs, of program
 * size × the field's maximum length. 2,000,000 is one 1,000-instruction validator on a
 * 2,000-character field, about 50 ms in the worst case, so no request holds the event loop longer
 * however the validators are spread over fields.
 */
export const USER_PATTERN_WORK_MAX = 2_000_000;

/**
 * A sound upper bound of the program RE2 compiles a pattern to, read from its text without compiling
 * it: the same count as RE2's parser (a literal, class or assertion is one instruction, a group adds
 * two, `x{n,m}` is m copies of x plus m - n, `*` `+` `?` add one or two), counted repetitions
 * multiplying what they repeat. Compiling itself takes time in proportion to the program (about 90 ms
 * for the 180,000 instructions of a 200-character pattern), so a pattern far over the budget is refused
 * from this bound alone; one near it is compiled and measured exactly.
 */
export function userPatternSizeBound(pattern: string): number {
  let i = 0;
  const alternation = (): number => {
    let total = concat();
    while (pattern[i] === '|') {
      i += 1;
      total += concat() + 1;
    }
    return total;
  };
  const concat = (): number => {
    let total = 0;
    let last = 1;
    while (i < pattern.length && pattern[i] !== '|' && pattern[i] !== ')') {
      // After a flags group, a repetition applies to what came before it: count that again.
      let size = atom() ?? last;
      for (let q = quantifier(); q; q = quantifier()) {
        size = q.max === Infinity ? (Math.max(q.min, 1) + 1) * (size + 1) + 2 : Math.max(q.max, 1) * (size + 1) + q.max + 2;
      }
      total += size;
      last = size;
    }
    return total;
  };
  /** The bound of one atom; null for a flags group `(?i)`, which matches nothing. */
  const atom = (): number | null => {
    const c = pattern[i]!;
    if (c === '(') {
      i += 1;
      if (pattern[i] === '?') {
        // (?flags) sets flags and matches nothing; (?:, (?P<name>, (?<name>, (?=, (?<= ... open a group.
        const flags = /^\?[a-zA-Z-]*\)/.exec(pattern.slice(i));
        if (flags) {
          i += flags[0].length;
          return null;
        }
        const header = /^\?(?:P?<[^>]*>|<[=!]|[=!]|[a-zA-Z-]*:)?/.exec(pattern.slice(i))!;
        i += header[0].length;
      }
      const inner = alternation();
      if (pattern[i] === ')') i += 1;
      return inner + 2;
    }
    if (c === '[') {
      i += 1;
      if (pattern[i] === '^') i += 1;
      if (pattern[i] === ']') i += 1;
      while (i < pattern.length && pattern[i] !== ']') {
        if (pattern[i] === '\\') i += 2;
        else if (pattern.startsWith('[:', i)) i = pattern.includes(':]', i + 2) ? pattern.indexOf(':]', i + 2) + 2 : i + 1;
        else i += 1;
      }
      i += 1;
      return 1;
    }
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === 'Q') {
        const end = pattern.indexOf('\\E', i + 2);
        const stop = end < 0 ? pattern.length : end;
        const size = Math.max(stop - (i + 2), 1);
        i = end < 0 ? pattern.length : end + 2;
        return size;
      }
      if ((next === 'p' || next === 'P' || next === 'x') && pattern[i + 2] === '{') {
        const close = pattern.indexOf('}', i + 3);
        i = close < 0 ? pattern.length : close + 1;
      } else i += next === 'p' || next === 'P' ? 3 : next === 'x' ? 4 : 2;
      return 1;
    }
    i += 1;
    return 1;
  };
  const quantifier = (): { min: number; max: number } | null => {
    const c = pattern[i];
    let q: { min: number; max: number } | null = null;
    if (c === '*' || c === '+' || c === '?') {
      i += 1;
      q = { min: c === '+' ? 1 : 0, max: c === '?' ? 1 : Infinity };
    } else if (c === '{') {
      const counted = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
      if (!counted) return null;
      i += counted[0].length;
      const min = Number(counted[1]);
      q = { min, max: counted[2] === undefined ? min : counted[3] ? Number(counted[3]) : Infinity };
    }
    if (q && pattern[i] === '?') i += 1;
    return q;
  };
  let total = 0;
  while (i < pattern.length) {
    total += alternation();
    if (pattern[i] === ')') i += 1;
  }
  // The program's frame: the unanchored prefix loop, the whole match's capture, match and fail.
  return total + 8;
}

/** Whether a user pattern can run: the size of its program, or why it cannot. */
export type UserPatternCheck = { ok: true; size: number } | { ok: false; problem: 'invalid' | 'too_complex' };

// Beyond this bound compiling alone would cost more than a request should; below it, the exact size decides.
const COMPILE_BOUND_MAX = USER_PATTERN_PROGRAM_MAX * 16;
const checked = new Map<string, UserPatternCheck>();
const CHECKED_MAX = 500;

function compile(pattern: string): RE2JS | null {
  try {
    return RE2JS.compile(pattern);
  } catch {
    return null;
  }
}

/**
 * Whether RE2 compiles a user's pattern within the budget (USER_PATTERN_PROGRAM_MAX), and its size.
 * Patterns are few and stored (validators), so verdicts are remembered: a request pays nothing to
 * learn again that a stored pattern cannot run.
 */
export function checkUserPattern(pattern: string): UserPatternCheck {
  const known = checked.get(pattern);
  if (known) return known;
  let verdict: UserPatternCheck;
  if (userPatternSizeBound(pattern) > COMPILE_BOUND_MAX) verdict = { ok: false, problem: 'too_complex' };
  else {
    const re = compile(pattern);
    if (!re) verdict = { ok: false, problem: 'invalid' };
    else if (re.programSize() > USER_PATTERN_PROGRAM_MAX) verdict = { ok: false, problem: 'too_complex' };
    else verdict = { ok: true, size: re.programSize() };
  }
  if (checked.size >= CHECKED_MAX) checked.clear();
  checked.set(pattern, verdict);
  return verdict;
}

/**
 * Whether the whole of `value` matches a user's pattern, on RE2's linear-time engine;
 * false for a pattern that does not compile or is over the budget, which never runs. Callers bound
 * the input too (USER_PATTERN_WORK_MAX).
 */
export function matchesUserPattern(pattern: string, value: string): boolean {
  if (!checkUserPattern(pattern).ok) return false;
  return compile(pattern)?.matches(value) ?? false;
}

export const VALIDATOR_INVALID = fieldMessage('custom_field_validator_invalid');
export const VALIDATOR_TOO_COMPLEX = fieldMessage('custom_field_validator_too_complex', { max: USER_PATTERN_PROGRAM_MAX });

/**
 * Why a custom field's validator cannot be used, or null. Patterns are written by admins and run on
 * visitors' input, in the widget and in the api, by the same linear-time engine (RE2), so the form,
 * the widget and the api agree on what a pattern means.
 */
export function livechatValidatorProblem(pattern: string): string | null {
  if (pattern.length > LIVECHAT_VALIDATOR_MAX) return `The validator must have at most ${LIVECHAT_VALIDATOR_MAX} characters`;
  const check = checkUserPattern(pattern);
  if (check.ok) return null;
  return check.problem === 'invalid' ? VALIDATOR_INVALID : VALIDATOR_TOO_COMPLEX;
}
