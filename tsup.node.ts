import type { Options } from 'tsup';

/**
 * One bundle per Node process (api, worker). Workspace packages are TypeScript sources: bundle
 * them; registry packages stay external. Bundled CommonJS dependencies (pg) call require(), so the
 * ESM bundle gets one.
 */
export function nodeBundle(entry: Record<string, string>): Options {
  return {
    entry,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    outDir: 'dist',
    clean: true,
    sourcemap: true,
    noExternal: [/^@atende\//],
    splitting: false,
    banner: { js: "import { createRequire as __atendeCreateRequire } from 'node:module'; const require = __atendeCreateRequire(import.meta.url);" },
  };
}
