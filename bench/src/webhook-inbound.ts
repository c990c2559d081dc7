// Provider webhooks: contacts' WhatsApp messages posted to the demo 360dialog channel's
// webhook by BENCH_CONCURRENCY clients. Figures: the api's acknowledgement time (signature check and
// outbox row, nothing else) and the time until the message is stored in its conversation by the
// worker (queue channel-inbound). Compared in the same run with the custom API channel's inbound
// endpoint, which goes through the same queue (token and body checked, outbox row, 202) and is
// stored by the same worker; both "stored" figures are read the same way. BENCH_WARM_UP messages of
// each kind go first, not measured. Run `pnpm build` first.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { freshDatabase, report, startApi, startWorker, summarize } from './stack';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 200);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 20);
const CHANNEL = '3600d1a1-0000-4000-8000-000000000360';
const WEBHOOK_SECRET = 'demo-360-webhook-secret';
const PREFIX = `atende-bench-webhook:${Date.now()}:`;

const url = await freshDatabase('atende_bench_webhook');
const env = { DATABASE_URL: url, REDIS_PREFIX: PREFIX, JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123', LOG_LEVEL: 'warn' };
const api = await startApi(env, 3390);
const worker = startWorker(env, api);
const db = new pg.Client({ connectionString: url });
await db.connect();
const custom = (await db.query<{ id: string }>(`SELECT id FROM "Channel" WHERE type = 'custom' LIMIT 1`)).rows[0]!.id;

const phone = (i: number) => `+55119${String(20_000_000 + (i % CONTACTS)).padStart(8, '0')}`;
function cloudBody(i: number, id: string): string {
  const from = phone(i).slice(1);
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'bench-waba',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '5511900000000', phone_number_id: 'bench-phone' },
              contacts: [{ profile: { name: `Bench ${i % CONTACTS}` }, wa_id: from }],
              messages: [{ from, id, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: `message ${i}` } }],
            },
          },
        ],
      },
    ],
  });
}

async function run(kind: 'webhook' | 'custom', messages = MESSAGES) {
  const acks: number[] = [];
  const stored: number[] = [];
  const sent = new Map<string, number>();
  let next = 0;
  const started = performance.now();
  async function client() {
    for (;;) {
      const i = next++;
      if (i >= messages) return;
      const id = `wamid.bench-${kind}-${randomUUID()}`;
      const t0 = performance.now();
      const res =
        kind === 'webhook'
          ? await fetch(`${api.url}/api/v1/channels/${CHANNEL}/webhook`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-atende-webhook-token': WEBHOOK_SECRET },
              body: cloudBody(i, id),
            })
          : await fetch(`${api.url}/api/v1/channels/droz/${custom}/messages`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: 'Bearer demo-api-channel-token' },
              body: JSON.stringify({
                contact: { phone: phone(i), name: `Bench ${i % CONTACTS}` },
                message: { id, content: `message ${i}` },
              }),
            });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${kind} answered ${res.status}`);
      acks.push(performance.now() - t0);
      sent.set(id, t0);
    }
  }
  // Storage time, for both kinds: polled by external id (the provider's message id, the custom
  // channel's message.id), so the figure includes the outbox hop and the queue.
  const poller = (async () => {
    while (stored.length < messages) {
      const pending = [...sent.keys()];
      if (pending.length) {
        const rows = await db.query<{ externalId: string; createdAt: Date }>(
          `SELECT "externalId", "createdAt" FROM "Message" WHERE "externalId" = ANY($1)`,
          [pending],
        );
        const now = performance.now();
        for (const row of rows.rows) {
          const t0 = sent.get(row.externalId)!;
          sent.delete(row.externalId);
          stored.push(now - t0);
        }
      }
      if (performance.now() - started > 300_000) throw new Error(`${kind}: only ${stored.length} of ${messages} stored within 300 s`);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  const ackSeconds = (performance.now() - started) / 1000;
  await poller;
  return {
    ack: summarize(acks),
    acks_per_second: Math.round(messages / ackSeconds),
    stored: summarize(stored),
    stored_per_second: Math.round(messages / ((performance.now() - started) / 1000)),
  };
}

try {
  // Warm-up, not measured: the worker just started (its queues, connections and JIT), and the first
  // kind measured would otherwise pay for that alone.
  await run('custom', WARM_UP);
  await run('webhook', WARM_UP);
  const customApi = await run('custom');
  const webhook = await run('webhook');
  report('webhook-inbound', {
    messages: MESSAGES,
    concurrency: CONCURRENCY,
    contacts: CONTACTS,
    warm_up: WARM_UP,
    custom_api_channel_queued: customApi,
    provider_webhook_queued: webhook,
    ack_p50_ratio_webhook_vs_custom: Math.round((webhook.ack.p50_ms / customApi.ack.p50_ms) * 100) / 100,
    stored_p50_ratio_webhook_vs_custom: Math.round((webhook.stored.p50_ms / customApi.stored.p50_ms) * 100) / 100,
  });
} finally {
  await db.end();
  await worker.stop();
  await api.stop();
}
