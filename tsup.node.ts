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
    // Dynamic imports (the S3 SDK, exceljs, Prisma's query compiler) become chunks of their own, read only
    // when first used: a process holds the source text of what it loaded, not of the whole bundle.
    splitting: true,
    banner: {
      js: "import { createRequire as __atendeCreateRequire } from 'node:module'; const require = __atendeCreateRequire(import.meta.url);",
    },
  };
}
