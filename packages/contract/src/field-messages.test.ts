import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from './error-status';
import { FIELD_MESSAGE_CODES, FIELD_MESSAGES, fieldCodeOfMessage, fieldMessage } from './field-messages';
import { routes } from './index';

/** A text with every `{{name}}` given a sample value. */
const sample = (text: string): { text: string; params: Record<string, number> } => {
  const params: Record<string, number> = {};
  const filled = text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String((params[name] = 40 + Object.keys(params).length)));
  return { text: filled, params };
};

describe('the catalogue of schema messages', () => {
  it('gives every code a 400 of ERROR_STATUS and a text of its own', () => {
    for (const code of FIELD_MESSAGE_CODES) expect(ERROR_STATUS[code], code).toBe(400);
    const texts: string[] = Object.values(FIELD_MESSAGES);
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('finds the code and the values of every text, and nothing for other words', () => {
    for (const code of FIELD_MESSAGE_CODES) {
      const { text, params } = sample(FIELD_MESSAGES[code]);
      expect(fieldCodeOfMessage(text), code).toEqual(Object.keys(params).length ? { code, params } : { code });
    }
    expect(fieldCodeOfMessage('Invalid input: expected string, received undefined')).toBeUndefined();
    expect(fieldCodeOfMessage('invalid state')).toBeUndefined();
    expect(fieldCodeOfMessage(' characters maximum')).toBeUndefined();
  });

  it('fills the values in', () => {
    expect(fieldMessage('state_invalid')).toBe('Invalid state');
    expect(fieldMessage('field_too_long', { max: 120 })).toBe('120 characters maximum');
    expect(fieldMessage('field_max_characters', { max: 2000 })).toBe('Máximo de 2000 caracteres');
    // @ts-expect-error a text with a value needs it
    expect(fieldMessage('field_too_long')).toBe('{{max}} characters maximum');
    // @ts-expect-error a text without values takes none
    expect(fieldMessage('state_invalid', { max: 1 })).toBe('Invalid state');
  });

  it('is what the schemas say', () => {
    const state = routes.updateSubscriber.body.safeParse({ state: 'bogus' });
    expect(state.error?.issues.map((i) => i.message)).toEqual([FIELD_MESSAGES.state_invalid]);
    const inbound = routes.updateUser.body.safeParse({ password: 'nova senha 9', old_password: 'x', state: 'offline' });
    expect(inbound.error?.issues.map((i) => fieldCodeOfMessage(i.message))).toEqual([{ code: 'password_or_state' }]);
  });

  it('holds every message of the schemas and the shared rules: none is written in them', () => {
    // A message written where a schema or a rule is: `message: '...'`, `error: '...'`, or a check's text argument.
    const written =
      /(?:\b(?:message|error):\s*['"`][^'"`]|\.(?:min|max|length|regex|int|refine|email|url|uuid|nonempty|gte|lte|gt|lt)\((?:[^()]|\([^()]*\))*,\s*['"`])/;
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const dirs = ['contract/src', 'channels/src', 'core/src'];
    // Not field messages: the refusals of accepting a session, failures with codes of their own (AppError).
    const other = (path: string) => path.endsWith('field-messages.ts') || path.endsWith(join('core', 'src', 'distribution.ts'));
    const offenders: string[] = [];
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) return walk(path);
        return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) && !other(path) ? [path] : [];
      });
    for (const file of dirs.flatMap((dir) => walk(join(root, dir)))) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (written.test(line)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });
});
