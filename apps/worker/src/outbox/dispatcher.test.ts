import { randomBytes, randomUUID } from 'node:crypto';
import { queues } from '@atende/contract';
import { createDb, enqueue, ensureTenant, type Db } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { QueueRegistry } from '@atende/queue';
import { Redis } from 'ioredis';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { dispatchOutboxBatch, type OutboxDispatchDeps } from './dispatcher';
import { OUTBOX_NOTIFY_CHANNEL } from './listener';
import { OutboxDispatcher } from './loop';

const prefix = `atende-test:${randomBytes(4).toString('hex')}:`;
const silent = pino({ level: 'silent' });
let t: TestDatabase;
let redis: Redis;
let registry: QueueRegistry;
let tenantId: string;

beforeAll(async () => {
  t = await createTestDatabase();
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  registry = new QueueRegistry(redis, prefix);
  tenantId = (await ensureTenant(t.db, { name: 'Outbox', users: {}, emailDomain: 'outbox.test', password: 'x1234567' })).tenantId;
});
afterAll(async () => {
  await registry?.get('channel-delivery').obliterate({ force: true });
  await registry?.close();
  redis?.disconnect();
  await t?.drop();
});
beforeEach(async () => {
  await registry.get('channel-delivery').obliterate({ force: true });
  await t.db.outboxJob.deleteMany();
});

const deliveryQueue = () => registry.get('channel-delivery');
const payload = () => ({ tenant_uuid: tenantId, message_uuid: randomUUID() });

async function insertRows(count: number, createdAt?: (i: number) => Date): Promise<string[]> {
  const rows = Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    tenantId,
    queue: queues.channelDelivery.name,
    payload: payload(),
    ...(createdAt ? { createdAt: createdAt(i) } : {}),
  }));
  await t.db.outboxJob.createMany({ data: rows });
  return rows.map((r) => r.id);
}

/** A registry that records every job id it is asked to enqueue. */
function recording(enqueued: string[]): OutboxDispatchDeps['queues'] {
  return {
    get(name) {
      const queue = registry.get(name);
      return {
        addBulk: (jobs) => {
          enqueued.push(...jobs.map((j) => j.opts!.jobId!));
          return queue.addBulk(jobs);
        },
      };
    },
  };
}

async function drain(deps: OutboxDispatchDeps): Promise<number> {
  let total = 0;
  for (;;) {
    const { dispatched, invalid } = await dispatchOutboxBatch(deps);
    if (dispatched + invalid === 0) return total;
    total += dispatched;
  }
}

describe('outbox dispatcher', () => {
  it('moves each row to BullMQ exactly once while two dispatchers race', async () => {
    const ids = await insertRows(300);
    // Two workers, each with its own connection pool, as two processes would have.
    const dbs: Db[] = [createDb(t.url, { poolSize: 3 }), createDb(t.url, { poolSize: 3 })];
    const enqueued: string[][] = [[], []];
    try {
      const totals = await Promise.all(dbs.map((db, i) => drain({ db, queues: recording(enqueued[i]!), log: silent, batchSize: 7 })));
      expect(totals[0]! + totals[1]!).toBe(300);
      // Both did some of the work, and no row was enqueued by both.
      expect(enqueued[0]!.length).toBeGreaterThan(0);
      expect(enqueued[1]!.length).toBeGreaterThan(0);
      const all = [...enqueued[0]!, ...enqueued[1]!];
      expect(all).toHaveLength(300);
      expect(new Set(all)).toEqual(new Set(ids));
    } finally {
      await Promise.all(dbs.map((db) => db.$disconnect()));
    }
    expect(await deliveryQueue().getWaitingCount()).toBe(300);
    expect(await t.db.outboxJob.count({ where: { dispatchedAt: null } })).toBe(0);
  });

  it('re-dispatches rows after a crash between enqueue and marking, as a no-op in BullMQ', async () => {
    const ids = await insertRows(5);
    const crash = () => Promise.reject(new Error('worker died'));
    await expect(dispatchOutboxBatch({ db: t.db, queues: registry, log: silent, afterEnqueue: crash })).rejects.toThrow('worker died');
    // The jobs reached Redis but the rows were not marked: the transaction rolled back.
    expect(await deliveryQueue().getWaitingCount()).toBe(5);
    expect(await t.db.outboxJob.count({ where: { dispatchedAt: null } })).toBe(5);

    expect(await dispatchOutboxBatch({ db: t.db, queues: registry, log: silent })).toEqual({ dispatched: 5, invalid: 0 });
    expect(await deliveryQueue().getWaitingCount()).toBe(5);
    const jobs = await deliveryQueue().getWaiting();
    expect(new Set(jobs.map((j) => j.id))).toEqual(new Set(ids));
    expect(await t.db.outboxJob.count({ where: { dispatchedAt: null } })).toBe(0);
  });

  it('takes the oldest rows first, one batch at a time, with the queue payload as job data', async () => {
    const base = Date.now() - 60_000;
    const ids = await insertRows(5, (i) => new Date(base + (5 - i) * 1000)); // inserted newest first
    const oldestFirst = [...ids].reverse();
    const enqueued: string[] = [];
    expect(await dispatchOutboxBatch({ db: t.db, queues: recording(enqueued), log: silent, batchSize: 2 })).toEqual({
      dispatched: 2,
      invalid: 0,
    });
    expect(enqueued).toEqual(oldestFirst.slice(0, 2));
    const row = await t.db.outboxJob.findUniqueOrThrow({ where: { id: oldestFirst[0]! } });
    expect(row.dispatchedAt).not.toBeNull();
    expect((await deliveryQueue().getJob(row.id))?.data).toEqual(row.payload);
  });

  it('dispatches a job written by enqueue in a transaction, its row id as the job id and its payload as the job data', async () => {
    const job = payload();
    const id = await t.db.$transaction((tx) => enqueue(tx, 'channel-delivery', job));
    expect(await dispatchOutboxBatch({ db: t.db, queues: registry, log: silent })).toEqual({ dispatched: 1, invalid: 0 });
    expect((await deliveryQueue().getJob(id))?.data).toEqual(job);
  });

  it('marks invalid rows dispatched with an error logged, without blocking the valid ones', async () => {
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'error' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
    const [valid] = await insertRows(1);
    const unknownQueue = randomUUID();
    const badPayload = randomUUID();
    const otherTenant = randomUUID();
    await t.db.outboxJob.createMany({
      data: [
        { id: unknownQueue, tenantId, queue: 'no-such-queue', payload: payload() },
        { id: badPayload, tenantId, queue: queues.channelDelivery.name, payload: { tenant_uuid: tenantId, message_uuid: 'not-a-uuid' } },
        {
          id: otherTenant,
          tenantId,
          queue: queues.channelDelivery.name,
          payload: { tenant_uuid: randomUUID(), message_uuid: randomUUID() },
        },
      ],
    });
    expect(await dispatchOutboxBatch({ db: t.db, queues: registry, log })).toEqual({ dispatched: 1, invalid: 3 });
    expect(await t.db.outboxJob.count({ where: { dispatchedAt: null } })).toBe(0);
    expect((await deliveryQueue().getWaiting()).map((j) => j.id)).toEqual([valid]);
    expect(lines.map((l) => [l.outboxJobId, l.msg]).sort()).toEqual(
      [unknownQueue, badPayload, otherTenant].map((id) => [id, 'invalid outbox job dropped']).sort(),
    );
    expect(lines.find((l) => l.outboxJobId === badPayload)?.reason).toMatch(/message_uuid/);
  });

  it('wakes on NOTIFY when a row is committed, without waiting for the next poll', async () => {
    const dispatcher = new OutboxDispatcher({ db: t.db, queues: registry, log: silent, pollMs: 60_000, listenUrl: t.url });
    dispatcher.start();
    try {
      // Once it listens and its first (empty) pass is over, only a notification can wake it.
      await vi.waitFor(
        async () => {
          const [activity] = await t.db.$queryRaw<{ listening: boolean; busy: number }[]>`
          SELECT coalesce(bool_or(query = ${`LISTEN ${OUTBOX_NOTIFY_CHANNEL}`} AND state = 'idle'), false) AS listening,
                 (count(*) FILTER (WHERE state <> 'idle' AND pid <> pg_backend_pid()))::int AS busy
          FROM pg_stat_activity WHERE datname = current_database()`;
          expect(activity).toEqual({ listening: true, busy: 0 });
        },
        { timeout: 3_000 },
      );
      const [id] = await insertRows(1);
      await vi.waitFor(async () => expect(await deliveryQueue().getJob(id!), 'the row dispatched').toBeTruthy(), { timeout: 3_000 });
    } finally {
      await dispatcher.stop();
    }
  });

  it('notifies only for a statement that inserted rows (an empty INSERT ... SELECT takes no notify lock)', async () => {
    const listener = new pg.Client({ connectionString: t.url });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(n.channel));
    try {
      await listener.query(`LISTEN ${OUTBOX_NOTIFY_CHANNEL}`);
      // The inbound statement's shape: a data-modifying CTE whose outbox insert selects nothing.
      await t.db
        .$executeRaw`WITH none AS (INSERT INTO "OutboxJob" (id, "tenantId", queue, payload) SELECT gen_random_uuid(), ${tenantId}::uuid, 'bot-step', '{}'::jsonb WHERE false) SELECT 1`;
      await t.db
        .$executeRaw`INSERT INTO "OutboxJob" (id, "tenantId", queue, payload) SELECT gen_random_uuid(), ${tenantId}::uuid, 'bot-step', '{}'::jsonb WHERE false`;
      // A round trip on the listening connection delivers anything already notified.
      await listener.query('SELECT 1');
      expect(heard).toEqual([]);
      await insertRows(2);
      await vi.waitFor(() => expect(heard.length, 'notifications heard').toBeGreaterThan(0), { timeout: 3_000 });
      await listener.query('SELECT 1');
      expect(heard).toEqual([OUTBOX_NOTIFY_CHANNEL]);
    } finally {
      await listener.end();
    }
  });

  it('polls when nothing notifies, and stops cleanly', async () => {
    const dispatcher = new OutboxDispatcher({ db: t.db, queues: registry, log: silent, pollMs: 50 });
    dispatcher.start();
    const [id] = await insertRows(1);
    await vi.waitFor(async () => expect(await deliveryQueue().getJob(id!), 'the row dispatched').toBeTruthy(), { timeout: 3_000 });
    await dispatcher.stop();
    const [late] = await insertRows(1);
    // A poll that does not happen sends no signal: four poll intervals give a loop left running time to take the row.
    await new Promise((r) => setTimeout(r, 200));
    expect(await deliveryQueue().getJob(late!)).toBeUndefined();
  });
});
