// `pnpm bench readme`: puts bench/results/summary.md (from `pnpm bench all`) into README.md between
// the markers <!-- bench-summary:start --> and <!-- bench-summary:end -->, replacing what was there.
// Without the markers it changes nothing and says so.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './stack';

const START = '<!-- bench-summary:start -->';
const END = '<!-- bench-summary:end -->';
const readmePath = join(ROOT, 'README.md');
const readme = readFileSync(readmePath, 'utf8');
const summary = readFileSync(join(ROOT, 'bench/results/summary.md'), 'utf8').trimEnd();
const from = readme.indexOf(START);
const to = readme.indexOf(END);
if (from < 0 || to < from) {
  console.error(`README.md has no ${START} … ${END} section: nothing changed`);
  process.exit(1);
}
writeFileSync(readmePath, `${readme.slice(0, from + START.length)}\n${summary}\n${readme.slice(to)}`);
console.log('README.md: benchmark summary updated');
