import { defineConfig } from 'tsup';

// Workspace packages are TypeScript sources: bundle them; registry packages stay external.
export default defineConfig({
  entry: { server: 'src/server.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  noExternal: [/^@atende\//],
  splitting: false,
  // Bundled CommonJS dependencies (pg) call require(): give the ESM bundle one.
  banner: { js: "import { createRequire as __atendeCreateRequire } from 'node:module'; const require = __atendeCreateRequire(import.meta.url);" },
});
