// After the build: fails if a production bundle (apps/api/dist, apps/worker/dist, apps/web/dist when
// built) holds simulator or demo code. Those live in packages/simulators, a development dependency that
// eslint forbids production code to import; this catches what a lint rule cannot see (a dynamic import,
// a relative path, a bundler setting). Plain Node, no dependencies.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What only simulator or demo code holds: the simulators' control routes and the names they export. */
export const SIMULATOR_MARKERS = [
  { name: 'a simulator control route (/_simulator/...)', pattern: /\/_simulator\// },
  { name: 'a simulator start function', pattern: /\bstart(?:WhatsApp|Telegram|Meta|Email|CustomChannel)Simulator\b/ },
  { name: 'the demo seed', pattern: /\bseedDemo\w*/ },
];
/** A source map naming a file of packages/simulators among its sources. */
const SIMULATOR_SOURCE = /(?:^|\/)packages\/simulators\//;

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Every file of the bundles under `dirs` that holds simulator or demo code, with what it holds. */
export function simulatorCodeIn(dirs) {
  const found = [];
  for (const dir of dirs) {
    for (const file of filesUnder(dir)) {
      if (/\.(?:m?js|cjs)$/.test(file)) {
        const text = readFileSync(file, 'utf8');
        for (const marker of SIMULATOR_MARKERS) if (marker.pattern.test(text)) found.push({ file, what: marker.name });
      } else if (file.endsWith('.map')) {
        const sources = JSON.parse(readFileSync(file, 'utf8')).sources ?? [];
        const source = sources.find((s) => SIMULATOR_SOURCE.test(s));
        if (source) found.push({ file, what: `built from ${source}` });
      }
    }
  }
  return found;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const required = ['apps/api/dist', 'apps/worker/dist'];
  const missing = required.filter((dir) => !existsSync(join(root, dir)));
  if (missing.length > 0) {
    console.error(`check-bundles: ${missing.join(', ')} not built; run pnpm build first.`);
    process.exit(1);
  }
  const dirs = [...required, 'apps/web/dist'].filter((dir) => existsSync(join(root, dir))).map((dir) => join(root, dir));
  const found = simulatorCodeIn(dirs);
  if (found.length > 0) {
    console.error(
      'check-bundles: production bundles hold simulator or demo code (packages/simulators is for tests, benches and scripts only):',
    );
    for (const { file, what } of found) console.error(`  ${relative(root, file)}: ${what}`);
    process.exit(1);
  }
  console.log(`check-bundles: no simulator or demo code in ${dirs.map((dir) => relative(root, dir)).join(', ')}`);
}
