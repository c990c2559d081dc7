// Admin report latency (the goal: a tenant with a million messages still answers in well under
// a second). Seeds 100,000 conversations spread over the last 30 days with answer and close times,
// 1,000,000 messages (bulk INSERT ... SELECT over generate_series) and 30,000 sign-ins, then times
// every report over a 7-day and a 30-day range (p50 / p95 / p99), with GET /users/me as the baseline
// of the same run. Run `pnpm build` first, then `pnpm bench admin-reports`.
import pg from 'pg';
import { freshDatabase, login, percentile, report, startApi, summarize } from './stack';

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 100_000);
const MESSAGES_PER_CONVERSATION = Number(process.env.BENCH_MESSAGES_PER_CONVERSATION ?? 10);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 40);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2);

const url = await freshDatabase('atende_bench_reports');
const client = new pg.Client({ connectionString: url });
await client.connect();
const { rows } = await client.query<{ tenant: string; ws: string; agents: number[]; sector: string }>(`
  SELECT t.id AS tenant, w.id AS ws, s.id AS sector,
         ARRAY(SELECT u.id FROM "User" u WHERE u."tenantId" = t.id AND 'agent' = ANY(u.roles::text[]) ORDER BY u.id) AS agents
  FROM "Tenant" t JOIN "Workspace" w ON w."tenantId" = t.id JOIN "Sector" s ON s."tenantId" = t.id LIMIT 1`);
const base = rows[0]!;
const channel = (
  await client.query<{ id: string }>(
    `INSERT INTO "Channel" (id, "tenantId", "workspaceId", name, type, "updatedAt") VALUES (gen_random_uuid(), $1, $2, 'Bench', 'custom', now()) RETURNING id`,
    [base.tenant, base.ws],
  )
).rows[0]!.id;
const started = Date.now();
await client.query(
  `INSERT INTO "Contact" (id, "tenantId", name, "phoneNumber", "updatedAt")
   SELECT gen_random_uuid(), $1, 'Bench contact ' || g, '+55119' || lpad(g::text, 8, '0'), now() FROM generate_series(1, $2) g`,
  [base.tenant, Math.ceil(CONVERSATIONS / 4)],
);
// Every conversation starts somewhere in the last 30 days; 90% were answered 1-10 min later, 80% closed.
await client.query(
  `WITH c AS (SELECT id, row_number() OVER () AS rn FROM "Contact" WHERE "tenantId" = $1),
        n AS (SELECT COALESCE(MAX("ticketNumber"), 0) AS m FROM "Conversation" WHERE "tenantId" = $1),
        g AS (SELECT g, now() - (random() * interval '30 days') AS at FROM generate_series(1, $6) g)
   INSERT INTO "Conversation" (id, "tenantId", "workspaceId", "contactId", "channelId", "sectorId", "userId", state, "ticketNumber", "timeJoin", "createdAt", "updatedAt", "timeAnswer", "closedAt")
   SELECT gen_random_uuid(), $1, $2, c.id, $3, $4,
          CASE WHEN g.g % 10 <> 0 THEN ($5::int[])[1 + g.g % array_length($5::int[], 1)] END,
          (CASE WHEN g.g % 10 = 0 THEN 'waiting' WHEN g.g % 10 = 1 THEN 'answered' ELSE 'closed' END)::"ConversationState",
          n.m + g.g, g.at, g.at, now(),
          CASE WHEN g.g % 10 <> 0 THEN g.at + (1 + g.g % 10) * interval '1 minute' END,
          CASE WHEN g.g % 10 > 1 THEN g.at + (15 + g.g % 30) * interval '1 minute' END
   FROM g CROSS JOIN n JOIN c ON c.rn = 1 + (g.g % (SELECT COUNT(*) FROM c))`,
  [base.tenant, base.ws, channel, base.sector, base.agents, CONVERSATIONS],
);
await client.query(
  `INSERT INTO "Message" (id, "tenantId", "conversationId", author, "userId", content, tags, state, "createdAt", "updatedAt")
   SELECT gen_random_uuid(), c."tenantId", c.id,
          (CASE WHEN k % 2 = 0 THEN 'CONTACT' ELSE 'USER' END)::"MessageAuthor",
          CASE WHEN k % 2 = 1 THEN c."userId" END, 'message ' || k, ARRAY[]::text[], 'sent'::"MessageState",
          c."createdAt" + k * interval '30 seconds', now()
   FROM "Conversation" c CROSS JOIN generate_series(1, $2) k WHERE c."tenantId" = $1`,
  [base.tenant, MESSAGES_PER_CONVERSATION],
);
// Sign-ins and sign-outs of the workspace's users over the 30 days (login history).
await client.query(
  `INSERT INTO "LoginHistory" (id, "tenantId", "userId", event, ip, at)
   SELECT gen_random_uuid(), $1, ($2::int[])[1 + g % array_length($2::int[], 1)], CASE WHEN g % 2 = 0 THEN 'login' ELSE 'logout' END, '10.0.0.1',
          now() - (random() * interval '30 days')
   FROM generate_series(1, 30000) g`,
  [base.tenant, base.agents],
);
await client.query('VACUUM ANALYZE');
const counts = (
  await client.query<{ conversations: string; messages: string }>(
    `SELECT (SELECT COUNT(*) FROM "Conversation")::text AS conversations, (SELECT COUNT(*) FROM "Message")::text AS messages`,
  )
).rows[0]!;
await client.end();
const seedSeconds = (Date.now() - started) / 1000;

const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);
const api = await startApi({ DATABASE_URL: url, REDIS_PREFIX: 'atende-bench-reports:' }, 3220);
try {
  const manager = await login(api.url, 'manager@demo.atende.dev');
  async function measure(path: string): Promise<ReturnType<typeof summarize> & { p95_ms: number }> {
    const samples: number[] = [];
    let next = 0;
    for (let i = 0; i < 3; i++) await (await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${manager}` } })).arrayBuffer();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < REQUESTS) {
          next++;
          const t0 = performance.now();
          const res = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${manager}` } });
          await res.arrayBuffer();
          if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
          samples.push(performance.now() - t0);
        }
      }),
    );
    const sorted = [...samples].sort((a, b) => a - b);
    return { ...summarize(samples), p95_ms: Math.round(percentile(sorted, 95) * 100) / 100 };
  }
  const baseline = await measure('/api/v1/users/me');
  const results: Record<string, unknown> = {
    conversations: Number(counts.conversations),
    messages: Number(counts.messages),
    seed_seconds: seedSeconds,
    requests_per_case: REQUESTS,
    concurrency: CONCURRENCY,
    baseline_users_me: baseline,
  };
  const cases = {
    agents_productivity: '/api/v1/reports/agents/productivity',
    session_rate_by_day: '/api/v1/reports/summary/conversations?report_type=trend',
    session_rate_by_agent: '/api/v1/reports/summary/conversations?report_type=agent',
    trends_by_hour: '/api/v1/reports/trends/conversations?report_type=hour',
    session_metrics: '/api/v1/reports/metrics/conversations',
    chat_history: '/api/v1/reports/chat_history',
    login_history: '/api/v1/reports/login_history',
  };
  for (const [span, start] of [
    ['7_days', day(6)],
    ['30_days', day(29)],
  ] as const) {
    for (const [name, path] of Object.entries(cases)) {
      const sep = path.includes('?') ? '&' : '?';
      const r = await measure(`${path}${sep}start=${start}&end=${day(0)}&timezone=America/Sao_Paulo`);
      results[`${name}_${span}`] = { ...r, p50_ratio_to_baseline: +(r.p50_ms / baseline.p50_ms).toFixed(1) };
    }
  }
  // One line per case for docs/performance.md: p50 / p95 in ms.
  for (const [name, r] of Object.entries(results)) {
    const t = r as { p50_ms?: number; p95_ms?: number };
    if (t.p95_ms !== undefined)
      process.stdout.write(`${name.padEnd(34)} p50 ${String(t.p50_ms).padStart(7)} ms  p95 ${String(t.p95_ms).padStart(7)} ms\n`);
  }
  report('admin-reports', results);
} finally {
  await api.stop();
}
