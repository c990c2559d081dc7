// Idle processes: the built api and worker started on a fresh demo database, left
// alone, then their resident memory read from /proc every 250 ms over a window (an idle process
// still runs timers and collects garbage, so one reading lands anywhere in a GC cycle): the median is
// held against the budgets (api ≤ 150 MB, worker ≤ 120 MB) and the highest reading is reported
// beside it. The bench exits non-zero when over (CI does not run benches). Run `pnpm build` first.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freshDatabase, NODE_FLAGS, processEnv, report, ROOT, startApi } from './stack';

const SETTLE_MS = Number(process.env.BENCH_IDLE_SETTLE_MS ?? 15_000);
const WINDOW_MS = Number(process.env.BENCH_IDLE_WINDOW_MS ?? 10_000);
const BUDGET_MB = { api: Number(process.env.BENCH_IDLE_API_MB ?? 150), worker: Number(process.env.BENCH_IDLE_WORKER_MB ?? 120) };
const PREFIX = 'atende-bench-idle:';

const rssMb = (pid: number) => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024);

const databaseUrl = await freshDatabase('atende_bench_idle');
const env = { DATABASE_URL: databaseUrl, REDIS_PREFIX: PREFIX };
const api = await startApi(env, 3470);
const worker = spawn(process.execPath, [...NODE_FLAGS, `${ROOT}apps/worker/dist/worker.js`], {
  cwd: ROOT,
  env: processEnv({ ...process.env, LOG_LEVEL: 'warn', ...env, ...api.publicEnv }),
  stdio: ['ignore', 'inherit', 'inherit'],
});
try {
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const samples = { api: [] as number[], worker: [] as number[] };
  for (const until = Date.now() + WINDOW_MS; Date.now() < until;) {
    if (worker.exitCode !== null) throw new Error(`the worker exited with ${worker.exitCode}`);
    samples.api.push(rssMb(api.child.pid!));
    samples.worker.push(rssMb(worker.pid!));
    await new Promise((r) => setTimeout(r, 250));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const figures = {
    api: { rss_mb: median(samples.api), rss_max_mb: Math.max(...samples.api), budget_mb: BUDGET_MB.api },
    worker: { rss_mb: median(samples.worker), rss_max_mb: Math.max(...samples.worker), budget_mb: BUDGET_MB.worker },
    settle_ms: SETTLE_MS,
    window_ms: WINDOW_MS,
    samples: samples.api.length,
  };
  const over = (['api', 'worker'] as const).filter((p) => figures[p].rss_mb > figures[p].budget_mb);
  report('idle', {
    ...figures,
    api: { ...figures.api, within: !over.includes('api') },
    worker: { ...figures.worker, within: !over.includes('worker') },
  });
  if (over.length) {
    process.stderr.write(
      `idle: over the memory budget: ${over.map((p) => `${p} ${figures[p].rss_mb} MB > ${figures[p].budget_mb} MB`).join(', ')}\n`,
    );
    process.exitCode = 1;
  }
} finally {
  worker.kill('SIGTERM');
  await api.stop();
}
