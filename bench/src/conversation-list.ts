// Conversation list latency: GET /api/v2/conversations p50/p99 with 100,000 conversations in the
// tenant. Baseline in the same run: GET /api/v1/users/me (auth + one lookup), so the
// ratio shows what the list itself costs. Run `pnpm build` first.
import pg from 'pg';
import { freshDatabase, login, report, startApi, summarize } from './stack';

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

const url = await freshDatabase('atende_bench_list');
const client = new pg.Client({ connectionString: url });
await client.connect();
const { rows } = await client.query<{ tenant: string; ws: string; agent: number; channel: string | null; sector: string }>(`
  SELECT t.id AS tenant, w.id AS ws, u.id AS agent, s.id AS sector,
         (SELECT id FROM "Channel" c WHERE c."tenantId" = t.id LIMIT 1) AS channel
  FROM "Tenant" t JOIN "Workspace" w ON w."tenantId" = t.id JOIN "User" u ON u."tenantId" = t.id AND u.email = 'agent@demo.atende.dev'
  JOIN "Sector" s ON s."tenantId" = t.id LIMIT 1`);
const base = rows[0]!;
let channel = base.channel;
if (!channel) {
  const c = await client.query<{ id: string }>(
    `INSERT INTO "Channel" (id, "tenantId", "workspaceId", name, type, "updatedAt") VALUES (gen_random_uuid(), $1, $2, 'Bench', 'custom', now()) RETURNING id`,
    [base.tenant, base.ws],
  );
  channel = c.rows[0]!.id;
}
const started = Date.now();
await client.query(
  `INSERT INTO "Contact" (id, "tenantId", name, "phoneNumber", "updatedAt")
   SELECT gen_random_uuid(), $1, 'Bench contact ' || g, '+55119' || lpad(g::text, 8, '0'), now() FROM generate_series(1, $2) g`,
  [base.tenant, Math.ceil(CONVERSATIONS / 4)],
);
await client.query(
  `WITH c AS (SELECT id, row_number() OVER () AS rn FROM "Contact" WHERE "tenantId" = $1),
        n AS (SELECT COALESCE(MAX("ticketNumber"), 0) AS m FROM "Conversation" WHERE "tenantId" = $1)
   INSERT INTO "Conversation" (id, "tenantId", "workspaceId", "contactId", "channelId", "sectorId", "userId", state, "ticketNumber", "timeJoin", "createdAt", "updatedAt", "closedAt")
   SELECT gen_random_uuid(), $1, $2, c.id, $3, $4,
          CASE WHEN g % 3 = 0 THEN $5::int ELSE NULL END,
          (CASE WHEN g % 10 = 0 THEN 'waiting' WHEN g % 10 = 1 THEN 'answered' ELSE 'closed' END)::"ConversationState",
          n.m + g, now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval, now(),
          CASE WHEN g % 10 > 1 THEN now() - (g || ' minutes')::interval + interval '10 minutes' END
   FROM generate_series(1, $6) g CROSS JOIN n JOIN c ON c.rn = 1 + (g % (SELECT COUNT(*) FROM c))`,
  [base.tenant, base.ws, channel, base.sector, base.agent, CONVERSATIONS],
);
// The kept count between two compactions of a busy desk (the worker folds it every minute; this
// bench runs no worker): TALLY_CHANGES conversations change state one by one, each leaving two
// delta rows for pagination.total to sum.
const TALLY_CHANGES = Number(process.env.BENCH_TALLY_CHANGES ?? 2_500);
await client.query(
  `UPDATE "Conversation" SET state = (CASE WHEN state = 'closed' THEN 'answered' ELSE 'closed' END)::"ConversationState"
   WHERE id IN (SELECT id FROM "Conversation" WHERE "tenantId" = $1 ORDER BY "ticketNumber" DESC LIMIT $2)`,
  [base.tenant, TALLY_CHANGES],
);
const tallyRows = Number((await client.query<{ n: string }>('SELECT count(*)::text AS n FROM "ConversationTally"')).rows[0]!.n);
// Steady state: autovacuum keeps the visibility map current on a live table, which index-only scans rely on.
await client.query('VACUUM ANALYZE');
const seeded = (await client.query<{ n: string }>('SELECT COUNT(*)::text AS n FROM "Conversation"')).rows[0]!.n;
await client.end();
const seedSeconds = (Date.now() - started) / 1000;

const api = await startApi({ DATABASE_URL: url, REDIS_PREFIX: 'atende-bench:' }, 3210);
try {
  const supervisor = await login(api.url, 'supervisor@demo.atende.dev');
  const agent = await login(api.url, 'agent@demo.atende.dev');

  async function measure(path: string, token: string): Promise<ReturnType<typeof summarize>> {
    const samples: number[] = [];
    let next = 0;
    // warm-up
    for (let i = 0; i < 20; i++) await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < REQUESTS) {
          next++;
          const t0 = performance.now();
          const res = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
          await res.arrayBuffer();
          if (!res.ok) throw new Error(`${path}: ${res.status}`);
          samples.push(performance.now() - t0);
        }
      }),
    );
    next = 0;
    return summarize(samples);
  }

  const baseline = await measure('/api/v1/users/me', supervisor);
  const supervisorFirstPage = await measure('/api/v2/conversations?_limit=10&_offset=0', supervisor);
  const supervisorWaiting = await measure('/api/v2/conversations?_limit=40&state=waiting', supervisor);
  const supervisorDeepPage = await measure('/api/v2/conversations?_limit=40&_offset=50000', supervisor);
  // The same depth by keyset: the cursor after row 50,000, as a client paging there would hold it.
  const edge = await fetch(`${api.url}/api/v2/conversations?_limit=1&_offset=${Math.min(49_999, Number(seeded) - 2)}`, {
    headers: { authorization: `Bearer ${supervisor}` },
  });
  const cursor = ((await edge.json()) as { pagination: { next_cursor: string | null } }).pagination.next_cursor;
  if (!cursor) throw new Error('no cursor at depth');
  const supervisorDeepCursor = await measure(`/api/v2/conversations?_limit=40&cursor=${encodeURIComponent(cursor)}`, supervisor);
  const agentOwn = await measure('/api/v2/conversations?_limit=10', agent);
  // A filter the kept count does not cover: counted row by row (index-only).
  const supervisorSector = await measure(`/api/v2/conversations?_limit=10&sector_uuid=${base.sector}`, supervisor);
  report('conversation-list', {
    conversations: Number(seeded),
    seed_seconds: seedSeconds,
    tally_rows: tallyRows,
    requests_per_case: REQUESTS,
    concurrency: CONCURRENCY,
    baseline_users_me: baseline,
    supervisor_first_page: { ...supervisorFirstPage, p50_ratio_to_baseline: +(supervisorFirstPage.p50_ms / baseline.p50_ms).toFixed(2) },
    supervisor_waiting_filter: { ...supervisorWaiting, p50_ratio_to_baseline: +(supervisorWaiting.p50_ms / baseline.p50_ms).toFixed(2) },
    supervisor_offset_50000: { ...supervisorDeepPage, p50_ratio_to_baseline: +(supervisorDeepPage.p50_ms / baseline.p50_ms).toFixed(2) },
    supervisor_cursor_50000: {
      ...supervisorDeepCursor,
      p50_ratio_to_baseline: +(supervisorDeepCursor.p50_ms / baseline.p50_ms).toFixed(2),
    },
    agent_own_conversations: { ...agentOwn, p50_ratio_to_baseline: +(agentOwn.p50_ms / baseline.p50_ms).toFixed(2) },
    supervisor_sector_filter: { ...supervisorSector, p50_ratio_to_baseline: +(supervisorSector.p50_ms / baseline.p50_ms).toFixed(2) },
  });
} finally {
  await api.stop();
}
