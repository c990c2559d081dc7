// Message fan-out latency: N agents connected by socket.io, contacts writing
// through the custom API channel at a fixed rate; p50/p99 from the inbound POST to the assigned
// agent's new-message event, at 100 and 1,000 connected agents. The api queues each message (202)
// and the worker started beside it stores it and announces it, so the figure includes that hop.
// Run `pnpm build` first.
import { spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { freshDatabase, loadAverage, report, startApi, startWorker, summarize } from './stack';

const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SIZES = (process.env.BENCH_AGENTS ?? '100,1000').split(',').map(Number);
const SECRET = 'bench-secret-bench-secret-bench-secret-0123';
const TOKEN = 'bench-channel-token';

async function run(agents: number) {
  const url = await freshDatabase('atende_bench_fanout');
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
  // N agents, each logged in with one answered conversation with its own contact.
  const users = await db.query<{ id: number; uuid: string }>(
    `INSERT INTO "User" (uuid, "tenantId", "workspaceId", username, email, "passwordHash", roles, "isLogged", state, "loggedAt", "updatedAt")
     SELECT gen_random_uuid(), $1, $2, 'Bench agent ' || g, 'bench' || g || '@bench.dev', $3, ARRAY['agent']::"Role"[], true, 'online', now(), now()
     FROM generate_series(1, $4) g RETURNING id, uuid`,
    [base.tenant, base.ws, base.hash, agents],
  );
  const tokens: string[] = [];
  const phones: string[] = [];
  for (const [i, u] of users.rows.entries()) {
    const sid = randomUUID();
    await db.query(
      `INSERT INTO "UserSession" (id, "tenantId", "userId", roles, "expiresAt") VALUES ($1, $2, $3, ARRAY['agent']::"Role"[], now() + interval '1 hour')`,
      [sid, base.tenant, u.id],
    );
    tokens.push(
      jwt.sign({ sid, sub: u.uuid, tid: base.tenant }, SECRET, {
        algorithm: 'HS256',
        audience: 'atende-web',
        issuer: 'atende-api',
        expiresIn: 3600,
      }),
    );
    const phone = `+55119${String(10_000_000 + i).padStart(8, '0')}`;
    phones.push(phone);
    const contact = randomUUID();
    await db.query(`INSERT INTO "Contact" (id, "tenantId", name, "phoneNumber", "updatedAt") VALUES ($1, $2, $3, $4, now())`, [
      contact,
      base.tenant,
      `Bench ${i}`,
      phone,
    ]);
    await db.query(
      `INSERT INTO "ContactIdentity" (id, "tenantId", "channelId", identifier, "contactId") VALUES (gen_random_uuid(), $1, $2, $3, $4)`,
      [base.tenant, channel, phone, contact],
    );
    const ticket = (
      await db.query<{ n: number }>(
        `UPDATE "Tenant" SET "ticketCounter" = "ticketCounter" + 1 WHERE id = $1 RETURNING "ticketCounter" AS n`,
        [base.tenant],
      )
    ).rows[0]!.n;
    await db.query(
      `INSERT INTO "Conversation" (id, "tenantId", "workspaceId", "contactId", "channelId", "userId", state, "ticketNumber", "contactInteracted", "timeAnswer", "updatedAt")
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, 'answered', $6, true, now(), now())`,
      [base.tenant, base.ws, contact, channel, u.id, ticket],
    );
  }
  // The setup's writes (a new database, 1,000 users, contacts and conversations) are on disk before
  // the measurement: otherwise their write-back lands in the measured phase and stalls the WAL's
  // fsync, which every commit waits for (the machine's disk, not the product).
  await db.query('CHECKPOINT');
  spawnSync('sync');
  await db.end();

  const env = { DATABASE_URL: url, REDIS_PREFIX: `atende-bench-${agents}:`, JWT_SECRET: SECRET };
  const api = await startApi(env, 3211);
  // Stores the queued messages and sends their new-message events.
  const worker = startWorker(env, api);
  // Each measured message: when it was posted (ms into the measured phase), how long its answer and
  // its delivery took. BENCH_TRACE=<file> writes them out, to line a slow second up with other tools.
  const sent = new Map<string, { t0: number; at_ms: number; answered_ms?: number; delivered_ms?: number }>();
  const latencies: number[] = [];
  // When the slow deliveries happened: per second of the measured phase, how many took over 50 ms.
  let measuredFrom = Infinity;
  const slowBySecond: number[] = Array.from({ length: SECONDS }, () => 0);
  // Where a slow delivery's time went: the POST's own answer (the api and Postgres), and this
  // process's event loop (1,000 socket clients and the sender share it).
  const answered: number[] = [];
  const clientLoop = monitorEventLoopDelay({ resolution: 5 });
  const sockets: Socket[] = [];
  // Warm-up messages posted and not yet delivered to their agent.
  const warmedUp = new Set<string>();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  try {
    for (let i = 0; i < tokens.length; i += 100) {
      await Promise.all(
        tokens.slice(i, i + 100).map(
          (token) =>
            new Promise<void>((resolve, reject) => {
              const s = io(api.url, { path: '/socket', auth: { token }, transports: ['websocket'], reconnection: false });
              s.on('new-message', (payload: { message: { message: string } }) => {
                warmedUp.delete(payload.message.message);
                const entry = sent.get(payload.message.message);
                if (entry === undefined) return;
                const t0 = entry.t0;
                const latency = performance.now() - t0;
                entry.delivered_ms = +latency.toFixed(2);
                latencies.push(latency);
                const second = Math.floor((t0 - measuredFrom) / 1000);
                if (latency > 50 && second >= 0 && second < SECONDS) slowBySecond[second]! += 1;
              });
              s.once('connect', () => resolve());
              s.once('connect_error', reject);
              sockets.push(s);
            }),
        ),
      );
    }
    // The contact system's POST over node:http with kept-alive connections: fetch cost this process
    // (which also holds the 1,000 sockets that time the deliveries) about three times the CPU.
    const target = new URL(`${api.url}/api/v1/channels/droz/${channel}/messages`);
    const post = (phone: string, text: string) =>
      new Promise<{ status: number }>((resolve, reject) => {
        const body = JSON.stringify({ contact: { phone }, message: { id: text, content: text } });
        const req = http.request(
          target,
          {
            method: 'POST',
            agent,
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${TOKEN}` },
          },
          (res) => {
            res.resume(); // the answer's body is not read, only drained
            res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    // Warm-up (JIT, connection pools, the worker's queue), not measured; its messages are delivered
    // before the measured phase starts, so no backlog of them is measured.
    for (let w = 0; w < 30; w++) {
      const batch = Array.from({ length: 10 }, (_, k) => `warmup-${w}-${k}`);
      for (const text of batch) warmedUp.add(text);
      await Promise.all(batch.map((text, k) => post(phones[(w * 10 + k) % phones.length]!, text)));
    }
    const warmDeadline = Date.now() + 60_000;
    while (warmedUp.size > 0) {
      if (Date.now() > warmDeadline) throw new Error(`${warmedUp.size} warm-up messages not delivered within 60 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const total = RATE * SECONDS;
    const errors: number[] = [];
    await api.probe(); // starts the api's event-loop and GC figures at the measured phase
    const loadBefore = loadAverage();
    clientLoop.enable();
    const start = performance.now();
    measuredFrom = start;
    const measuredAt = new Date().toISOString(); // wall clock, to line the seconds up with other tools' samples
    const inflight: Promise<void>[] = [];
    for (let n = 0; n < total; n++) {
      const due = start + (n * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const text = `bench-${n}-${randomUUID()}`;
      const phone = phones[n % phones.length]!;
      const t0 = performance.now();
      const entry: { t0: number; at_ms: number; answered_ms?: number } = { t0, at_ms: +(t0 - start).toFixed(2) };
      sent.set(text, entry);
      inflight.push(
        post(phone, text).then(
          (r) => {
            entry.answered_ms = +(performance.now() - t0).toFixed(2);
            answered.push(entry.answered_ms);
            if (r.status !== 202) errors.push(r.status);
          },
          () => void errors.push(0),
        ),
      );
    }
    await Promise.all(inflight);
    const sendSeconds = (performance.now() - start) / 1000;
    const deadline = Date.now() + 15_000;
    while (latencies.length < total - errors.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    clientLoop.disable();
    if (process.env.BENCH_TRACE)
      writeFileSync(process.env.BENCH_TRACE, JSON.stringify([...sent.values()].filter((m) => m.t0 >= start).map(({ t0: _, ...m }) => m)));
    const probe = await api.probe();
    return {
      connected_agents: agents,
      target_rate_per_s: RATE,
      achieved_rate_per_s: +(total / sendSeconds).toFixed(1),
      messages: total,
      delivered: latencies.length,
      http_errors: errors.length,
      post_to_new_message: summarize(latencies),
      measured_from: measuredAt,
      over_50_ms_by_second: slowBySecond,
      post_answered: summarize(answered),
      bench_event_loop_delay: {
        p50_ms: +(clientLoop.percentile(50) / 1e6).toFixed(2),
        p99_ms: +(clientLoop.percentile(99) / 1e6).toFixed(2),
        max_ms: +(clientLoop.max / 1e6).toFixed(2),
      },
      api_event_loop_delay: probe.event_loop_delay,
      api_gc: probe.gc,
      api_http_requests: probe.http_requests,
      api_cpu_ms: probe.cpu_ms,
      api_rss_mb: probe.rss_mb,
      load_average_before: loadBefore,
      load_average_after: loadAverage(),
    };
  } finally {
    agent.destroy();
    for (const s of sockets) s.disconnect();
    await worker.stop();
    await api.stop();
  }
}

const results = [];
for (const size of SIZES) results.push(await run(size));
report('message-fanout', { results });
