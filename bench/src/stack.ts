import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { API_NODE_FLAGS, NODE_FLAGS, processEnv } from '../../scripts/node-flags.mjs';
import { ensureDatabase, runMigrations, createDb } from '@atende/db';
import { seedDemo } from '@atende/simulators/demo';

export { NODE_FLAGS, processEnv };
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A fresh database for one benchmark, migrated and seeded with the demo tenant. */
export async function freshDatabase(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: 'postgresql://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
  const url = `postgresql://postgres@127.0.0.1:5432/${name}`;
  await ensureDatabase(url);
  await runMigrations(url);
  const db = createDb(url);
  await seedDemo(db);
  await db.$disconnect();
  return url;
}

/** Starts the built api (apps/api/dist/server.js; run `pnpm build` first) and waits for its health check. */
export interface ApiProbe {
  seconds: number;
  event_loop_delay: { p50_ms: number; p99_ms: number; max_ms: number };
  gc: { count: number; total_ms: number; max_ms: number };
  /** Request received to response finished, inside the api. */
  http_requests: { count: number; p50_ms: number; p99_ms: number; max_ms: number };
  cpu_ms: number;
  rss_mb: number;
  heap_used_mb: number;
  external_mb: number;
  array_buffers_mb: number;
}

export interface StartedApi {
  url: string;
  /** PORT and PUBLIC_URL as the api got them: a worker started beside it needs the same. */
  publicEnv: { PORT: string; PUBLIC_URL: string };
  child: ChildProcess;
  stop(): Promise<void>;
  /** What the api saw of itself (event-loop delay, GC, memory) since the previous call (bench/src/probe.mjs). */
  probe(): Promise<ApiProbe>;
}

/** The machine's 1-minute load average: other work on the shared cores skews every figure. */
export const loadAverage = (): number => +loadavg()[0]!.toFixed(2);

export async function startApi(env: Record<string, string>, defaultPort: number): Promise<StartedApi> {
  // BENCH_API_PORT moves the api off its default port (several stacks share one machine).
  const port = Number(process.env.BENCH_API_PORT ?? defaultPort);
  // BENCH_API_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the api alone.
  const nodeArgs = (process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const probeFile = join(mkdtempSync(join(tmpdir(), 'atende-probe-')), 'probe.json');
  const url = `http://127.0.0.1:${port}`;
  const publicEnv = { PORT: String(port), PUBLIC_URL: url };
  const child = spawn(
    process.execPath,
    ['--import', `${ROOT}bench/src/probe.mjs`, ...API_NODE_FLAGS, ...nodeArgs, `${ROOT}apps/api/dist/server.js`],
    {
      cwd: ROOT,
      env: processEnv({
        ...process.env,
        LOG_LEVEL: 'warn',
        ...publicEnv,
        HOST: '127.0.0.1',
        WEB_DIST: '/nonexistent',
        BENCH_PROBE_FILE: probeFile,
        ...env,
      }),
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // starting
    }
    if (Date.now() > deadline) throw new Error('api did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  async function probe(): Promise<ApiProbe> {
    rmSync(probeFile, { force: true });
    child.kill('SIGUSR2');
    const until = Date.now() + 10_000;
    while (!existsSync(probeFile)) {
      if (Date.now() > until) throw new Error('the api probe did not answer');
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 20));
    return JSON.parse(readFileSync(probeFile, 'utf8')) as ApiProbe;
  }
  await probe();
  return {
    url,
    publicEnv,
    child,
    probe,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface StartedWorker {
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts the built worker (apps/worker/dist/worker.js) beside `api`, on the same database and Redis
 * prefix (`env`, as the api got it): contact messages, the custom API channel's included, are only
 * queued by the api and stored by the worker (queue channel-inbound).
 */
export function startWorker(env: Record<string, string>, api: StartedApi): StartedWorker {
  const child = spawn(process.execPath, [...NODE_FLAGS, `${ROOT}apps/worker/dist/worker.js`], {
    cwd: ROOT,
    env: processEnv({ ...process.env, LOG_LEVEL: 'warn', ...env, ...api.publicEnv }),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return {
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export async function login(url: string, email: string, password = 'atende123'): Promise<string> {
  const res = await fetch(`${url}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password }).toString(),
  });
  if (!res.ok) throw new Error(`login ${email}: ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function summarize(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    count: s.length,
    p50_ms: round(percentile(s, 50)),
    p90_ms: round(percentile(s, 90)),
    p99_ms: round(percentile(s, 99)),
    max_ms: round(s[s.length - 1] ?? NaN),
  };
}

/** Prints the figures and writes them to bench/results/<name>.json. */
export function report(name: string, figures: unknown): void {
  // Every result carries the load average at its end: the cores are shared, so figures need it beside them.
  const result =
    figures && typeof figures === 'object' && !Array.isArray(figures) ? { ...figures, load_average_1m: loadAverage() } : figures;
  mkdirSync(`${ROOT}bench/results`, { recursive: true });
  writeFileSync(`${ROOT}bench/results/${name}.json`, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`${name}: ${JSON.stringify(result, null, 2)}\n`);
}
