// Many websocket clients on one api process: N agents, each with its own session,
// connected by socket.io; reports the api's RSS idle, with all connected, and per socket, then the
// latency of one broadcast (the tenant's `waiting-queue` count, announced when a contact's message is
// stored) to every client, timed from the custom API channel's POST: the api queues the message and
// the worker started beside it stores it, so the figure includes that hop. Run `pnpm build` first.
// BENCH_SOCKETS (default 10,000) sets N.
// Memory: the api's RSS is read from /proc every 250 ms for the whole run. The connect storm leaves
// garbage that V8 collects and returns over the following seconds, so the figure held against the
// budget is the settled one (the median of the readings over the last BENCH_SOCKETS_WINDOW_MS of a
// BENCH_SOCKETS_SETTLE_MS wait with every client connected and idle); the peak is reported beside it.
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { freshDatabase, loadAverage, report, startApi, startWorker, summarize } from './stack';

const CLIENTS = Number(process.env.BENCH_SOCKETS ?? 10_000);
const BATCH = Number(process.env.BENCH_SOCKETS_BATCH ?? 200);
const BUDGET_MB = 350;
const SETTLE_MS = Number(process.env.BENCH_SOCKETS_SETTLE_MS ?? 45_000);
const WINDOW_MS = Number(process.env.BENCH_SOCKETS_WINDOW_MS ?? 5_000);
const SECRET = 'bench-secret-bench-secret-bench-secret-0123';
const TOKEN = 'bench-channel-token';

const url = await freshDatabase('atende_bench_sockets');
const db = new pg.Client({ connectionString: url });
await db.connect();
const base = (
  await db.query<{ tenant: string; ws: string; hash: string }>(
    `SELECT t.id AS tenant, w.id AS ws, u."passwordHash" AS hash FROM "Tenant" t JOIN "Workspace" w ON w."tenantId" = t.id JOIN "User" u ON u."tenantId" = t.id AND u.email = 'agent@demo.atende.dev'`,
  )
).rows[0]!;
const channel = randomUUID();
await db.query(
  `INSERT INTO "Channel" (id, "tenantId", "workspaceId", name, type, "inboundTokenHash", "updatedAt") VALUES ($1, $2, $3, 'Bench', 'custom', $4, now())`,
  [channel, base.tenant, base.ws, createHash('sha256').update(TOKEN).digest('hex')],
);
// N agents and one session each, set-based (the socket middleware resolves every session in the database).
const sessions = await db.query<{ sid: string; uuid: string }>(
  `WITH u AS (
     INSERT INTO "User" (uuid, "tenantId", "workspaceId", username, email, "passwordHash", roles, "isLogged", state, "loggedAt", "updatedAt")
     SELECT gen_random_uuid(), $1, $2, 'Socket agent ' || g, 'socket' || g || '@bench.dev', $3, ARRAY['agent']::"Role"[], true, 'online', now(), now()
     FROM generate_series(1, $4) g RETURNING id, uuid)
   , s AS (
     INSERT INTO "UserSession" (id, "tenantId", "userId", roles, "expiresAt")
     SELECT gen_random_uuid(), $1, u.id, ARRAY['agent']::"Role"[], now() + interval '2 hours' FROM u
     RETURNING id, "userId")
   SELECT s.id AS sid, u.uuid FROM s JOIN u ON u.id = s."userId"`,
  [base.tenant, base.ws, base.hash, CLIENTS],
);
await db.end();
const tokens = sessions.rows.map((s) =>
  jwt.sign({ sid: s.sid, sub: s.uuid, tid: base.tenant }, SECRET, {
    algorithm: 'HS256',
    audience: 'atende-web',
    issuer: 'atende-api',
    expiresIn: 7200,
  }),
);

const env = { DATABASE_URL: url, REDIS_PREFIX: 'atende-bench-sockets:', JWT_SECRET: SECRET };
const api = await startApi(env, 3212);
// The custom channel's message is stored (and the queue count announced) by the worker.
const worker = startWorker(env, api);
const sockets: Socket[] = [];
const readings: { at: number; mb: number }[] = [];
const rssMb = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${api.child.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024);
const sampler = setInterval(() => readings.push({ at: Date.now(), mb: rssMb() }), 250);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
try {
  await new Promise((r) => setTimeout(r, 2000));
  const idle = await api.probe();
  const connectStarted = performance.now();
  let arrivals: number[] = [];
  let broadcastAt = 0;
  for (let i = 0; i < tokens.length; i += BATCH) {
    await Promise.all(
      tokens.slice(i, i + BATCH).map(
        (token) =>
          new Promise<void>((resolve, reject) => {
            const s = io(api.url, { path: '/socket', auth: { token }, transports: ['websocket'], reconnection: false, timeout: 60_000 });
            s.on('waiting-queue', () => {
              if (broadcastAt) arrivals.push(performance.now() - broadcastAt);
            });
            s.once('connect', () => resolve());
            s.once('connect_error', reject);
            sockets.push(s);
          }),
      ),
    );
  }
  const connectSeconds = (performance.now() - connectStarted) / 1000;
  // Let the api settle (session lookups done, garbage of the connect storm collected) before reading its memory.
  const settleStarted = Date.now();
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const connected = await api.probe();
  const settledMb = median(readings.filter((r) => r.at >= settleStarted + SETTLE_MS - WINDOW_MS).map((r) => r.mb));
  if (process.env.BENCH_HEAP_SNAPSHOT) {
    // With BENCH_API_NODE_ARGS="--heapsnapshot-signal=SIGUSR1": what the connected sockets hold, for DevTools.
    api.child.kill('SIGUSR1');
    await new Promise((r) => setTimeout(r, Number(process.env.BENCH_HEAP_SNAPSHOT) * 1000));
  }

  arrivals = [];
  broadcastAt = performance.now();
  const res = await fetch(`${api.url}/api/v1/channels/droz/${channel}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ contact: { phone: '+5511999990000' }, message: { id: randomUUID(), content: 'Olá' } }),
  });
  if (res.status !== 202) throw new Error(`inbound: ${res.status}`);
  const deadline = Date.now() + 30_000;
  while (arrivals.length < CLIENTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const after = await api.probe();
  clearInterval(sampler);
  const peakMb = Math.max(...readings.map((r) => r.mb));
  report('sockets', {
    clients: CLIENTS,
    connected: sockets.filter((s) => s.connected).length,
    connect_seconds: +connectSeconds.toFixed(1),
    api_rss_idle_mb: idle.rss_mb,
    api_rss_connected_settled_mb: settledMb,
    api_rss_connected_at_settle_end_mb: connected.rss_mb,
    api_rss_peak_mb: peakMb,
    settle_ms: SETTLE_MS,
    api_rss_after_broadcast_mb: after.rss_mb,
    api_heap_used_idle_mb: idle.heap_used_mb,
    api_heap_used_connected_mb: connected.heap_used_mb,
    per_socket_kb: Math.round(((settledMb - idle.rss_mb) * 1024) / CLIENTS),
    rss_budget_mb: BUDGET_MB,
    within_budget: settledMb <= BUDGET_MB,
    broadcast_received: arrivals.length,
    broadcast_to_all: summarize(arrivals),
    api_event_loop_during_broadcast: after.event_loop_delay,
    load_average_at_broadcast: loadAverage(),
  });
  if (settledMb > BUDGET_MB) console.error(`sockets: api RSS ${settledMb} MB (settled) is over the ${BUDGET_MB} MB budget`);
} finally {
  clearInterval(sampler);
  for (const s of sockets) s.disconnect();
  await worker.stop();
  await api.stop();
}
