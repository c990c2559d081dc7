import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VALIDATOR_TOO_COMPLEX } from '@atende/contract';
import { VALIDATORS_OVER_BUDGET } from '@atende/core';
import { describe, expect, it } from 'vitest';
import { pt } from './pt';

/**
 * Issue 14 item 9, nothing in English in a Portuguese UI: every literal message the server can answer
 * in error_message (AppError texts, validation messages of the contract and shared rules) has a
 * Portuguese entry, so a new server message without one fails here rather than in front of a user.
 */
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const SOURCES = ['apps/api/src', 'packages/contract/src', 'packages/conversations/src', 'packages/core/src'];
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.ts$/.test(name) && !/\.test\.ts$|testing\.ts$/.test(name) ? [path] : [];
  });
const TEXT = `'((?:[^'\\\\]|\\\\.)+)'`;
const PATTERNS = [
  new RegExp(`new AppError\\(\\s*'[a-z_]+',\\s*${TEXT}`, 'g'),
  new RegExp(`\\bfail\\(\\s*'[^']*',\\s*${TEXT}`, 'g'),
  new RegExp(`\\bmessage:\\s*${TEXT}`, 'g'),
  new RegExp(`\\.(?:min|max|regex|email|url|uuid)\\([^)]*?${TEXT}\\s*\\)`, 'g'),
];
/** The message tables (REPORT_MESSAGES, START_MESSAGES, ...): each value is a message. */
const TABLE = /const [A-Z_]*(?:MESSAGES|ERRORS)[A-Z_]* = \{([\s\S]*?)\n\}/g;
const TABLE_VALUE = new RegExp(`:\\s*${TEXT}`, 'g');
/** Not messages: a field kind the contact form names. */
const NOT_MESSAGES = new Set(['email']);

describe('server messages have Portuguese', () => {
  it('finds the messages it checks', () => {
    const found = new Map<string, string>();
    for (const dir of SOURCES) {
      for (const file of files(join(root, dir))) {
        const text = readFileSync(file, 'utf8');
        const keep = (message: string) => found.set(message.replace(/\\'/g, "'"), file.slice(root.length));
        for (const pattern of PATTERNS) for (const m of text.matchAll(pattern)) keep(m[1]!);
        for (const table of text.matchAll(TABLE)) for (const m of table[1]!.matchAll(TABLE_VALUE)) keep(m[1]!);
      }
    }
    // The scan itself works: a few known messages are among those found.
    expect(found.get('Campaign not found')).toBe('apps/api/src/modules/campaigns/service.ts');
    expect(found.get('Cannot load report for an end date in future.')).toBe('packages/contract/src/reports.ts');
    expect(found.size).toBeGreaterThan(200);
    const missing = [...found].filter(([message]) => !NOT_MESSAGES.has(message) && !(message in pt)).map(([message, file]) => `${file}: ${message}`);
    expect(missing).toEqual([]);
  });
  // Messages built from limits (template literals) are not found by the scan: named here.
  it('has Portuguese for the messages worded from limits', () => {
    for (const message of [VALIDATOR_TOO_COMPLEX, VALIDATORS_OVER_BUDGET]) expect(pt, message).toHaveProperty([message]);
  });
});
