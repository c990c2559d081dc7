// `pnpm bench readme`: rewrites the generated part of docs/performance.md, between the markers
// <!-- bench-summary:start --> and <!-- bench-summary:end -->, from bench/results/summary.json (written by
// `pnpm bench all`), as short tables. Without the markers it changes nothing and says so.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { END, renderPerformance, replaceBetweenMarkers, START } from './performance-doc';
import { ROOT } from './stack';
import type { Summary } from './summary';

const docPath = join(ROOT, 'docs/performance.md');
const summary = JSON.parse(readFileSync(join(ROOT, 'bench/results/summary.json'), 'utf8')) as Summary;
const updated = replaceBetweenMarkers(readFileSync(docPath, 'utf8'), renderPerformance(summary));
if (updated === null) {
  console.error(`docs/performance.md has no ${START} … ${END} section: nothing changed`);
  process.exit(1);
}
writeFileSync(docPath, updated);
console.log('docs/performance.md: benchmark summary updated');
