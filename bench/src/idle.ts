// Idle processes (issue 13 item 2): the built api and worker started on a fresh demo database, left
// alone, then their resident memory read from /proc. Budgets: api ≤ 150 MB, worker ≤ 120 MB; the
// bench exits non-zero when over (CI does not run benches). Run `pnpm build` first.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freshDatabase, NODE_FLAGS, report, ROOT, startApi } from './stack';

const SETTLE_MS = Number(process.env.BENCH_IDLE_SETTLE_MS ?? 15_000);
const BUDGET_MB = { api: Number(process.env.BENCH_IDLE_API_MB ?? 150), worker: Number(process.env.BENCH_IDLE_WORKER_MB ?? 120) };
const PREFIX = 'atende-bench-idle:';

const rssMb = (pid: number) => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024);

const databaseUrl = await freshDatabase('atende_bench_idle');
const env = { DATABASE_URL: databaseUrl, REDIS_PREFIX: PREFIX };
const api = await startApi(env, 3470);
const worker = spawn(process.execPath, [...NODE_FLAGS, `${ROOT}apps/worker/dist/worker.js`], {
  cwd: ROOT,
  env: { ...process.env, LOG_LEVEL: 'warn', ...env },
  stdio: ['ignore', 'inherit', 'inherit'],
});
try {
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  if (worker.exitCode !== null) throw new Error(`the worker exited with ${worker.exitCode}`);
  const figures = {
    api: { rss_mb: rssMb(api.child.pid!), budget_mb: BUDGET_MB.api },
    worker: { rss_mb: rssMb(worker.pid!), budget_mb: BUDGET_MB.worker },
    settle_ms: SETTLE_MS,
  };
  const over = (['api', 'worker'] as const).filter((p) => figures[p].rss_mb > figures[p].budget_mb);
  report('idle', { ...figures, api: { ...figures.api, within: !over.includes('api') }, worker: { ...figures.worker, within: !over.includes('worker') } });
  if (over.length) {
    process.stderr.write(`idle: over the memory budget: ${over.map((p) => `${p} ${figures[p].rss_mb} MB > ${figures[p].budget_mb} MB`).join(', ')}\n`);
    process.exitCode = 1;
  }
} finally {
  worker.kill('SIGTERM');
  await api.stop();
}
