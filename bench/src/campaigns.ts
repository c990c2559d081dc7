// Campaigns, in-process against the real Postgres and Redis and a 360dialog simulator:
// 1. import of a ~5 MB subscribers CSV (about 100,000 rows) by the worker's COPY import: seconds,
//    rows per second, RSS growth, the largest gap between its progress events (
//    ≤ 3 s, < 100 MB, an event every second), then the same file by the import as it was before
//    (import-baseline.ts, run second so the RSS figure is the new import's own): the ratio of the two
//    in the same run, and to the README's 5.3 s (BENCH_IMPORT_BASELINE=0 skips the old one);
// 2. sending BENCH_SEND subscribers with the rate limit off: messages per second end to end
//    (target ≥ 1,000), then the same through the sending as it was before (dispatch-baseline.ts, an
//    update per send; BENCH_SEND_BASELINE=0 skips it) for the ratio of the two in the same run;
// 3. sending BENCH_LIMITED subscribers with a limit of BENCH_RATE per second: the measured rate
//    against the limit (ratio; ±5%). No api or browser: the worker's own code does the work, in this
//    one process with the simulator. Each figure comes with the 1-minute load average at its end.
// BENCH_IMPORT_ONLY=1 runs the import alone.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { channelAdapters, encryptCredentials, outboundClient, parseSecretsKey } from '@atende/channels';
import { startWhatsAppSimulator } from '@atende/simulators/whatsapp';
import { createDb, ensureTenant } from '@atende/db';
import { RateLimiter, RealtimeOutbox, realtimeOutboxStream } from '@atende/queue';
import { LocalDiskDriver, type StorageDriver } from '@atende/storage';
import { Redis } from 'ioredis';
import pino from 'pino';
import { dispatchCampaign } from '../../apps/worker/src/campaigns/dispatch';
import { importSubscribers } from '../../apps/worker/src/campaigns/import';
import { dispatchCampaignBaseline } from './dispatch-baseline';
import { importSubscribersBaseline } from './import-baseline';
import { freshDatabase, report } from './stack';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const SEND = Number(process.env.BENCH_SEND ?? 20_000);
const LIMITED = Number(process.env.BENCH_LIMITED ?? 3000);
const RATE = Number(process.env.BENCH_RATE ?? 300);
const IMPORT_ONLY = process.env.BENCH_IMPORT_ONLY === '1';
const IMPORT_BASELINE = process.env.BENCH_IMPORT_BASELINE !== '0';
const SEND_BASELINE = process.env.BENCH_SEND_BASELINE !== '0';
/** The README's import figure before the COPY import (csv-parse stream, 2,000-row INSERT ... ON CONFLICT). */
const README_IMPORT_S = 5.3;
const prefix = `atende-bench-campaigns:${Date.now()}:`;

const url = await freshDatabase('atende_bench_campaigns');
const db = createDb(url, { poolSize: 20 });
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
const realtime = new RealtimeOutbox(redis, prefix);
const log = pino({ level: process.env.BENCH_LOG_LEVEL ?? 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'atende-bench-'));
const storage: StorageDriver = new LocalDiskDriver(dir);
const secretsKey = parseSecretsKey(Buffer.alloc(32, 3).toString('base64'));
const credentials = { api_key: 'k', webhook_secret: 'w' };
const sim = await startWhatsAppSimulator({ provider: '360dialog', credentials });

const tenant = await ensureTenant(db, {
  name: 'Bench campaigns',
  users: { manager: ['campaign_manager'] },
  emailDomain: 'bench-campaigns.dev',
  password: 'x1234567',
});
const channel = await db.channel.create({
  data: {
    tenantId: tenant.tenantId,
    workspaceId: tenant.workspaceId,
    name: 'WhatsApp',
    type: 'whatsapp_360dialog',
    config: { base_url: sim.baseUrl, api_version: 'cloud' },
    credentialsEncrypted: encryptCredentials(credentials, secretsKey),
  },
});
const template = await db.outboundTemplate.create({
  data: {
    tenantId: tenant.tenantId,
    channelId: channel.id,
    name: 'bench',
    language: 'pt_BR',
    category: 'MARKETING',
    status: 'APPROVED',
    components: [{ type: 'BODY', text: 'Olá {{1}}, cupom {{2}}' }],
  },
});
const campaign = (name: string) =>
  db.campaign.create({
    data: {
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      name,
      channelId: channel.id,
      templateId: template.id,
      createdById: tenant.users.manager!.id,
      config: { default_action: { action: 'end_with_message' } },
    },
  });
const phone = (i: number) => `+55119${String(10_000_000 + i).padStart(8, '0')}`;

try {
  // 1. Import.
  const lines = ['name,phone,1,2'];
  for (let i = 0; i < ROWS; i++) lines.push(`Assinante ${i},${phone(i)},Nome ${i},CUPOM${i.toString(36).toUpperCase()}`);
  const csv = Buffer.from(lines.join('\n'));
  const imported = await campaign('Import');
  const fileId = randomUUID();
  await storage.put(`${tenant.tenantId}/${fileId}`, csv, { contentType: 'text/csv', size: csv.length });
  await db.storedFile.create({
    data: {
      id: fileId,
      tenantId: tenant.tenantId,
      originalFilename: 'bench.csv',
      contentType: 'text/csv',
      size: csv.length,
      service: storage.service,
      storageKey: `${tenant.tenantId}/${fileId}`,
    },
  });
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t0 = performance.now();
  const counters = await importSubscribers(
    { db, databaseUrl: url, realtime, storage: () => storage, log },
    { tenant_uuid: tenant.tenantId, campaign_uuid: imported.id, file_uuid: fileId },
  );
  const importSeconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  // The progress events this import sent, timed by their stream ids (milliseconds).
  const progressEvents = (await redis.xrange(realtimeOutboxStream(prefix), '-', '+'))
    .map(([id, fields]) => ({
      at: Number(id.split('-')[0]),
      envelope: JSON.parse(fields[1]!) as { event: string; payload: { status: string; rows_done: number } },
    }))
    .filter((e) => e.envelope.event === 'update-campaign-tasks');
  const gaps = progressEvents.slice(1).map((e, i) => e.at - progressEvents[i]!.at);
  const importFigures = {
    rows: ROWS,
    file_mb: Math.round((csv.length / 1024 / 1024) * 100) / 100,
    seconds: Math.round(importSeconds * 100) / 100,
    rows_per_second: Math.round(ROWS / importSeconds),
    ...counters,
    peak_rss_mb: Math.round(peak / 1024 / 1024),
    rss_growth_mb: Math.round((peak - rssBefore) / 1024 / 1024),
    ratio_to_readme_5_3_s: Math.round((importSeconds / README_IMPORT_S) * 100) / 100,
    progress_events: progressEvents.length,
    progress_max_gap_ms: gaps.length ? Math.max(...gaps) : null,
    progress_final_rows_done: progressEvents.at(-1)?.envelope.payload.rows_done ?? null,
  };
  process.stdout.write(
    `import: ${ROWS} rows in ${importFigures.seconds} s (${importFigures.rows_per_second} rows/s), RSS +${importFigures.rss_growth_mb} MB, ${importFigures.ratio_to_readme_5_3_s}x the README's 5.3 s, ${progressEvents.length} progress events, largest gap ${importFigures.progress_max_gap_ms} ms\n`,
  );

  // The same file through the import as it was before, in this run (same machine, same load).
  let baseline: { seconds: number; rows_per_second: number; ratio_new_to_old: number } | null = null;
  if (IMPORT_BASELINE) {
    const old = await campaign('Import baseline');
    const t3 = performance.now();
    await importSubscribersBaseline(
      { db, realtime, storage: () => storage, log },
      { tenant_uuid: tenant.tenantId, campaign_uuid: old.id, file_uuid: fileId },
    );
    const oldSeconds = (performance.now() - t3) / 1000;
    baseline = {
      seconds: Math.round(oldSeconds * 100) / 100,
      rows_per_second: Math.round(ROWS / oldSeconds),
      ratio_new_to_old: Math.round((importSeconds / oldSeconds) * 100) / 100,
    };
    process.stdout.write(
      `import baseline (old row batches), same run: ${baseline.seconds} s (${baseline.rows_per_second} rows/s); new / old = ${baseline.ratio_new_to_old}\n`,
    );
  }
  const importReport = { ...importFigures, same_run_baseline: baseline };
  if (IMPORT_ONLY) report('campaigns-import', { import: importReport });
  else report('campaigns', { import: importReport, ...(await sendFigures()) });
} finally {
  await sim.close();
  redis.disconnect();
  await db.$disconnect();
  rmSync(dir, { recursive: true, force: true });
}

async function sendFigures() {
  // The simulator listens on 127.0.0.1, which the outbound client refuses unless allowed (as OUTBOUND_ALLOW_HOSTS would).
  const deps = (rate: number, tuning: { batchSize?: number; concurrency?: number } = {}) => ({
    db,
    realtime,
    adapters: channelAdapters({ outbound: outboundClient({ allowHosts: '127.0.0.1,localhost' }) }),
    secretsKey,
    limiter: new RateLimiter(redis, prefix),
    owner: 'bench',
    ratePerSecond: rate,
    log,
    ...tuning,
  });
  const seed = async (name: string, count: number) => {
    const c = await campaign(name);
    await db.$executeRaw`INSERT INTO "CampaignSubscriber" (id, "tenantId", "campaignId", name, "phoneNumber", parameters, state, "updatedAt")
      SELECT gen_random_uuid(), ${tenant.tenantId}::uuid, ${c.id}::uuid, 'S ' || g, '+55118' || lpad(g::text, 8, '0'), ARRAY['S ' || g, 'X'], 'pending', now() FROM generate_series(1, ${count}) g`;
    const started = await db.campaign.update({ where: { id: c.id }, data: { desiredState: 'running', runNumber: 1 } });
    return { tenant_uuid: tenant.tenantId, campaign_uuid: c.id, run: started.runNumber };
  };
  const load = () => Math.round(loadavg()[0]! * 100) / 100;
  const timed = async (name: string, count: number, run: (job: Awaited<ReturnType<typeof seed>>) => Promise<unknown>) => {
    sim.reset();
    const job = await seed(name, count);
    const t = performance.now();
    await run(job);
    const seconds = (performance.now() - t) / 1000;
    const accepted = sim.sent().filter((s) => s.answeredStatus === 200).length;
    const sentRows = await db.campaignSubscriber.count({ where: { campaignId: job.campaign_uuid, state: 'sent' } });
    return {
      subscribers: count,
      sent: accepted,
      rows_sent: sentRows,
      seconds: Math.round(seconds * 100) / 100,
      messages_per_second: Math.round(accepted / seconds),
      load_average_1m: load(),
    };
  };
  const tuning = {
    batchSize: process.env.BENCH_BATCH ? Number(process.env.BENCH_BATCH) : undefined,
    concurrency: process.env.BENCH_CONCURRENCY ? Number(process.env.BENCH_CONCURRENCY) : undefined,
  };

  // 2. Sending without a limit, then the same through the old sending (its bench settings: batches of 200, 16 at once).
  const unlimited = await timed('Unlimited', SEND, (job) => dispatchCampaign(deps(0, tuning), job));
  process.stdout.write(
    `send, no limit: ${unlimited.sent} in ${unlimited.seconds} s = ${unlimited.messages_per_second} msg/s (load ${unlimited.load_average_1m})\n`,
  );
  let baseline: (typeof unlimited & { ratio_new_to_old: number }) | null = null;
  if (SEND_BASELINE) {
    const old = await timed('Unlimited baseline', SEND, (job) =>
      dispatchCampaignBaseline(deps(0, { batchSize: 200, concurrency: 16 }), job),
    );
    baseline = { ...old, ratio_new_to_old: Math.round((unlimited.messages_per_second / old.messages_per_second) * 100) / 100 };
    process.stdout.write(
      `send baseline (update per send), same run: ${old.messages_per_second} msg/s (load ${old.load_average_1m}); new / old = ${baseline.ratio_new_to_old}\n`,
    );
  }

  // 3. Sending under a limit. A burst of one second's worth goes at once; the rest follows the limit.
  const limited = await timed('Limited', LIMITED, (job) => dispatchCampaign(deps(RATE, tuning), job));
  const measured = (limited.sent - RATE) / limited.seconds;
  // The same between the first and the last send (their sentAt), without the run's start and end.
  const [span] = await db.$queryRaw<
    { seconds: number }[]
  >`SELECT EXTRACT(EPOCH FROM max("sentAt") - min("sentAt"))::float8 AS seconds FROM "CampaignSubscriber" s JOIN "Campaign" c ON c.id = s."campaignId" WHERE c.name = 'Limited'`;
  const sending = (limited.sent - RATE) / span!.seconds;
  process.stdout.write(
    `send, limit ${RATE}/s: ${Math.round(measured)}/s after the burst end to end, ${Math.round(sending)}/s between the first and last send (load ${limited.load_average_1m})\n`,
  );

  return {
    send_unlimited: { ...unlimited, same_run_baseline: baseline },
    send_limited: {
      ...limited,
      limit_per_second: RATE,
      measured_per_second_after_burst: Math.round(measured),
      ratio_to_limit: Math.round((measured / RATE) * 1000) / 1000,
      sending_per_second_after_burst: Math.round(sending),
      sending_ratio_to_limit: Math.round((sending / RATE) * 1000) / 1000,
    },
  };
}
