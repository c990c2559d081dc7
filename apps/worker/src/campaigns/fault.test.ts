import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { DEV_CHANNEL_SECRETS_KEY, encryptCredentials, parseSecretsKey } from '@atende/channels';
import { startWhatsAppSimulator, type WhatsAppSimulator } from '@atende/channels/whatsapp-simulator';
import { queues } from '@atende/contract';
import { ensureTenant } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 6 fault test: a 10,000-subscriber campaign sent by a real worker process at full speed (no
 * rate limit: batched claims and outcome writes, issue 13 item 4) that is killed (SIGKILL) mid-send,
 * restarted, and whose campaign is then stopped and started again. Every valid subscriber must
 * receive exactly one message: the simulator counts what it accepted, and the sends it refused as
 * repeats of an idempotency key it had already answered.
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
    env: { ...process.env, DATABASE_URL: t.url, REDIS_PREFIX: prefix, LOG_LEVEL: 'silent', CAMPAIGN_RATE_PER_SECOND: '0', OUTBOX_POLL_MS: '50', NODE_ENV: 'test', OUTBOUND_ALLOW_HOSTS: '127.0.0.1,localhost' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}
const accepted = () => sim.sent().filter((s) => s.answeredStatus === 200);
async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

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

describe('campaign sending survives a killed worker (issue 6)', () => {
  it('sends every subscriber exactly once across a SIGKILL, a restart and a stop/start', { timeout: 120_000 }, async () => {
    const db = t.db;
    const tenant = await ensureTenant(db, { name: 'Fault', users: { manager: ['campaign_manager'] }, emailDomain: 'fault.test', password: 'x1234567' });
    const channel = await db.channel.create({
      data: {
        tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, name: 'WhatsApp', type: 'whatsapp_360dialog', config: { base_url: sim.baseUrl, api_version: 'cloud' },
        credentialsEncrypted: encryptCredentials(credentials, parseSecretsKey(DEV_CHANNEL_SECRETS_KEY)),
      },
    });
    const template = await db.outboundTemplate.create({ data: { tenantId: tenant.tenantId, channelId: channel.id, name: 'f', language: 'pt_BR', category: 'MARKETING', status: 'APPROVED', components: [{ type: 'BODY', text: 'Oi {{1}}' }] } });
    const campaign = await db.campaign.create({
      data: { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, name: 'Fault', channelId: channel.id, templateId: template.id, createdById: tenant.users.manager!.id, config: { default_action: { action: 'end_with_message' } } },
    });
    await db.$executeRaw`INSERT INTO "CampaignSubscriber" (id, "tenantId", "campaignId", name, "phoneNumber", parameters, state, "updatedAt")
      SELECT gen_random_uuid(), ${tenant.tenantId}::uuid, ${campaign.id}::uuid, 'S' || g, '+55117' || lpad(g::text, 8, '0'), ARRAY['S' || g], 'pending', now() FROM generate_series(1, ${SUBSCRIBERS}) g`;
    const start = async () => {
      const c = await db.campaign.update({ where: { id: campaign.id }, data: { desiredState: 'running', runNumber: { increment: 1 } } });
      await db.outboxJob.create({ data: { tenantId: tenant.tenantId, queue: queues.campaignDispatch.name, payload: { tenant_uuid: tenant.tenantId, campaign_uuid: campaign.id, run: c.runNumber } } });
    };

    await start();
    const first = startWorker();
    await until('the first sends', () => accepted().length >= 2000, 60_000);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const atKill = accepted().length;
    expect(atKill).toBeLessThan(SUBSCRIBERS);
    // Sent by the provider but not yet written as sent (their batch's write had not come): the next
    // run sends these again under the same idempotency keys, and the provider drops them.
    const unwritten = atKill - (await db.campaignSubscriber.count({ where: { campaignId: campaign.id, state: 'sent' } }));

    startWorker();
    // Stop, then start again as a new run: the dead worker's lease lapses and the new run finishes.
    await db.campaign.update({ where: { id: campaign.id }, data: { desiredState: 'stopped' } });
    await start();
    await until('every subscriber sent', async () => (await db.campaignSubscriber.count({ where: { campaignId: campaign.id, state: 'sent' } })) === SUBSCRIBERS, 90_000);

    const phones = accepted().map((s) => String(s.body.to));
    expect(phones).toHaveLength(SUBSCRIBERS);
    expect(new Set(phones).size).toBe(SUBSCRIBERS);
    // The run ends with its own write after the last subscriber's: wait for it rather than race it.
    // Issue 14 item 5: a run that reached everyone ends 'sent' (its receipts awaited).
    await until('the run to end', async () => (await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).state === 'sent', 30_000);
    expect(await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({ state: 'sent', desiredState: 'sent' });
    // And nothing more went out while it ended.
    expect(accepted()).toHaveLength(SUBSCRIBERS);
    expect(sim.duplicatesDropped()).toBeGreaterThanOrEqual(unwritten);
  });
});
