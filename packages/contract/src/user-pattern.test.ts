import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import {
  checkUserPattern,
  livechatValidatorProblem,
  matchesUserPattern,
  USER_PATTERN_PROGRAM_MAX,
  userPatternSizeBound,
  VALIDATOR_TOO_COMPLEX,
} from './user-pattern';

// Pieces of RE2 syntax, glued at random (a fixed seed) into patterns to hold the bound against RE2 itself.
const PIECES = [
  'a',
  'b',
  '.',
  '\\d',
  '\\pL',
  '\\p{Greek}',
  '[a-z]',
  '[^!]',
  '[]a]',
  '[[:alpha:]]',
  '\\x41',
  '\\x{263a}',
  '\\Qa.b\\E',
  '^',
  '$',
  '\\b',
  '(?i)',
  '(?i:',
  'ç',
  '😀',
  '(',
  '(?:',
  '(?P<n>',
  '(?<m>',
  ')',
  '|',
  '*',
  '+',
  '?',
  '*?',
  '{2}',
  '{0,3}',
  '{3,}',
  '{1,20}?',
  '{0,99}',
  '{0,999}',
  '{10,500}',
  '\\.',
  '{x',
  '\\123',
];

describe('user pattern budget', () => {
  it("bounds RE2's program size from the text alone, never below what RE2 compiles", () => {
    let seed = 29;
    const next = (n: number) => {
      seed = (seed * 48271) % 2147483647;
      return seed % n;
    };
    let compiled = 0;
    for (let k = 0; k < 20000; k++) {
      const pattern = Array.from({ length: 1 + next(12) }, () => PIECES[next(PIECES.length)]).join('');
      let size: number;
      try {
        size = RE2JS.compile(pattern).programSize();
      } catch {
        continue;
      }
      compiled += 1;
      expect(userPatternSizeBound(pattern), pattern).toBeGreaterThanOrEqual(size);
    }
    expect(compiled).toBeGreaterThan(3000);
  });

  it("refuses the issue's 177-character pattern (about 32,000 instructions) and keeps everyday formats", () => {
    const heavy = `${'[^!]{0,999}'.repeat(16)}b`;
    expect(checkUserPattern(heavy)).toEqual({ ok: false, problem: 'too_complex' });
    expect(livechatValidatorProblem(heavy)).toBe(VALIDATOR_TOO_COMPLEX);
    expect(VALIDATOR_TOO_COMPLEX).toContain(`at most ${USER_PATTERN_PROGRAM_MAX} instructions`);
    expect(matchesUserPattern(heavy, 'b')).toBe(false);
    // Just over and just under the budget, measured exactly by RE2.
    expect(checkUserPattern('.{0,501}')).toEqual({ ok: false, problem: 'too_complex' });
    expect(checkUserPattern('.{0,499}')).toMatchObject({ ok: true });
    for (const everyday of [
      '\\d{3}\\.\\d{3}\\.\\d{3}-\\d{2}',
      '[A-Za-z ]{2,60}',
      '^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}$',
      '\\d{4,12}',
    ]) {
      expect(livechatValidatorProblem(everyday), everyday).toBeNull();
    }
    expect(matchesUserPattern('\\d{4,12}', '12345')).toBe(true);
  });

  it('refuses a pattern far over the budget without compiling it', () => {
    // 185 literal characters repeated up to 999 times: about 185,000 instructions, 90 ms to compile.
    const huge = `(?:${'x'.repeat(185)}){0,999}`;
    const started = performance.now();
    expect(checkUserPattern(huge)).toEqual({ ok: false, problem: 'too_complex' });
    expect(performance.now() - started).toBeLessThan(40);
  });
});
