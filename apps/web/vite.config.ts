import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rollup } from 'vite';

type OutputChunk = Rollup.OutputChunk;

/** React and the router change rarely: their own chunk stays cached across web app releases. */
const VENDOR_CHUNKS: Record<string, RegExp> = {
  react: /node_modules\/(react|react-dom|scheduler)\//,
  // Apart from React: login.html (the sign-in form alone) has no router.
  router: /node_modules\/react-router\//,
  // Only the screens that read or write phone numbers load it.
  'phone-numbers': /node_modules\/libphonenumber-js\//,
};

/** The lazy modules the agent's screen renders on /app: the session layer, the app layout and the workstation. */
const WORKSTATION_ROOTS = [/\/src\/features\/layout\/Authenticated\.tsx$/, /\/src\/features\/layout\/AppLayout\.tsx$/, /\/src\/features\/workstation\/WorkstationPage\.tsx$/];

/**
 * Writes `app.html`: index.html plus a `modulepreload` (and stylesheet) link for every chunk the agent's
 * screen needs beyond the entry's own (issue 13 item 1). The api sends it for /app. Without it the
 * browser learns of those chunks only after the entry has downloaded and run (some 400 ms on a
 * 20 Mbit/s, 40 ms link), then fetches them six at a time; with it they load beside the entry.
 * Other pages keep index.html, so an admin's screens never fetch the agent's code.
 */
function workstationPage(): Plugin {
  return {
    name: 'atende-workstation-page',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (!html || html.type !== 'asset') return;
      const chunks = new Map(Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, c] as const] : [])));
      const closure = (from: OutputChunk[]) => {
        const seen = new Set<string>();
        const stack = from.map((c) => c.fileName);
        while (stack.length > 0) {
          const name = stack.pop()!;
          if (seen.has(name)) continue;
          seen.add(name);
          stack.push(...(chunks.get(name)?.imports ?? []));
        }
        return seen;
      };
      const entry = [...chunks.values()].filter((c) => c.isEntry && c.facadeModuleId?.endsWith('/index.html'));
      // The chunk holding each root module (Rollup may have put one into a shared chunk).
      const roots = WORKSTATION_ROOTS.map((root) => [...chunks.values()].find((c) => c.moduleIds.some((id) => root.test(id))));
      if (entry.length !== 1 || roots.some((c) => !c)) this.error(`app.html: the index entry or a workstation module (${WORKSTATION_ROOTS.join(', ')}) is not in the build`);
      const loaded = closure(entry);
      const needed = [...closure(roots as OutputChunk[])].filter((name) => !loaded.has(name));
      const css = new Set(needed.flatMap((name) => [...(chunks.get(name)?.viteMetadata?.importedCss ?? [])]));
      for (const name of loaded) for (const file of chunks.get(name)?.viteMetadata?.importedCss ?? []) css.delete(file);
      const links = [
        ...[...css].map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
        ...needed.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
      ];
      const source = String(html.source).replace('</head>', `  ${links.join('\n    ')}\n  </head>`);
      this.emitFile({ type: 'asset', fileName: 'app.html', source });
    },
  };
}

/** Files worth compressing once at build time (issue 13 item 1); the api serves them as sent. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|ico|webmanifest)$/;
const COMPRESS_MIN_BYTES = 512;

/**
 * Writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip -9) beside every compressible file
 * of the build, so the api (@fastify/static `preCompressed`) sends them without compressing per request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  const walk = (dir: string): string[] => readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]));
  return {
    name: 'atende-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      // A failed build wrote nothing: its own error is the one to show.
      if (!existsSync(outDir)) return;
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const body = readFileSync(file);
        if (body.length < COMPRESS_MIN_BYTES) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), workstationPage(), precompress()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    rollupOptions: {
      // Two pages: the app, and /login's sign-in form alone (issue 13 item 1), which loads the app
      // into the same page once signed in. The api sends login.html for /login.
      input: { index: fileURLToPath(new URL('index.html', import.meta.url)), login: fileURLToPath(new URL('login.html', import.meta.url)) },
      output: {
        manualChunks(id) {
          for (const [name, pattern] of Object.entries(VENDOR_CHUNKS)) if (pattern.test(id)) return name;
          return undefined;
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000', '/sso': 'http://127.0.0.1:3000', '/socket': { target: 'http://127.0.0.1:3000', ws: true } },
  },
});
