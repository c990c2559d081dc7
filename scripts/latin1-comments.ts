import { parse } from 'acorn';

const OUTSIDE_LATIN1 = /[^\u0000-\u00ff]/g;
const HAS_OUTSIDE_LATIN1 = /[^\u0000-\u00ff]/;
const DASHES = /[\u2010-\u2015\u2212]/;

/**
 * V8 holds a script's source text for the life of the process, at one byte per character when every
 * character is Latin-1 and at two bytes otherwise: a single "—" in a comment of a bundled library
 * doubles the memory of a whole 2 MB bundle (issue 13 item 2). This replaces the characters outside
 * Latin-1 that sit in comments (dashes by "-", the rest by "?"), one UTF-16 unit for one, so every
 * offset and the source map stay as they were. Code (strings, templates, regular expressions) is
 * never touched; `remaining` counts what is left outside comments.
 */
export function latin1Comments(code: string): { code: string; remaining: number } {
  if (!HAS_OUTSIDE_LATIN1.test(code)) return { code, remaining: 0 };
  const comments: [number, number][] = [];
  parse(code, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true, onComment: (_block, _text, start, end) => void comments.push([start, end]) });
  let out = '';
  let at = 0;
  for (const [start, end] of comments) {
    out += code.slice(at, start) + code.slice(start, end).replace(OUTSIDE_LATIN1, (c) => (DASHES.test(c) ? '-' : '?'));
    at = end;
  }
  out += code.slice(at);
  return { code: out, remaining: out.match(OUTSIDE_LATIN1)?.length ?? 0 };
}
