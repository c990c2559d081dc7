import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Prisma } from '../generated/prisma/client';
import { ensureTenant } from './fixtures';
import { checkJob, enqueue, enqueueMany, enqueueSql, OutboxPayloadError } from './outbox';
import { createTestDatabase, type TestDatabase } from './testing';

let t: TestDatabase;
let tenantId: string;

beforeAll(async () => {
  t = await createTestDatabase();
  tenantId = (await ensureTenant(t.db, { name: 'Outbox producers', users: {}, emailDomain: 'outbox-producers.test', password: 'x1234567' }))
    .tenantId;
});
afterAll(async () => {
  await t?.drop();
});
beforeEach(async () => {
  await t.db.outboxJob.deleteMany();
});

describe('enqueue', () => {
  it('writes one row whose tenant is the payload tenant and whose id is answered (the BullMQ job id)', async () => {
    const payload = { tenant_uuid: tenantId, campaign_uuid: randomUUID(), run: 3 };
    const id = await t.db.$transaction((tx) => enqueue(tx, 'campaign-dispatch', payload));
    const rows = await t.db.outboxJob.findMany();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id, tenantId, queue: 'campaign-dispatch', payload, dispatchedAt: null });
  });

  it('refuses a payload its queue schema rejects inside the transaction, so nothing of it is written', async () => {
    const attempt = t.db.$transaction(async (tx) => {
      await enqueue(tx, 'bot-step', { tenant_uuid: tenantId, conversation_uuid: randomUUID() });
      await enqueue(tx, 'channel-delivery', { tenant_uuid: tenantId, message_uuid: 'not-a-uuid' });
    });
    await expect(attempt).rejects.toThrow(OutboxPayloadError);
    await expect(attempt).rejects.toThrow(/^Invalid channel-delivery job: message_uuid: /);
    // The valid job written before it rolled back with the transaction.
    expect(await t.db.outboxJob.count()).toBe(0);
  });

  it('names the failing fields without their values', async () => {
    const secret = 'the contact wrote this';
    const error = await enqueue(t.db, 'channel-inbound', {
      tenant_uuid: tenantId,
      channel_uuid: randomUUID(),
      content_type: 'text/plain',
      raw_body: secret,
      received_at: secret,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboxPayloadError);
    expect((error as Error).message).toMatch(/received_at/);
    expect((error as Error).message).not.toContain(secret);
    expect(await t.db.outboxJob.count()).toBe(0);
  });

  it('is typed by the queue name: a field of the wrong type or a queue outside the outbox does not compile', async () => {
    // @ts-expect-error run is a number in the campaign-dispatch schema
    const wrongType = enqueue(t.db, 'campaign-dispatch', { tenant_uuid: tenantId, campaign_uuid: randomUUID(), run: '1' });
    await expect(wrongType).rejects.toThrow(/^Invalid campaign-dispatch job: run: /);
    // @ts-expect-error maintenance jobs belong to no tenant and are scheduled by the worker, not written here
    const maintenance = enqueue(t.db, 'maintenance', { kind: 'prune-outbox' });
    await expect(maintenance).rejects.toThrow(OutboxPayloadError);
    expect(await t.db.outboxJob.count()).toBe(0);
  });
});

describe('enqueueMany', () => {
  it('writes every job of one queue in one statement', async () => {
    const payloads = Array.from({ length: 3 }, () => ({ tenant_uuid: tenantId, message_uuid: randomUUID() }));
    expect(await enqueueMany(t.db, 'channel-delivery', payloads)).toBe(3);
    const rows = await t.db.outboxJob.findMany({ orderBy: { createdAt: 'asc' } });
    expect(rows.map((r) => r.payload)).toEqual(expect.arrayContaining(payloads));
    expect(rows.every((r) => r.tenantId === tenantId && r.queue === 'channel-delivery')).toBe(true);
    expect(await enqueueMany(t.db, 'channel-delivery', [])).toBe(0);
  });

  it('writes none when one payload is invalid', async () => {
    const payloads = [
      { tenant_uuid: tenantId, message_uuid: randomUUID() },
      { tenant_uuid: 'nobody', message_uuid: randomUUID() },
    ];
    await expect(enqueueMany(t.db, 'channel-delivery', payloads)).rejects.toThrow(/^Invalid channel-delivery job: tenant_uuid: /);
    expect(await t.db.outboxJob.count()).toBe(0);
  });
});

describe('enqueueSql', () => {
  it('writes one job per row of its FROM inside a larger statement, with values and column expressions merged', async () => {
    const conversations = [randomUUID(), randomUUID()];
    const at = new Date('2026-01-02T03:04:05.678Z');
    const written = await t.db.$queryRaw<{ n: bigint }[]>`
      WITH source AS (SELECT unnest(${conversations}::uuid[]) AS id, ${tenantId}::uuid AS "tenantId"),
      queued AS (${enqueueSql('bot-step', { tenant_uuid: Prisma.sql`source."tenantId"`, conversation_uuid: Prisma.sql`source.id` }, Prisma.sql`FROM source`, at)} RETURNING 1)
      SELECT count(*) AS n FROM queued`;
    expect(Number(written[0]?.n)).toBe(2);
    const rows = await t.db.outboxJob.findMany();
    expect(rows.map((r) => r.payload)).toEqual(
      expect.arrayContaining(conversations.map((id) => ({ tenant_uuid: tenantId, conversation_uuid: id }))),
    );
    expect(rows.every((r) => r.tenantId === tenantId && r.queue === 'bot-step' && r.createdAt.getTime() === at.getTime())).toBe(true);

    await t.db.outboxJob.deleteMany();
    const messageId = randomUUID();
    const jobOf = (deliver: boolean) =>
      enqueueSql('channel-delivery', { tenant_uuid: tenantId, message_uuid: messageId }, Prisma.sql`WHERE ${deliver}::boolean`);
    await t.db.$executeRaw`WITH queued AS (${jobOf(false)}) SELECT 1`;
    expect(await t.db.outboxJob.count()).toBe(0);
    await t.db.$executeRaw`WITH queued AS (${jobOf(true)}) SELECT 1`;
    expect((await t.db.outboxJob.findFirstOrThrow()).payload).toEqual({ tenant_uuid: tenantId, message_uuid: messageId });
  });

  it('refuses an invalid value, a missing field or an unknown one before any SQL runs', () => {
    expect(() => enqueueSql('bot-step', { tenant_uuid: 'x', conversation_uuid: Prisma.sql`id` }, Prisma.sql``)).toThrow(
      /^Invalid bot-step job: tenant_uuid: /,
    );
    // @ts-expect-error conversation_uuid is required
    expect(() => enqueueSql('bot-step', { tenant_uuid: tenantId }, Prisma.sql``)).toThrow(
      'Invalid bot-step job: conversation_uuid: missing',
    );
    const id = Prisma.sql`id`;
    // @ts-expect-error message_uuid is not a bot-step field
    expect(() => enqueueSql('bot-step', { tenant_uuid: tenantId, conversation_uuid: id, message_uuid: id }, Prisma.sql``)).toThrow(
      'Invalid bot-step job: message_uuid: not in the schema',
    );
  });
});

describe('checkJob', () => {
  it('answers the parsed payload of a known queue and a reason for an unknown queue or a bad payload', () => {
    const payload = { tenant_uuid: tenantId, conversation_uuid: randomUUID() };
    expect(checkJob('bot-step', payload)).toEqual({ ok: true, queue: 'bot-step', data: payload });
    expect(checkJob('no-such-queue', payload)).toEqual({ ok: false, reason: 'unknown queue "no-such-queue"' });
    expect(checkJob('bot-step', { tenant_uuid: tenantId })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^conversation_uuid: /),
    });
  });
});
