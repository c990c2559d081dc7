import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_STATUS, FIELD_MESSAGE_CODES, FIELD_MESSAGES, type ErrorCode, type FieldMessageCode } from '@atende/contract';
import { describe, expect, it } from 'vitest';
import { ERROR_TEXTS } from '../api/errors';
import { pt } from './pt';
import { ptErrors } from './pt/errors';

/**
 * The web words every failure by its code: each code has English and Portuguese wording with the same
 * {{params}}, and every param a wording uses is one the server sends with that code.
 */
const codes = Object.keys(ERROR_STATUS) as ErrorCode[];
const isFieldMessageCode = (code: string): code is FieldMessageCode => Object.hasOwn(FIELD_MESSAGES, code);
const paramsOf = (text: string): string[] => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]!).sort();

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const SOURCES = ['apps/api/src', 'packages/contract/src', 'packages/conversations/src', 'packages/core/src', 'packages/channels/src'];
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
const source = SOURCES.flatMap((dir) => files(join(root, dir)).map((file) => readFileSync(file, 'utf8'))).join('\n');

describe('error catalogue', () => {
  it('words every code in English and Portuguese', () => {
    for (const code of codes) {
      expect(ERROR_TEXTS[code], code).toMatch(/\S/);
      expect(ptErrors[code], code).toMatch(/\S/);
      // The dictionary the UI translates with gives this code's Portuguese for its English phrase.
      expect(pt[ERROR_TEXTS[code]], code).toBe(ptErrors[code]);
    }
  });

  it("words the schemas' own messages (contract field-messages.ts) by code, in the catalogue's English", () => {
    const texts: string[] = Object.values(FIELD_MESSAGES);
    expect(new Set(texts).size, 'one code per text').toBe(texts.length);
    for (const code of FIELD_MESSAGE_CODES) {
      expect(ERROR_STATUS[code], code).toBe(400);
      // The same English as the schema, so a message a form checks in the browser finds its wording too.
      expect(ERROR_TEXTS[code], code).toBe(FIELD_MESSAGES[code]);
      expect(ptErrors[code], code).toMatch(/\S/);
    }
  });

  it('uses the same params in both languages', () => {
    for (const code of codes) expect(paramsOf(ptErrors[code]), code).toEqual(paramsOf(ERROR_TEXTS[code]));
  });

  it('uses only params the server sends with the code', () => {
    // Where each code is raised: the text after each mention of it, up to the end of the statement.
    const sent = (code: ErrorCode, param: string): boolean => {
      const named = new RegExp(`(?:\\b${param}:|[{,]\\s*${param}\\s*[,}])`);
      const at = [...source.matchAll(new RegExp(`'${code}'`, 'g'))].map((m) => m.index);
      return at.some((i) => named.test(source.slice(i, source.indexOf(';', i))));
    };
    // The schema's field codes take their params from zod's issue (apps/api/src/plugins/errors.ts fieldProblem).
    const schemaParams = /const params = defined\(\{([^}]*)\}\)/.exec(source)?.[1] ?? '';
    expect(schemaParams).toContain('min:');
    const unsent: string[] = [];
    for (const code of codes) {
      for (const param of paramsOf(ERROR_TEXTS[code])) {
        // A schema message's values come in its own text (fieldMessage fills them; the api reads them back).
        const ok = isFieldMessageCode(code)
          ? paramsOf(FIELD_MESSAGES[code]).includes(param)
          : code.startsWith('field_')
            ? schemaParams.includes(`${param}:`)
            : sent(code, param);
        if (!ok) unsent.push(`${code}: {{${param}}}`);
      }
    }
    expect(unsent).toEqual([]);
  });

  it('finds what it checks', () => {
    expect(source).toContain("new AppError('bot_name_taken'");
    expect(paramsOf(ERROR_TEXTS.agent_at_capacity)).toEqual(['capacity']);
  });
});
