// Every English phrase the app translates has a Portuguese entry: the literal keys of
// t('...') calls in src/, and the label tables whose entries reach t() indirectly.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROLE_LABELS } from '@atende/core';
import { FEATURE_LABELS } from '../src/features/tenants/featureLabels';
import { pt } from '../src/i18n/pt';

const src = new URL('../src/', import.meta.url).pathname;
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : [];
  });

const LITERAL_KEY = /\b(?:t|phrase)\(\s*(['"])((?:\\.|(?!\1).)*)\1/g;
// Phrases handed to components that translate them (titles of sections, hub links, empty texts).
const PROP_KEY = /(?:\b(?:title|empty)(?:=|:\s*)|\bsection\(\s*)(['"])((?:\\.|(?!\1).)*)\1/g;
const missing = new Map<string, string>();
for (const file of files(src)) {
  if (file.endsWith('i18n/pt.ts') || file.includes('/i18n/pt/')) continue;
  const text = readFileSync(file, 'utf8');
  for (const pattern of [LITERAL_KEY, PROP_KEY]) {
    for (const match of text.matchAll(pattern)) {
      const key = (match[2] ?? '').replace(/\\(['"\\])/g, '$1');
      if (key && !(key in pt)) missing.set(key, file.slice(src.length));
    }
  }
}
for (const label of [...Object.values(FEATURE_LABELS), ...Object.values(ROLE_LABELS)]) {
  if (label && !(label in pt)) missing.set(label, 'label tables');
}
if (missing.size > 0) {
  for (const [key, file] of missing) console.error(`missing Portuguese for '${key}' (${file})`);
  process.exit(1);
}
console.log(`i18n: every phrase has a Portuguese entry (${Object.keys(pt).length} entries)`);
