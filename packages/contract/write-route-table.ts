// Writes src/route-table.ts from `routes` (src/index.ts): run `pnpm --filter @atende/contract
// route-table` after adding, renaming or moving a route. The typechecker (and route-table.test.ts)
// fail while the two differ.
import { writeFileSync } from 'node:fs';
import { routes } from './src/index';

const lines = Object.entries(routes).map(([name, def]) => {
  const fields = [`method: '${def.method}'`, `path: '${def.path}'`];
  if ('bodyEncoding' in def && def.bodyEncoding) fields.push(`bodyEncoding: '${def.bodyEncoding}'`);
  return `  ${name}: { ${fields.join(', ')} },`;
});

const text = `// Written by write-route-table.ts from \`routes\` (index.ts): do not edit by hand.
import type { RouteAddress, Routes } from './index';

/**
 * Every route's method, path and body encoding, without its schemas: the web app's client is built
 * from this, so its first load neither downloads nor runs the contract's zod schemas
 * item 1). The type below holds each entry to its route in \`routes\`.
 */
export const routeTable = {
${lines.join('\n')}
} as const satisfies { [K in keyof Routes]: RouteAddress<Routes[K]> };
`;
writeFileSync(new URL('./src/route-table.ts', import.meta.url), text);
process.stdout.write(`src/route-table.ts: ${lines.length} routes\n`);
