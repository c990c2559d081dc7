import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

/** The chunk of the UI library modules the agent's screen adds to the entry's (uiChunks). */
const AGENT_UI_CHUNK = 'workstation-ui';

/** The lazy modules the agent's screen renders on /app: the session layer, the app layout and the workstation. */
const WORKSTATION_ROOTS = [
  /\/src\/features\/layout\/Authenticated\.tsx$/,
  /\/src\/features\/layout\/AppLayout\.tsx$/,
  /\/src\/features\/workstation\/WorkstationPage\.tsx$/,
];

/**
 * Writes `app.html`: index.html plus a `modulepreload` (and stylesheet) link for every chunk the agent's
 * screen needs beyond the entry's own. The api sends it for /app. Without it the
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
      if (entry.length !== 1 || roots.some((c) => !c))
        this.error(`app.html: the index entry or a workstation module (${WORKSTATION_ROOTS.join(', ')}) is not in the build`);
      const loaded = closure(entry);
      // The entry pages must not need the agent's UI chunk; if they do, uiChunks missed how they reach a
      // module, and the build says which (importer -> module) rather than ship a heavier sign-in page.
      const entryChunks = new Set([
        ...loaded,
        ...closure([...chunks.values()].filter((c) => c.isEntry && c.facadeModuleId?.endsWith('/login.html'))),
      ]);
      const agentUi = [...entryChunks].find((name) => chunks.get(name)?.name === AGENT_UI_CHUNK);
      if (agentUi) {
        const entryModules = new Set([...entryChunks].flatMap((name) => (name === agentUi ? [] : (chunks.get(name)?.moduleIds ?? []))));
        const short = (id: string) => id.replace(/.*\/node_modules\//, '');
        const pairs = chunks
          .get(agentUi)!
          .moduleIds.flatMap((id) =>
            (this.getModuleInfo(id)?.importers ?? []).filter((by) => entryModules.has(by)).map((by) => `${short(by)} -> ${short(id)}`),
          );
        this.error(`an entry page imports ${agentUi}: ${pairs.slice(0, 12).join('; ')}`);
      }
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

/**
 * The UI packages, imported through their root module, which only re-exports (`export { A } from
 * './a.mjs'`): a screen that imports `{ Menu }` needs the module behind `Menu`, not the hundreds of others.
 */
const UI_PACKAGES = ['@mantine/core', '@mantine/hooks', '@tabler/icons-react'];
/** Every module of the UI libraries (e.g. @mantine/notifications, which our code imports whole). */
const UI_SCOPE = /\/node_modules\/(@mantine\/[^/]+|@tabler\/icons-react)\//;

type ModuleGraph = {
  getModuleIds: () => IterableIterator<string>;
  getModuleInfo: (id: string) => { code: string | null; importedIds: readonly string[]; isEntry: boolean } | null;
};

/**
 * Manual chunks for the UI libraries: "ui" holds the modules the entries (the app
 * shell and the sign-in page) use, "workstation-ui" those the agent's screen adds. Left to Rollup,
 * the agent's part is cut into some forty chunks of a few hundred bytes each (Menu, Popover, Tooltip,
 * Avatar..., each shared with other screens in another way), and a browser fetches six at a time
 * over HTTP/1.1: a round trip per six before the conversation list can render. Every module a UI
 * module imports is placed too, as Rollup would otherwise pull it into the first manual chunk that
 * needs it. Other screens' components stay in Rollup's chunks.
 */
function uiChunks(graph: ModuleGraph): Map<string, string> {
  const info = (id: string) => graph.getModuleInfo(id);
  const ids = [...graph.getModuleIds()];
  const inNodeModules = (id: string) => id.includes('/node_modules/');
  // Each UI package's root module (the one with the most re-exports), the package's folder, and its
  // names -> the module files behind them.
  const exportsOf = new Map<string, Map<string, string>>();
  const roots = new Map<string, string>();
  const reexports = (id: string) => [...(info(id)?.code ?? '').matchAll(/export\s*\{([^}]*)\}\s*from\s*['"](\.[^'"]+)['"]/g)];
  for (const name of UI_PACKAGES) {
    const folder = `/node_modules/${name}/`;
    let root: { id: string; reexports: RegExpExecArray[] } | undefined;
    for (const id of ids) {
      if (!id.includes(folder)) continue;
      const found = reexports(id);
      if (!root || found.length > root.reexports.length) root = { id, reexports: found };
    }
    if (!root) continue;
    roots.set(root.id, root.id.slice(0, root.id.lastIndexOf(folder) + folder.length));
    const names = new Map<string, string>();
    for (const m of root.reexports) {
      for (const part of m[1]!.split(',')) {
        const as = part
          .trim()
          .split(/\s+as\s+/)
          .pop();
        if (as) names.set(as, join(dirname(root.id), m[2]!));
      }
    }
    exportsOf.set(name, names);
  }
  /**
   * What `from` needs of the UI packages: our modules are followed through their imports (not into
   * other libraries), a UI package's root through the names imported from it, and a UI module
   * through everything it imports.
   */
  const walk = (from: readonly string[]) => {
    const seen = new Set<string>();
    const needed = new Set<string>();
    const stack = [...from];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (seen.has(id) || id.startsWith('\0')) continue;
      seen.add(id);
      const ui = inNodeModules(id);
      if (ui) needed.add(id);
      for (const m of (info(id)?.code ?? '').matchAll(/import\s*\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g)) {
        const names = exportsOf.get(m[2]!);
        for (const part of names ? m[1]!.split(',') : []) {
          const file = names!.get(part.trim().split(/\s+as\s+/)[0]!);
          if (file) stack.push(file);
        }
      }
      for (const dep of info(id)?.importedIds ?? []) {
        const rootFolder = roots.get(dep);
        if (rootFolder) {
          // A root's re-exports of other packages (RemoveScroll from react-remove-scroll) run with it.
          stack.push(...(info(dep)?.importedIds ?? []).filter((other) => !other.startsWith(rootFolder)));
          continue;
        }
        if (ui || !inNodeModules(dep) || UI_SCOPE.test(dep)) stack.push(dep);
      }
    }
    return needed;
  };
  const entries = walk(ids.filter((id) => info(id)?.isEntry));
  const agent = walk(ids.filter((id) => WORKSTATION_ROOTS.some((root) => root.test(id))));
  const chunks = new Map<string, string>();
  for (const id of entries) chunks.set(id, 'ui');
  for (const id of agent) if (!entries.has(id)) chunks.set(id, AGENT_UI_CHUNK);
  // A package root imported by a module placed above would pull every module of the package that no
  // chunk claims (those only other screens use) into that chunk: they get one of their own.
  for (const id of roots.keys()) chunks.set(id, 'ui-more');
  return chunks;
}

/** Files worth compressing once at build time; the api serves them as sent. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|ico|webmanifest)$/;
const COMPRESS_MIN_BYTES = 512;

/**
 * Writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip -9) beside every compressible file
 * of the build, so the api (@fastify/static `preCompressed`) sends them without compressing per request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]));
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
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
        );
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

let ui: Map<string, string> | undefined;

export default defineConfig({
  plugins: [react(), workstationPage(), precompress()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    rollupOptions: {
      // Two pages: the app, and /login's sign-in form alone, which loads the app
      // into the same page once signed in. The api sends login.html for /login.
      input: { index: fileURLToPath(new URL('index.html', import.meta.url)), login: fileURLToPath(new URL('login.html', import.meta.url)) },
      output: {
        manualChunks(id, graph) {
          for (const [name, pattern] of Object.entries(VENDOR_CHUNKS)) if (pattern.test(id)) return name;
          ui ??= uiChunks(graph);
          return ui.get(id);
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000', '/sso': 'http://127.0.0.1:3000', '/socket': { target: 'http://127.0.0.1:3000', ws: true } },
  },
});
