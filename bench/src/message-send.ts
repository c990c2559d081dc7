// Agent send throughput: POST /api/v1/conversations/{id}/messages by 100 agents, each in their own
// answered conversation on a custom channel (so every send also writes its delivery job to the
// outbox), closed loop with BENCH_CONCURRENCY clients: p50/p99 and sends per second the api
// sustains. No worker runs: delivery is not part of the figure. Run `pnpm build` first.
import { createHash, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { freshDatabase, report, startApi, summarize } from './stack';

const AGENTS = Number(process.env.BENCH_AGENTS ?? 100);
const SENDS = Number(process.env.BENCH_SENDS ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const SECRET = 'bench-secret-bench-secret-bench-secret-0123';

const url = await freshDatabase('atende_bench_send');
const db = new pg.Client({ connectionString: url });
await db.connect();
const base = (
  await db.query<{ tenant: string; ws: string; hash: string }>(
    `SELECT t.id AS tenant, w.id AS ws, u."passwordHash" AS hash FROM "Tenant" t JOIN "Workspace" w ON w."tenantId" = t.id JOIN "User" u ON u."tenantId" = t.id AND u.email = 'agent@demo.atende.dev'`,
  )
).rows[0]!;
const channel = randomUUID();
await db.query(
  `INSERT INTO "Channel" (id, "tenantId", "workspaceId", name, type, "inboundTokenHash", config, "updatedAt") VALUES ($1, $2, $3, 'Bench', 'custom', $4, '{"webhook_url":"http://127.0.0.1:9/hook"}', now())`,
  [channel, base.tenant, base.ws, createHash('sha256').update('bench-channel-token').digest('hex')],
);
const users = await db.query<{ id: number; uuid: string }>(
  `INSERT INTO "User" (uuid, "tenantId", "workspaceId", username, email, "passwordHash", roles, "isLogged", state, "loggedAt", "updatedAt")
   SELECT gen_random_uuid(), $1, $2, 'Bench agent ' || g, 'bench' || g || '@bench.dev', $3, ARRAY['agent']::"Role"[], true, 'online', now(), now()
   FROM generate_series(1, $4) g RETURNING id, uuid`,
  [base.tenant, base.ws, base.hash, AGENTS],
);
const agents: { token: string; conversation: string }[] = [];
for (const [i, u] of users.rows.entries()) {
  const sid = randomUUID();
  await db.query(
    `INSERT INTO "UserSession" (id, "tenantId", "userId", roles, "expiresAt") VALUES ($1, $2, $3, ARRAY['agent']::"Role"[], now() + interval '1 hour')`,
    [sid, base.tenant, u.id],
  );
  const contact = randomUUID();
  await db.query(`INSERT INTO "Contact" (id, "tenantId", name, "phoneNumber", "updatedAt") VALUES ($1, $2, $3, $4, now())`, [
    contact,
    base.tenant,
    `Bench ${i}`,
    `+55119${String(10_000_000 + i).padStart(8, '0')}`,
  ]);
  const ticket = (
    await db.query<{ n: number }>(
      `UPDATE "Tenant" SET "ticketCounter" = "ticketCounter" + 1 WHERE id = $1 RETURNING "ticketCounter" AS n`,
      [base.tenant],
    )
  ).rows[0]!.n;
  const conversation = randomUUID();
  await db.query(
    `INSERT INTO "Conversation" (id, "tenantId", "workspaceId", "contactId", "channelId", "userId", state, "ticketNumber", "contactInteracted", "timeAnswer", "updatedAt")
     VALUES ($1, $2, $3, $4, $5, $6, 'answered', $7, true, now(), now())`,
    [conversation, base.tenant, base.ws, contact, channel, u.id, ticket],
  );
  agents.push({
    token: jwt.sign({ sid, sub: u.uuid, tid: base.tenant }, SECRET, {
      algorithm: 'HS256',
      audience: 'atende-web',
      issuer: 'atende-api',
      expiresIn: 3600,
    }),
    conversation,
  });
}
await db.end();

const api = await startApi({ DATABASE_URL: url, REDIS_PREFIX: 'atende-bench-send:', JWT_SECRET: SECRET }, 3212);
try {
  let errors = 0;
  const send = async (n: number) => {
    const agent = agents[n % agents.length]!;
    const res = await fetch(`${api.url}/api/v1/conversations/${agent.conversation}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${agent.token}` },
      body: JSON.stringify({ uuid: randomUUID(), content: `bench message ${n}` }),
    });
    await res.arrayBuffer();
    if (res.status !== 201) errors++;
  };
  // Warm-up (JIT, connection pools), not measured.
  for (let w = 0; w < 20; w++) await Promise.all(Array.from({ length: 10 }, (_, k) => send(w * 10 + k)));
  const samples: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < SENDS) {
        const n = next++;
        const t0 = performance.now();
        await send(n);
        samples.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  report('message-send', {
    agents: AGENTS,
    concurrency: CONCURRENCY,
    sends: SENDS,
    http_errors: errors,
    sends_per_s: +(SENDS / seconds).toFixed(1),
    post_latency: summarize(samples),
  });
} finally {
  await api.stop();
}
