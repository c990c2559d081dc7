import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** React and the router change rarely: their own chunk stays cached across web app releases. */
const VENDOR_CHUNKS: Record<string, RegExp> = {
  react: /node_modules\/(react|react-dom|scheduler)\//,
  // Apart from React: login.html (the sign-in form alone) has no router.
  router: /node_modules\/react-router\//,
  // Only the screens that read or write phone numbers load it.
  'phone-numbers': /node_modules\/libphonenumber-js\//,
};

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
  plugins: [react(), precompress()],
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
