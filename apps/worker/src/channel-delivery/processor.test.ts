import { randomBytes, randomUUID } from 'node:crypto';
import { channelAdapters, outboundClient, signWebhookBody, verifyFileLink } from '@atende/channels';
import { startCustomChannelSimulator, type CustomChannelSimulator } from '@atende/simulators/custom';
import { queues, RealtimeEnvelopeSchema, rooms, type ChannelDeliveryJob } from '@atende/contract';
import { presentMessage } from '@atende/conversations';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { channelDeliveryQueue, QueueRegistry, RealtimeOutbox, realtimeOutboxStream } from '@atende/queue';
import type { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { dispatchOutboxBatch } from '../outbox/dispatcher';
import { deliverMessage, OUTCOME_UNKNOWN, type ChannelDeliveryDeps } from './processor';
import { createAgentMessage, createDeliveryFixture, type DeliveryFixture } from './testing';
import { createChannelDeliveryWorker } from './worker';
// The tests' simulators listen on 127.0.0.1, listed as OUTBOUND_ALLOW_HOSTS would list them.
const LOCAL_OUTBOUND = outboundClient({ allowHosts: '127.0.0.1,localhost' });

const secret = 'whsec_test_delivery';
const fileLinkSecret = 'test-file-link-secret-0123456789-0123456789';
const secretsKey = randomBytes(32);
const prefix = `atende-test:${randomBytes(4).toString('hex')}:`;
// Retries in milliseconds instead of seconds: same attempts (5), injectable delay.
const FAST_RETRIES = { attempts: 5, backoff: { type: 'fixed', delay: 20 } } as const;

let t: TestDatabase;
let redis: Redis;
let sim: CustomChannelSimulator;
let queue: Queue<ChannelDeliveryJob>;
let worker: Worker;
let deps: ChannelDeliveryDeps;
let f: DeliveryFixture;

beforeAll(async () => {
  t = await createTestDatabase();
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  sim = await startCustomChannelSimulator({ secret });
  deps = {
    db: t.db,
    realtime: new RealtimeOutbox(redis, prefix),
    adapters: channelAdapters({ outbound: LOCAL_OUTBOUND, custom: { timeoutMs: 2_000 } }),
    secretsKey,
    publicUrl: 'https://atende.example',
    fileLinkSecret,
    log: pino({ level: 'silent' }),
  };
  queue = channelDeliveryQueue(redis, prefix);
  worker = createChannelDeliveryWorker(deps, { connection: redis, redisPrefix: prefix, concurrency: 2 });
  f = await createDeliveryFixture(t.db, { webhookUrl: sim.webhookUrl, webhookSecret: secret, secretsKey });
});
afterAll(async () => {
  await worker?.close();
  await queue?.obliterate({ force: true });
  await queue?.close();
  await redis?.del(realtimeOutboxStream(prefix));
  redis?.disconnect();
  await sim?.close();
  await t?.drop();
});
beforeEach(() => sim.reset());

async function deliver(messageId: string, tenantId = f.tenantId) {
  const job = await queue.add(
    queues.channelDelivery.name,
    { tenant_uuid: tenantId, message_uuid: messageId },
    { ...FAST_RETRIES, jobId: randomUUID() },
  );
  const state = await vi.waitFor(
    async () => {
      const s = await job.getState();
      expect(['completed', 'failed'], 'the delivery job finished').toContain(s);
      return s;
    },
    { timeout: 15_000, interval: 25 },
  );
  return { state, job: (await queue.getJob(job.id!))! };
}

async function acksFor(messageId: string) {
  const entries = await redis.xrange(realtimeOutboxStream(prefix), '-', '+');
  return entries
    .map(([, fields]) => RealtimeEnvelopeSchema.parse(JSON.parse(fields[1]!)))
    .filter((e) => e.event === 'messages-ack' && JSON.stringify(e.payload).includes(messageId));
}

describe('channel delivery: custom API channel', () => {
  it('posts a correctly signed body for an outbox row, marks the message sent and tells the conversation audience', async () => {
    const file = await t.db.storedFile.create({
      data: { tenantId: f.tenantId, originalFilename: 'boleto.pdf', contentType: 'application/pdf', size: 10, storageKey: 'k' },
    });
    const messageId = await createAgentMessage(t.db, f, { content: 'Segue o boleto', annexId: file.id });
    // What the api writes in the transaction that stores the message.
    await t.db.outboxJob.create({
      data: { tenantId: f.tenantId, queue: queues.channelDelivery.name, payload: { tenant_uuid: f.tenantId, message_uuid: messageId } },
    });
    const registry = new QueueRegistry(redis, prefix);
    await dispatchOutboxBatch({ db: t.db, queues: registry, log: deps.log, jobOptions: FAST_RETRIES });
    await registry.close();

    const [request] = await sim.waitForRequests(1);
    const message = await vi.waitFor(
      async () => {
        const m = await t.db.message.findUniqueOrThrow({ where: { id: messageId } });
        expect(m.state).toBe('sent');
        return m;
      },
      { timeout: 10_000, interval: 25 },
    );
    // The simulator only records requests whose signature it verified; check the header format too.
    expect(signWebhookBody(request!.rawBody, secret)).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(request!.idempotencyKey).toBe(messageId);
    expect(request!.body).toEqual({
      event: 'message',
      message: {
        uuid: messageId,
        conversation_uuid: f.conversationId,
        content: 'Segue o boleto',
        annex: {
          url: expect.stringMatching(`^https://atende\\.example/api/v1/storage/files/${file.id}/signed\\?`),
          content_type: 'application/pdf',
          original_filename: 'boleto.pdf',
        },
        author: 'USER',
        created_at: message.createdAt.toISOString(),
      },
      contact: { uuid: f.contactId, phone_number: '+5511987654321', identifier: expect.stringMatching(/^ext-/) },
    });
    // The receiver has no session: the annex is a link the api verifies, valid for 24 h.
    const annex = new URL(request!.body.message.annex!.url);
    const expires = Number(annex.searchParams.get('expires'));
    expect(expires * 1000 - Date.now()).toBeGreaterThan(24 * 3600 * 1000 - 60_000);
    expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(24 * 3600 * 1000);
    expect(verifyFileLink(fileLinkSecret, file.id, expires, annex.searchParams.get('signature')!)).toBe('valid');
    // Sent (check tick), no longer sending.
    expect(message).toMatchObject({ state: 'sent', status: null, externalId: 'sim-1', errorMessage: null });

    // Emitted right after the state is stored.
    const acks = await vi.waitFor(
      async () => {
        const found = await acksFor(messageId);
        expect(found, 'messages-ack').toHaveLength(2);
        return found;
      },
      { timeout: 5_000, interval: 25 },
    );
    const payload = {
      tenant_uuid: f.tenantId,
      conversation_uuid: f.conversationId,
      messages: [{ uuid: messageId, state: 'sent', status: null }],
    };
    expect(acks.map((a) => a.room).sort()).toEqual([rooms.conversation(f.tenantId, f.conversationId), rooms.user(f.agent.uuid)].sort());
    for (const ack of acks) expect(ack.payload).toEqual(payload);
  });

  it('delivers once after a retry when the webhook answers 500 then 200', async () => {
    const messageId = await createAgentMessage(t.db, f);
    sim.failNext(1, 500);
    const { state, job } = await deliver(messageId);
    expect(state).toBe('completed');
    expect(job.attemptsMade).toBe(2);
    expect(sim.requests.map((r) => r.answeredStatus)).toEqual([500, 200]);
    expect(sim.delivered()).toHaveLength(1);
    expect(new Set(sim.requests.map((r) => r.idempotencyKey))).toEqual(new Set([messageId]));
    expect(await t.db.message.findUniqueOrThrow({ where: { id: messageId } })).toMatchObject({ state: 'sent', status: null });
    // Only the final state reached the agent: no "failed" flash during the retry.
    expect((await acksFor(messageId)).map((a) => (a.payload as { messages: { status: string | null }[] }).messages[0]!.status)).toEqual([
      null,
      null,
    ]);
  });

  it('never posts again a message whose answer was lost, nor one a killed worker was posting: failed, outcome unknown', async () => {
    // The receiver takes the message but answers after the adapter's 2 s time-out.
    const lost = await createAgentMessage(t.db, f);
    sim.slowNext(1, 2_500);
    const first = await deliver(lost);
    expect([first.state, first.job.attemptsMade]).toEqual(['completed', 1]);
    await sim.waitForRequests(1);
    expect(await t.db.message.findUniqueOrThrow({ where: { id: lost } })).toMatchObject({
      state: 'pending',
      status: 'failed',
      errorMessage: expect.stringContaining(OUTCOME_UNKNOWN),
    });
    // A job that runs again posts nothing.
    expect((await deliver(lost)).state).toBe('completed');
    expect(sim.requests).toHaveLength(1);

    // A worker killed (kill -9) after it began posting: the message is left 'sending' with postedAt set.
    const killed = await createAgentMessage(t.db, f);
    await t.db.message.update({ where: { id: killed }, data: { postedAt: new Date() } });
    expect((await deliver(killed)).state).toBe('completed');
    expect(sim.requests).toHaveLength(1);
    expect(await t.db.message.findUniqueOrThrow({ where: { id: killed } })).toMatchObject({
      state: 'pending',
      status: 'failed',
      errorMessage: OUTCOME_UNKNOWN,
    });
    expect((await acksFor(killed)).map((a) => (a.payload as { messages: { status: string | null }[] }).messages[0]!.status)).toEqual([
      'failed',
      'failed',
    ]);

    // The agent's knowing resend (the api clears postedAt) posts it.
    await t.db.message.update({ where: { id: killed }, data: { status: 'sending', errorMessage: null, postedAt: null } });
    expect((await deliver(killed)).state).toBe('completed');
    expect(sim.requests).toHaveLength(2);
    expect(await t.db.message.findUniqueOrThrow({ where: { id: killed } })).toMatchObject({ state: 'sent', status: null });
  });

  it('marks the message failed without retrying when the webhook answers 400', async () => {
    const messageId = await createAgentMessage(t.db, f);
    sim.failNext(1, 400);
    const { state, job } = await deliver(messageId);
    expect(state).toBe('completed');
    expect(job.returnvalue).toMatchObject({ outcome: 'failed' });
    expect(sim.requests).toHaveLength(1);
    // Failed for good: the reason goes to the bubble at once, and no retry is offered (it would be refused again).
    const stored = await t.db.message.findUniqueOrThrow({ where: { id: messageId } });
    expect(stored).toMatchObject({
      state: 'pending',
      status: 'failed',
      errorMessage: 'Webhook answered HTTP 400 Bad Request',
    });
    expect(presentMessage(stored)).toMatchObject({ status: 'failed', retryable: false, delivered: false });
    const acks = await acksFor(messageId);
    expect(acks).toHaveLength(2);
    expect(acks[0]!.payload).toMatchObject({
      messages: [
        { uuid: messageId, state: 'pending', status: 'failed', error_message: 'Webhook answered HTTP 400 Bad Request', retryable: false },
      ],
    });
  });

  it('closes an outbound conversation whose starting template failed, tagged template-send-error; a later failure closes nothing', async () => {
    const started = await t.db.conversation.create({
      data: {
        tenantId: f.tenantId,
        workspaceId: f.workspaceId,
        contactId: f.contactId,
        channelId: f.channelId,
        userId: f.agent.id,
        state: 'outbound_started',
        ticketNumber: 900,
      },
    });
    const template = await t.db.message.create({
      data: {
        id: randomUUID(),
        tenantId: f.tenantId,
        conversationId: started.id,
        author: 'USER',
        userId: f.agent.id,
        content: 'Olá {{1}}',
        templateMessage: { name: 'boas_vindas', language: 'pt_BR' },
        state: 'pending',
        status: 'sending',
      },
    });
    sim.failNext(1, 400);
    const { job } = await deliver(template.id);
    expect(job.returnvalue).toMatchObject({ outcome: 'failed' });
    expect(await t.db.message.findUniqueOrThrow({ where: { id: template.id } })).toMatchObject({
      status: 'failed',
      tags: ['template-send-error'],
    });
    expect(await t.db.conversation.findUniqueOrThrow({ where: { id: started.id } })).toMatchObject({ state: 'closed', endedBy: 'system' });
    // The agent hears it: update-conversation with the tag on its last message, so the screen shows the error and Close.
    const entries = await redis.xrange(realtimeOutboxStream(prefix), '-', '+');
    const updates = entries
      .map(([, fields]) => RealtimeEnvelopeSchema.parse(JSON.parse(fields[1]!)))
      .filter(
        (e) => e.event === 'update-conversation' && e.room === rooms.user(f.agent.uuid) && JSON.stringify(e.payload).includes(started.id),
      );
    expect(updates.at(-1)?.payload).toMatchObject({
      conversation: { uuid: started.id, state: 'closed', last_message: { tags: ['template-send-error'] } },
    });

    // A plain message failing in an answered conversation (the fixture's) closes nothing.
    const plain = await createAgentMessage(t.db, f);
    sim.failNext(1, 400);
    await deliver(plain);
    expect(await t.db.conversation.findUniqueOrThrow({ where: { id: f.conversationId } })).toMatchObject({ state: 'answered' });
    expect((await t.db.message.findUniqueOrThrow({ where: { id: plain } })).tags).toEqual([]);
  });

  it('marks the message failed after five transient failures (5xx, 429, 408)', async () => {
    const messageId = await createAgentMessage(t.db, f);
    sim.failNext(3, 500);
    sim.failNext(1, 429);
    sim.failNext(1, 408);
    const { state, job } = await deliver(messageId);
    expect(state).toBe('failed');
    expect(job.attemptsMade).toBe(5);
    expect(sim.requests.map((r) => r.answeredStatus)).toEqual([500, 500, 500, 429, 408]);
    expect(await t.db.message.findUniqueOrThrow({ where: { id: messageId } })).toMatchObject({
      state: 'pending',
      status: 'failed',
      errorMessage: expect.stringContaining('408'),
    });
    // After the last transient failure the agent may try again.
    const failedAck = {
      tenant_uuid: f.tenantId,
      conversation_uuid: f.conversationId,
      messages: [{ uuid: messageId, state: 'pending', status: 'failed', error_message: expect.stringContaining('408'), retryable: true }],
    };
    expect((await acksFor(messageId)).map((a) => a.payload)).toEqual([failedAck, failedAck]);
    expect(presentMessage(await t.db.message.findUniqueOrThrow({ where: { id: messageId } }))).toMatchObject({ retryable: true });
  });

  it('never posts an internal note', async () => {
    const flagged = await createAgentMessage(t.db, f, { internal: true });
    const tagged = await createAgentMessage(t.db, f, { tags: ['internal-message'] });
    for (const id of [flagged, tagged]) {
      const { state, job } = await deliver(id);
      expect(state).toBe('completed');
      expect(job.returnvalue).toEqual({ outcome: 'skipped', reason: 'internal_note' });
      expect(await t.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'pending', status: 'sending' });
    }
    expect(sim.requests).toHaveLength(0);
  });

  it('does not post again when a completed job runs again', async () => {
    const messageId = await createAgentMessage(t.db, f);
    expect((await deliver(messageId)).state).toBe('completed');
    // A second job for the same message (e.g. re-dispatched after BullMQ forgot the first) ...
    const again = await deliver(messageId);
    expect(again.job.returnvalue).toEqual({ outcome: 'skipped', reason: 'already_sent' });
    // ... and the processor called directly, as a retried attempt would.
    expect(await deliverMessage(deps, { tenant_uuid: f.tenantId, message_uuid: messageId }, { finalAttempt: false })).toEqual({
      outcome: 'skipped',
      reason: 'already_sent',
    });
    expect(sim.requests).toHaveLength(1);
  });

  it('finds nothing when the job names another tenant than the message belongs to', async () => {
    const messageId = await createAgentMessage(t.db, f);
    const other = await createDeliveryFixture(t.db, { webhookUrl: sim.webhookUrl, webhookSecret: secret, secretsKey });
    const result = await deliverMessage(deps, { tenant_uuid: other.tenantId, message_uuid: messageId }, { finalAttempt: true });
    expect(result).toEqual({ outcome: 'skipped', reason: 'not_found' });
    expect(sim.requests).toHaveLength(0);
  });

  it('fails permanently, without any request, when the webhook URL is not http(s) or the secret cannot be read', async () => {
    const badUrl = await createDeliveryFixture(t.db, { webhookUrl: 'file:///etc/passwd', webhookSecret: secret, secretsKey });
    const wrongKey = await createDeliveryFixture(t.db, { webhookUrl: sim.webhookUrl, webhookSecret: secret, secretsKey: randomBytes(32) });
    for (const [fixture, reason] of [
      [badUrl, 'must be http or https'],
      [wrongKey, 'credentials could not be read'],
    ] as const) {
      const id = await createAgentMessage(t.db, fixture);
      expect(await deliverMessage(deps, { tenant_uuid: fixture.tenantId, message_uuid: id }, { finalAttempt: false })).toEqual({
        outcome: 'failed',
        reason: expect.stringContaining(reason),
      });
      expect(await t.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'failed' });
    }
    expect(sim.requests).toHaveLength(0);
    expect(sim.rejected).toHaveLength(0);
  });
});

describe('channel delivery: livechat channel', () => {
  it('marks an agent reply sent by storing it: nothing is posted and no delivery failure is recorded', async () => {
    const livechat = await createDeliveryFixture(t.db, {
      webhookUrl: sim.webhookUrl,
      webhookSecret: secret,
      secretsKey,
      channelType: 'livechat',
    });
    const messageId = await createAgentMessage(t.db, livechat);
    const { state, job } = await deliver(messageId, livechat.tenantId);
    expect(state).toBe('completed');
    expect(job.returnvalue).toEqual({ outcome: 'sent', externalId: null });
    expect(await t.db.message.findUniqueOrThrow({ where: { id: messageId } })).toMatchObject({
      state: 'sent',
      status: null,
      errorMessage: null,
    });
    expect(sim.requests).toHaveLength(0);
  });
});
