import { randomBytes } from 'node:crypto';
import { RealtimeEnvelopeSchema } from '@atende/contract';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RealtimeOutbox, realtimeOutboxStream } from './outbox';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const prefix = `atende-test:${randomBytes(4).toString('hex')}:`;
afterAll(async () => {
  await redis.del(realtimeOutboxStream(prefix));
  redis.disconnect();
});

describe('RealtimeOutbox', () => {
  it('appends a typed envelope the api relay can parse', async () => {
    const outbox = new RealtimeOutbox(redis, prefix);
    const tenant = '6f0b7c1e-6a55-4b0e-9a59-2b1c6f4f2a11';
    await outbox.emit(`tenant_${tenant}_metrics`, 'waiting-queue', { tenant_uuid: tenant, quantity_waiting_queue: 3 });
    const entries = await redis.xrange(realtimeOutboxStream(prefix), '-', '+');
    expect(entries).toHaveLength(1);
    const [, fields] = entries[0]!;
    expect(fields[0]).toBe('envelope');
    const envelope = RealtimeEnvelopeSchema.parse(JSON.parse(fields[1]!));
    expect(envelope).toEqual({
      room: `tenant_${tenant}_metrics`,
      event: 'waiting-queue',
      payload: { tenant_uuid: tenant, quantity_waiting_queue: 3 },
    });
  });

  it('writes an audience of several rooms as one envelope per room, which every api relay reads', async () => {
    const outbox = new RealtimeOutbox(redis, prefix);
    const tenant = '6f0b7c1e-6a55-4b0e-9a59-2b1c6f4f2a11';
    const before = (await redis.xrange(realtimeOutboxStream(prefix), '-', '+')).length;
    await outbox.emit([`tenant_${tenant}_metrics`, `tenant_${tenant}`], 'waiting-queue', {
      tenant_uuid: tenant,
      quantity_waiting_queue: 4,
    });
    const entries = (await redis.xrange(realtimeOutboxStream(prefix), '-', '+')).slice(before);
    expect(entries.map(([, fields]) => RealtimeEnvelopeSchema.parse(JSON.parse(fields[1]!)).room)).toEqual([
      `tenant_${tenant}_metrics`,
      `tenant_${tenant}`,
    ]);
  });

  it('refuses a payload that does not match the event schema', async () => {
    const outbox = new RealtimeOutbox(redis, prefix);
    await expect(outbox.emit('room', 'waiting-queue', { tenant_uuid: 'not-a-uuid', quantity_waiting_queue: 1 } as never)).rejects.toThrow();
  });
});
