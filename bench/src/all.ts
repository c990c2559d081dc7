// `pnpm bench all`: runs every benchmark of bench/src in sequence and writes one
// summary, bench/results/summary.md and summary.json, that docs/performance.md's generated section is
// regenerated from (`pnpm bench readme`). A benchmark is any file here that calls report(); new
// ones join without an edit here, and one that fails is recorded as failed while the rest still run.
//
// Sizes are small by default so the whole run takes minutes; BENCH_SCALE=full keeps each
// benchmark's own (full) sizes, and any BENCH_* variable set by the caller wins over both.
// BENCH_ONLY=a,b runs only those; BENCH_TIMEOUT_S (default 900) bounds each one.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, loadAverage } from './stack';
import { renderSummary, type BenchOutcome } from './summary';

const SMALL: Record<string, Record<string, string>> = {
  'admin-reports': { BENCH_CONVERSATIONS: '10000', BENCH_MESSAGES_PER_CONVERSATION: '5', BENCH_REQUESTS: '20' },
  campaigns: { BENCH_ROWS: '20000', BENCH_SEND: '2000', BENCH_LIMITED: '600' },
  'conversation-list': { BENCH_CONVERSATIONS: '100000', BENCH_REQUESTS: '200' },
  'message-fanout': { BENCH_AGENTS: '1000', BENCH_SECONDS: '5' },
  'message-send': { BENCH_SENDS: '1000' },
  sockets: { BENCH_SOCKETS: '2000' },
  'webhook-inbound': { BENCH_MESSAGES: '200' },
  'workstation-web': { BENCH_LOADS: '3', BENCH_MESSAGES: '20' },
};

const SRC = join(ROOT, 'bench/src');
const RESULTS = join(ROOT, 'bench/results');

/** Every benchmark file: it reports figures. Helpers (stack, this runner, the summary) do not. */
export function discoverBenches(): string[] {
  return readdirSync(SRC)
    .filter((f) => f.endsWith('.ts') && !['all.ts', 'summary.ts', 'stack.ts', 'readme.ts'].includes(f))
    .filter((f) => /\breport\(\s*['"`]/.test(readFileSync(join(SRC, f), 'utf8')))
    .map((f) => f.slice(0, -3))
    .sort();
}

function run(name: string, env: Record<string, string>, timeoutS: number): Promise<{ exit: number | null; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(join(ROOT, 'bench/node_modules/.bin/tsx'), [join(SRC, `${name}.ts`)], {
      cwd: join(ROOT, 'bench'),
      env: { ...process.env, ...env },
      stdio: 'inherit',
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
    }, timeoutS * 1000);
    child.once('exit', (exit) => {
      clearTimeout(timer);
      resolve({ exit, timedOut });
    });
  });
}

/** Results a benchmark wrote during its run (most write bench/results/<name>.json; some more than one). */
function resultsSince(startedMs: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of readdirSync(RESULTS)) {
    if (!f.endsWith('.json') || f.startsWith('summary')) continue;
    if (statSync(join(RESULTS, f)).mtimeMs < startedMs) continue;
    out[f.slice(0, -5)] = JSON.parse(readFileSync(join(RESULTS, f), 'utf8'));
  }
  return out;
}

const only = process.env.BENCH_ONLY?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const full = process.env.BENCH_SCALE === 'full';
const timeoutS = Number(process.env.BENCH_TIMEOUT_S ?? 900);
const found = discoverBenches();
const benches = found.filter((b) => !only || only.includes(b));
for (const name of only ?? []) if (!found.includes(name)) console.warn(`bench all: no benchmark named ${name} in bench/src`);
mkdirSync(RESULTS, { recursive: true });
const outcomes: BenchOutcome[] = [];
for (const name of benches) {
  // The caller's own BENCH_* settings win over the small sizes.
  const small = full ? {} : Object.fromEntries(Object.entries(SMALL[name] ?? {}).filter(([k]) => process.env[k] === undefined));
  const overridden = Object.fromEntries(
    Object.keys(SMALL[name] ?? {}).flatMap((k) => (process.env[k] !== undefined ? [[k, process.env[k]!]] : [])),
  );
  const started = Date.now();
  const loadBefore = loadAverage();
  console.log(
    `\n=== bench ${name} ${Object.entries(small)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')} (load ${loadBefore})`,
  );
  const { exit, timedOut } = await run(name, small, timeoutS);
  outcomes.push({
    name,
    status: timedOut ? 'timed out' : exit === 0 ? 'ok' : `failed (exit ${exit})`,
    seconds: Math.round((Date.now() - started) / 100) / 10,
    load_average_before: loadBefore,
    load_average_after: loadAverage(),
    settings: { ...small, ...overridden },
    results: resultsSince(started),
  });
}
const summary = { generated_at: new Date().toISOString(), scale: full ? 'full' : 'small', benches: outcomes };
writeFileSync(join(RESULTS, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
writeFileSync(join(RESULTS, 'summary.md'), renderSummary(summary));
console.log(`\n${renderSummary(summary)}`);
process.exitCode = outcomes.every((o) => o.status === 'ok') ? 0 : 1;
