import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Options } from 'tsup';
import { latin1Comments } from './scripts/latin1-comments';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * Prisma's generated client imports its query compiler as a module holding the WebAssembly as one
 * base64 string. Bundled as it is, a process keeps that string twice for its whole life (the
 * chunk's source text and the module's export, 2.2 MB each). Here the compiler is written beside
 * the bundle as a plain .wasm file at build time, and the client's loader reads that file (issue 13
 * item 2). The build fails if the generated loader no longer looks as expected.
 */
const prismaWasmFile: EsbuildPlugin = {
  name: 'prisma-wasm-file',
  setup(build) {
    const outDir = build.initialOptions.outdir ?? 'dist';
    build.onLoad({ filter: /generated[\\/]prisma[\\/]internal[\\/]class\.ts$/ }, async (args) => {
      const source = readFileSync(args.path, 'utf8');
      const loader = /getQueryCompilerWasmModule: async \(\) => \{\s*const \{ wasm \} = await import\("([^"]+\.wasm-base64\.mjs)"\)\s*return await decodeBase64AsWasm\(wasm\)\s*\}/;
      const found = loader.exec(source);
      if (!found) return { errors: [{ text: `prisma-wasm-file: the query compiler loader of ${args.path} changed; update tsup.node.ts` }] };
      const resolved = await build.resolve(found[1]!, { resolveDir: dirname(args.path), kind: 'dynamic-import' });
      if (resolved.errors.length) return { errors: resolved.errors };
      const { wasm } = (await import(resolved.path)) as { wasm: string };
      const file = basename(resolved.path).replace(/\.wasm-base64\.mjs$/, '.wasm');
      mkdirSync(outDir, { recursive: true });
      writeFileSync(join(outDir, file), Buffer.from(wasm, 'base64'));
      // Every chunk of the bundle sits in outDir, beside the file.
      const reading = `getQueryCompilerWasmModule: async () => {
    const { readFile } = await import('node:fs/promises')
    return new WebAssembly.Module(await readFile(new URL('./${file}', import.meta.url)))
  }`;
      return { contents: source.replace(loader, reading), loader: 'ts' };
    });
  },
};

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
    esbuildPlugins: [prismaWasmFile],
    // Bundled libraries' comments may hold characters outside Latin-1, which double the memory V8
    // keeps for a script's source: they are replaced (scripts/latin1-comments.ts).
    async onSuccess() {
      for (const file of readdirSync('dist').filter((f) => f.endsWith('.js'))) {
        const path = join('dist', file);
        const source = readFileSync(path, 'utf8');
        const { code, remaining } = latin1Comments(source);
        if (code !== source) writeFileSync(path, code);
        if (remaining) console.warn(`${path}: ${remaining} characters outside Latin-1 in code: V8 holds this file at two bytes per character`);
      }
    },
    banner: { js: "import { createRequire as __atendeCreateRequire } from 'node:module'; const require = __atendeCreateRequire(import.meta.url);" },
  };
}
