import { describe, expect, it } from 'vitest';
import { latin1Comments } from './latin1-comments';

describe('latin1Comments', () => {
  it('replaces characters outside Latin-1 in comments only, keeping every offset', () => {
    const code = [
      '// Country code — or calling code 「ワ」',
      '/** ±0 stays: Latin-1 (é, §) is one byte already 😀 */',
      'const dash = "a — b"; // trailing ≡',
      'const re = /[—]/u; const t = `x ≠ y`;',
    ].join('\n');
    const { code: out, remaining } = latin1Comments(code);
    expect(out.length).toBe(code.length);
    expect(out.split('\n')[0]).toBe('// Country code - or calling code ???');
    expect(out.split('\n')[1]).toBe('/** ±0 stays: Latin-1 (é, §) is one byte already ?? */');
    // Code is left alone: the string, the regular expression and the template keep their characters.
    expect(out.split('\n')[2]).toBe('const dash = "a — b"; // trailing ?');
    expect(out.split('\n')[3]).toBe('const re = /[—]/u; const t = `x ≠ y`;');
    expect(remaining).toBe(3);
  });

  it('answers code that is Latin-1 already as it is, without parsing it', () => {
    const code = 'const a = "ação"; // §4 ±';
    expect(latin1Comments(code)).toEqual({ code, remaining: 0 });
  });
});
