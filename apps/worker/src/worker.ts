import { channelAdapters, EmailAccessTokens, emailOAuthClients, outboundClient, parseSecretsKey } from '@atende/channels';
import { queues } from '@atende/contract';
import { createDb } from '@atende/db';
import { bullPrefix, maintenanceQueue, QueueRegistry, RateLimiter, RealtimeOutbox } from '@atende/queue';
import { storageFromEnv } from '@atende/storage';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import pino from 'pino';
import { botHttp, runBotSteps } from '@atende/conversations';
import { createChannelDeliveryWorker } from './channel-delivery/worker';
import { loadEnv } from './env';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { dispatchCampaign } from './campaigns/dispatch';
import { importSubscribers } from './campaigns/import';
import { processInbound } from './channel-inbound/processor';
import { startEmailInbound } from './channel-inbound/email-listener';
import { startEmailImap } from './channel-inbound/email-imap';
import { runMaintenanceJob } from './maintenance/processor';
import { syncTemplate } from './templates/processor';
import { OutboxDispatcher } from './outbox/loop';

const env = loadEnv();
const log = pino({
  level: env.LOG_LEVEL,
  name: 'worker',
  redact: { paths: ['*.email', '*.phone', '*.phone_number', '*.content', '*.password'], censor: '[redacted]' },
});
// Every job may hold a connection (delivery, inbound, template sync, maintenance), plus the outbox dispatcher's transaction.
const db = createDb(env.DATABASE_URL, { poolSize: env.WORKER_CONCURRENCY + env.INBOUND_CONCURRENCY + env.BOT_CONCURRENCY + 12 });
const connection = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });

const maintenance = maintenanceQueue(connection, env.REDIS_PREFIX);
// One scheduler entry shared by every worker process: BullMQ keeps a single repeat per id.
await maintenance.upsertJobScheduler(
  'expire-sessions',
  { every: 60 * 60 * 1000 },
  { name: 'expire-sessions', data: { kind: 'expire-sessions' } },
);
// Template statuses also arrive by webhook; this catches the ones a lost webhook never told.
await maintenance.upsertJobScheduler(
  'sync-templates',
  { every: 15 * 60 * 1000 },
  { name: 'sync-templates', data: { kind: 'sync-templates' } },
);
// Scheduled campaigns start within 30 s of their start_at.
await maintenance.upsertJobScheduler(
  'start-scheduled',
  { every: 30 * 1000 },
  { name: 'start-scheduled', data: { kind: 'start-scheduled' } },
);
await maintenance.upsertJobScheduler(
  'run-automations',
  { every: 30 * 1000 },
  { name: 'run-automations', data: { kind: 'run-automations' } },
);
// The conversation list's kept count: each key's deltas folded into one row.
await maintenance.upsertJobScheduler(
  'compact-conversation-tally',
  { every: 60 * 1000 },
  { name: 'compact-conversation-tally', data: { kind: 'compact-conversation-tally' } },
);
await maintenance.upsertJobScheduler(
  'prune-outbox',
  { every: 6 * 60 * 60 * 1000 },
  { name: 'prune-outbox', data: { kind: 'prune-outbox' } },
);

// Events for browsers go through the api's relay (the worker has no sockets).
const realtime = new RealtimeOutbox(connection, env.REDIS_PREFIX);
const outboxQueues = new QueueRegistry(connection, env.REDIS_PREFIX);
const dispatcher = new OutboxDispatcher({
  db,
  queues: outboxQueues,
  log: log.child({ component: 'outbox' }),
  pollMs: env.OUTBOX_POLL_MS,
  listenUrl: env.DATABASE_URL,
});

const outbound = outboundClient({ allowHosts: env.OUTBOUND_ALLOW_HOSTS });
// OAuth access tokens of e-mail mailboxes, shared by SMTP sends and the IMAP reader.
const emailTokens = new EmailAccessTokens(emailOAuthClients(env), outbound);
const adapters = channelAdapters({ outbound, email: { tokens: emailTokens, log: log.child({ component: 'channel-delivery' }) } });
const storage = storageFromEnv(env);
const limiter = new RateLimiter(connection, env.REDIS_PREFIX);
// This process, as the holder of campaign sending leases.
const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
const secretsKey = parseSecretsKey(env.CHANNEL_SECRETS_KEY);
const templateDeps = { db, realtime, adapters, secretsKey, log: log.child({ component: 'templates' }) };
const bull = { connection, prefix: bullPrefix(env.REDIS_PREFIX) };
const bots = botHttp({ allowHosts: env.OUTBOUND_ALLOW_HOSTS });

const workers: Worker[] = [
  new Worker(
    queues.maintenance.name,
    async (job) =>
      runMaintenanceJob(
        {
          db,
          realtime,
          log: log.child({ component: 'maintenance' }),
          sessionRetentionDays: env.SESSION_RETENTION_DAYS,
          templates: templateDeps,
        },
        job.data,
      ),
    { ...bull, concurrency: 1 },
  ),
  // Contact messages and delivery statuses: their own queue and concurrency, never behind campaign work.
  new Worker(
    queues.channelInbound.name,
    async (job) =>
      processInbound(
        { db, realtime, adapters, secretsKey, storage: storage.writer, log: log.child({ component: 'channel-inbound' }) },
        job.data,
      ),
    {
      ...bull,
      concurrency: env.INBOUND_CONCURRENCY,
    },
  ),
  // Bot flows: their own queue, so an HTTP node waiting on its timeout never holds contact messages back.
  new Worker(
    queues.botStep.name,
    async (job) => runBotSteps({ db, realtime, log: log.child({ component: 'bot' }) }, bots, job.data.conversation_uuid),
    {
      ...bull,
      concurrency: env.BOT_CONCURRENCY,
    },
  ),
  new Worker(
    queues.subscriberImport.name,
    async (job) =>
      importSubscribers(
        {
          db,
          databaseUrl: env.DATABASE_URL,
          realtime,
          storage: (service) => storage.driverFor(service),
          log: log.child({ component: 'import' }),
        },
        job.data,
        {
          finalAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? 1),
        },
      ),
    { ...bull, concurrency: 1 },
  ),
  new Worker(
    queues.campaignDispatch.name,
    async (job) =>
      dispatchCampaign(
        {
          db,
          realtime,
          adapters,
          secretsKey,
          limiter,
          owner,
          ratePerSecond: env.CAMPAIGN_RATE_PER_SECOND,
          batchSize: env.CAMPAIGN_BATCH_SIZE,
          concurrency: env.CAMPAIGN_SEND_CONCURRENCY,
          log: log.child({ component: 'campaign-dispatch' }),
        },
        job.data,
      ),
    { ...bull, concurrency: 4 },
  ),
  new Worker(
    queues.templateSync.name,
    async (job) => syncTemplate(templateDeps, job.data, { finalAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? 1) }),
    {
      ...bull,
      concurrency: 2,
    },
  ),
  createChannelDeliveryWorker(
    {
      db,
      realtime,
      adapters,
      secretsKey,
      publicUrl: env.PUBLIC_URL,
      fileLinkSecret: env.FILE_LINK_SECRET,
      fileLinkTtlSeconds: env.FILE_LINK_TTL_SECONDS,
      storage: (service) => storage.driverFor(service),
      log: log.child({ component: 'channel-delivery' }),
    },
    { connection, redisPrefix: env.REDIS_PREFIX, concurrency: env.WORKER_CONCURRENCY },
  ),
];
for (const w of workers) {
  w.on('failed', (job, err) => log.error({ queue: w.name, jobId: job?.id, attemptsMade: job?.attemptsMade, err }, 'job failed'));
  w.on('completed', (job, result) => log.debug({ queue: w.name, jobId: job.id, result }, 'job done'));
}
dispatcher.start();
const emailInbound = env.EMAIL_INBOUND_SMTP_PORT
  ? await startEmailInbound(
      { db, secretsKey, log: log.child({ component: 'email-inbound' }) },
      { port: env.EMAIL_INBOUND_SMTP_PORT, host: env.EMAIL_INBOUND_SMTP_HOST },
    )
  : null;
if (emailInbound) log.info({ port: emailInbound.port }, 'e-mail inbound SMTP listener started');
// E-mail channels that read their own mailbox (imap_host); nothing is connected (nor imapflow loaded) while there are none.
const emailImap = startEmailImap(
  { db, secretsKey, log: log.child({ component: 'email-imap' }), policy: outbound.policy, tokens: emailTokens, owner },
  { pollMs: env.EMAIL_IMAP_POLL_MS },
);
log.info({ queues: workers.map((w) => w.name) }, 'worker started');

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  log.info({ signal }, 'worker shutting down');
  const force = setTimeout(() => process.exit(1), 15_000).unref();
  // Stop feeding the queues first (the batch in hand is committed or rolled back, never half done).
  await emailInbound?.close();
  await emailImap.close();
  await dispatcher.stop();
  // Let running jobs finish; unfinished ones are picked up again by another worker.
  await Promise.all(workers.map((w) => w.close()));
  await outboxQueues.close();
  await maintenance.close();
  storage.close();
  await db.$disconnect();
  connection.disconnect();
  clearTimeout(force);
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
