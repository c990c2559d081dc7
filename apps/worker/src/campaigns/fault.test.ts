import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { DEV_CHANNEL_SECRETS_KEY, encryptCredentials, parseSecretsKey } from '@atende/channels';
import { startWhatsAppSimulator, type WhatsAppSimulator } from '@atende/simulators/whatsapp';
import { queues } from '@atende/contract';
import { ensureTenant } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { applyCampaignReceipt } from './receipts';

/**
 * Fault test, against a provider that drops no repeat (the 360dialog
 * simulator is as strict as 360dialog, which documents no idempotency key): a 10,000-subscriber
 * campaign sent by a real worker process at full speed (no rate limit) that is killed (SIGKILL)
 * mid-send, restarted, and whose campaign is then stopped and started again. The simulator counts
 * the messages each phone got: no phone gets two (0 duplicates), and every subscriber ends sent,
 * error or unknown, each message the provider took belonging to a row sent or unknown (0 silent
 * losses). The unknown ones (their request was in flight at the kill) are then settled by their
 * receipts, which carry the subscriber's id (biz_opaque_callback_data).
 */
const SUBSCRIBERS = 10_000;
const WORKER = fileURLToPath(new URL('../worker.ts', import.meta.url));
const prefix = `atende-fault:${randomBytes(4).toString('hex')}:`;
const credentials = { api_key: 'k', webhook_secret: 'w' };
let t: TestDatabase;
let sim: WhatsAppSimulator;
let redis: Redis;
const children: ChildProcess[] = [];

function startWorker(): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
    env: {
      ...process.env,
      DATABASE_URL: t.url,
      REDIS_PREFIX: prefix,
      LOG_LEVEL: 'silent',
      CAMPAIGN_RATE_PER_SECOND: '0',
      OUTBOX_POLL_MS: '50',
      NODE_ENV: 'test',
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1,localhost',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}
const accepted = () => sim.delivered();
/** Sends in flight at once in the worker (dispatch.ts default). */
const CONCURRENCY = 32;

beforeAll(async () => {
  t = await createTestDatabase();
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  sim = await startWhatsAppSimulator({ provider: '360dialog', credentials });
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await sim?.close();
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  redis?.disconnect();
  await t?.drop();
});

describe('campaign sending survives a killed worker', () => {
  it(
    'sends no subscriber twice and loses none across a SIGKILL, a restart and a stop/start, on a provider that drops no repeat',
    { timeout: 150_000 },
    async () => {
      const db = t.db;
      const tenant = await ensureTenant(db, {
        name: 'Fault',
        users: { manager: ['campaign_manager'] },
        emailDomain: 'fault.test',
        password: 'x1234567',
      });
      const channel = await db.channel.create({
        data: {
          tenantId: tenant.tenantId,
          workspaceId: tenant.workspaceId,
          name: 'WhatsApp',
          type: 'whatsapp_360dialog',
          config: { base_url: sim.baseUrl, api_version: 'cloud' },
          credentialsEncrypted: encryptCredentials(credentials, parseSecretsKey(DEV_CHANNEL_SECRETS_KEY)),
        },
      });
      const template = await db.outboundTemplate.create({
        data: {
          tenantId: tenant.tenantId,
          channelId: channel.id,
          name: 'f',
          language: 'pt_BR',
          category: 'MARKETING',
          status: 'APPROVED',
          components: [{ type: 'BODY', text: 'Oi {{1}}' }],
        },
      });
      const campaign = await db.campaign.create({
        data: {
          tenantId: tenant.tenantId,
          workspaceId: tenant.workspaceId,
          name: 'Fault',
          channelId: channel.id,
          templateId: template.id,
          createdById: tenant.users.manager!.id,
          config: { default_action: { action: 'end_with_message' } },
        },
      });
      await db.$executeRaw`INSERT INTO "CampaignSubscriber" (id, "tenantId", "campaignId", name, "phoneNumber", parameters, state, "updatedAt")
      SELECT gen_random_uuid(), ${tenant.tenantId}::uuid, ${campaign.id}::uuid, 'S' || g, '+55117' || lpad(g::text, 8, '0'), ARRAY['S' || g], 'pending', now() FROM generate_series(1, ${SUBSCRIBERS}) g`;
      const start = async () => {
        const c = await db.campaign.update({ where: { id: campaign.id }, data: { desiredState: 'running', runNumber: { increment: 1 } } });
        await db.outboxJob.create({
          data: {
            tenantId: tenant.tenantId,
            queue: queues.campaignDispatch.name,
            payload: { tenant_uuid: tenant.tenantId, campaign_uuid: campaign.id, run: c.runNumber },
          },
        });
      };

      await start();
      const first = startWorker();
      await vi.waitFor(() => expect(accepted().length, 'the first sends').toBeGreaterThanOrEqual(2000), { timeout: 60_000, interval: 100 });
      first.kill('SIGKILL');
      await new Promise((r) => first.once('exit', r));
      const atKill = accepted().length;
      expect(atKill).toBeLessThan(SUBSCRIBERS);
      // What the kill left undecided is the requests in flight (and the outcomes of one write), not a batch of 500.
      const inFlight = await db.campaignSubscriber.count({ where: { campaignId: campaign.id, state: 'sending' } });
      expect(inFlight).toBeLessThanOrEqual(2 * CONCURRENCY);
      const written = await db.campaignSubscriber.count({ where: { campaignId: campaign.id, state: 'sent' } });
      expect(atKill - written).toBeLessThanOrEqual(inFlight);

      startWorker();
      // Stop, then start again as a new run: the dead worker's lease lapses and the new run finishes.
      await db.campaign.update({ where: { id: campaign.id }, data: { desiredState: 'stopped' } });
      await start();
      const states = async () =>
        Object.fromEntries(
          (await db.campaignSubscriber.groupBy({ by: ['state'], where: { campaignId: campaign.id }, _count: { _all: true } })).map((g) => [
            g.state,
            g._count._all,
          ]),
        );
      await vi.waitFor(
        async () => {
          const now = await states();
          expect((now.sent ?? 0) + (now.error ?? 0) + (now.unknown ?? 0), 'subscribers decided').toBe(SUBSCRIBERS);
        },
        { timeout: 90_000, interval: 100 },
      );
      // The run ends with its own write after the last subscriber's: wait for it rather than race it.
      // A run that reached everyone ends 'sent' (its receipts awaited).
      await vi.waitFor(async () => expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).state).toBe('sent'), {
        timeout: 30_000,
        interval: 100,
      });
      expect(await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({ state: 'sent', desiredState: 'sent' });

      // Provider-side receipts per phone: nobody got two messages.
      expect(sim.duplicates()).toEqual({});
      const perPhone = new Map<string, number>();
      for (const s of accepted()) perPhone.set(s.to, (perPhone.get(s.to) ?? 0) + 1);
      expect([...perPhone.values()].filter((n) => n > 1)).toEqual([]);
      // No silent loss: every row is sent, error or unknown; every sent row's phone got its message; a
      // message the provider took belongs to a row sent or unknown.
      const rows = await db.campaignSubscriber.findMany({
        where: { campaignId: campaign.id },
        select: { id: true, phoneNumber: true, state: true },
      });
      expect(rows.filter((r) => !['sent', 'error', 'unknown'].includes(r.state))).toEqual([]);
      const stateOf = new Map(rows.map((r) => [r.phoneNumber.slice(1), r.state]));
      expect(rows.filter((r) => r.state === 'sent' && perPhone.get(r.phoneNumber.slice(1)) !== 1)).toEqual([]);
      expect([...perPhone.keys()].filter((phone) => !['sent', 'unknown'].includes(stateOf.get(phone) ?? ''))).toEqual([]);
      const unknown = rows.filter((r) => r.state === 'unknown');
      expect(unknown.length).toBeLessThanOrEqual(inFlight);

      // The unknown ones that reached the provider are settled by their receipts (the subscriber's id
      // comes back as biz_opaque_callback_data); what never reached it stays unknown, for the manager.
      const tookThem = accepted().filter((s) => stateOf.get(s.to) === 'unknown');
      for (const s of tookThem) {
        await applyCampaignReceipt(db, tenant.tenantId, channel.id, {
          kind: 'status',
          externalId: s.id,
          status: 'delivered',
          error: null,
          at: new Date(),
          callbackData: String(s.body.biz_opaque_callback_data),
        });
      }
      expect(await db.campaignSubscriber.count({ where: { campaignId: campaign.id, state: 'sent' } })).toBe(accepted().length);
      expect(await db.campaignSubscriber.count({ where: { campaignId: campaign.id, state: 'unknown' } })).toBe(
        unknown.length - tookThem.length,
      );
      expect(accepted()).toHaveLength(SUBSCRIBERS - (unknown.length - tookThem.length));
    },
  );
});
