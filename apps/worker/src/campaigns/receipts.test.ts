import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { channelAdapters, encryptCredentials, outboundClient, parseSecretsKey } from '@atende/channels';
import type { ChannelInboundJob } from '@atende/contract';
import { settleCampaign } from '@atende/conversations';
import { ensureTenant } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { RealtimeOutbox, realtimeOutboxStream } from '@atende/queue';
import { LocalDiskDriver } from '@atende/storage';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processInbound, type ChannelInboundDeps } from '../channel-inbound/processor';
import { settleSentCampaigns } from './receipts';

/**
 * WhatsApp status webhooks (Cloud API bodies, as 360dialog forwards them) move
 * each campaign subscriber's delivery, and finished campaigns settle into their final state.
 */
const prefix = `atende-test:${randomBytes(4).toString('hex')}:`;
const secretsKey = parseSecretsKey(Buffer.alloc(32, 5).toString('base64'));
let t: TestDatabase;
let redis: Redis;
let storageDir: string;
let deps: ChannelInboundDeps;
let tenant: Awaited<ReturnType<typeof ensureTenant>>;
let channelId: string;
let templateId: string;
let phoneSeq = 0;

beforeAll(async () => {
  t = await createTestDatabase();
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  storageDir = await mkdtemp(join(tmpdir(), 'atende-receipts-'));
  const adapters = channelAdapters({ outbound: outboundClient({ allowHosts: '127.0.0.1' }) });
  deps = {
    db: t.db,
    realtime: new RealtimeOutbox(redis, prefix),
    adapters,
    secretsKey,
    storage: new LocalDiskDriver(storageDir),
    log: pino({ level: 'silent' }),
  };
  tenant = await ensureTenant(t.db, {
    name: 'Receipts',
    users: { manager: ['campaign_manager'] },
    emailDomain: 'receipts.test',
    password: 'x1234567',
    sectors: ['Vendas'],
  });
  const credentials = { api_key: 'k', webhook_secret: 'h' };
  channelId = (
    await t.db.channel.create({
      data: {
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        name: 'WhatsApp',
        type: 'whatsapp_360dialog',
        config: { base_url: 'http://127.0.0.1:9', api_version: 'cloud' },
        credentialsEncrypted: encryptCredentials(credentials, secretsKey),
      },
    })
  ).id;
  templateId = (
    await t.db.outboundTemplate.create({
      data: {
        tenantId: tenant.tenantId,
        channelId,
        name: 'oferta',
        language: 'pt_BR',
        category: 'MARKETING',
        status: 'APPROVED',
        components: [{ type: 'BODY', text: 'Olá' }],
      },
    })
  ).id;
});
afterAll(async () => {
  await redis?.del(realtimeOutboxStream(prefix));
  redis?.disconnect();
  await t?.drop();
  await rm(storageDir, { recursive: true, force: true });
});

const newCampaign = (data: { state: string; finishedAt?: Date } = { state: 'sent' }) =>
  t.db.campaign.create({
    data: {
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      name: 'Receipts',
      channelId,
      templateId,
      createdById: tenant.users.manager!.id,
      config: { default_action: { action: 'end_with_message' }, reply_actions: {} },
      state: data.state,
      desiredState: data.state,
      finishedAt: data.finishedAt ?? new Date(),
    },
  });
const subscriber = (campaignId: string, externalId: string | null, state = 'sent') =>
  t.db.campaignSubscriber.create({
    data: {
      tenantId: tenant.tenantId,
      campaignId,
      name: 'S',
      phoneNumber: `+551198800${String(++phoneSeq).padStart(4, '0')}`,
      state,
      externalId,
      delivery: state === 'sent' ? 'sent' : null,
      sentAt: state === 'sent' ? new Date() : null,
    },
  });
const webhook = (value: Record<string, unknown>): ChannelInboundJob => ({
  tenant_uuid: tenant.tenantId,
  channel_uuid: channelId,
  content_type: 'application/json',
  received_at: new Date().toISOString(),
  raw_body: JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'waba',
        changes: [
          {
            field: 'messages',
            value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '5511900000000', phone_number_id: 'p' }, ...value },
          },
        ],
      },
    ],
  }),
});
let clock = Math.floor(Date.now() / 1000) - 600;
const receipt = (id: string, status: 'sent' | 'delivered' | 'read' | 'failed', at = ++clock) =>
  webhook({
    statuses: [
      {
        id,
        status,
        timestamp: String(at),
        recipient_id: '5511988000000',
        ...(status === 'failed' ? { errors: [{ code: 131026, title: 'Message undeliverable' }] } : {}),
      },
    ],
  });
const row = (id: string) => t.db.campaignSubscriber.findUniqueOrThrow({ where: { id } });

describe('delivery receipts of campaign messages', () => {
  it('moves sent → delivered → read whatever order they come in, once, and never backwards', async () => {
    const campaign = await newCampaign();
    const s = await subscriber(campaign.id, 'wamid.order');
    const readAt = ++clock;
    // read first: delivered is implied, with the read receipt's time.
    expect(await processInbound(deps, receipt('wamid.order', 'read', readAt))).toMatchObject({ statuses: 1 });
    expect(await processInbound(deps, receipt('wamid.order', 'delivered'))).toMatchObject({ statuses: 0, ignored: 1 });
    expect(await processInbound(deps, receipt('wamid.order', 'sent'))).toMatchObject({ statuses: 0, ignored: 1 });
    expect(await processInbound(deps, receipt('wamid.order', 'read'))).toMatchObject({ statuses: 0, ignored: 1 });
    expect(await processInbound(deps, receipt('wamid.order', 'failed'))).toMatchObject({ statuses: 0, ignored: 1 });
    expect(await row(s.id)).toMatchObject({
      state: 'sent',
      delivery: 'read',
      deliveredAt: new Date(readAt * 1000),
      readAt: new Date(readAt * 1000),
      errorMessage: null,
    });

    const d = await subscriber(campaign.id, 'wamid.inorder');
    const deliveredAt = ++clock;
    await processInbound(deps, receipt('wamid.inorder', 'delivered', deliveredAt));
    expect(await row(d.id)).toMatchObject({ delivery: 'delivered', deliveredAt: new Date(deliveredAt * 1000), readAt: null });
    await processInbound(deps, receipt('wamid.inorder', 'read'));
    expect(await row(d.id)).toMatchObject({ delivery: 'read', deliveredAt: new Date(deliveredAt * 1000), readAt: expect.any(Date) });
  });

  it('a failure after acceptance makes the subscriber an error with the provider’s reason; later news changes nothing', async () => {
    const campaign = await newCampaign();
    const s = await subscriber(campaign.id, 'wamid.failed');
    expect(await processInbound(deps, receipt('wamid.failed', 'failed'))).toMatchObject({ statuses: 1 });
    await processInbound(deps, receipt('wamid.failed', 'delivered'));
    await processInbound(deps, receipt('wamid.failed', 'failed'));
    expect(await row(s.id)).toMatchObject({
      state: 'error',
      delivery: 'failed',
      errorMessage: '131026: Message undeliverable',
      deliveredAt: null,
    });
    // Already delivered: a failure is the provider's confusion, not news.
    const delivered = await subscriber(campaign.id, 'wamid.delivered-then-failed');
    await processInbound(deps, receipt('wamid.delivered-then-failed', 'delivered'));
    await processInbound(deps, receipt('wamid.delivered-then-failed', 'failed'));
    expect(await row(delivered.id)).toMatchObject({ state: 'sent', delivery: 'delivered', errorMessage: null });
    // A subscriber who replied is never turned into an error; a read receipt still counts.
    const replied = await subscriber(campaign.id, 'wamid.replied', 'completed');
    await processInbound(deps, receipt('wamid.replied', 'failed'));
    expect(await row(replied.id)).toMatchObject({ state: 'completed', delivery: null });
    await processInbound(deps, receipt('wamid.replied', 'read'));
    expect(await row(replied.id)).toMatchObject({ state: 'completed', delivery: 'read' });
  });

  it('only touches subscribers of campaigns of the webhook’s channel and tenant', async () => {
    const other = await ensureTenant(t.db, {
      name: 'Other',
      users: { m: ['campaign_manager'] },
      emailDomain: 'other-receipts.test',
      password: 'x1234567',
    });
    const otherChannel = await t.db.channel.create({
      data: { tenantId: other.tenantId, workspaceId: other.workspaceId, name: 'W', type: 'whatsapp_360dialog' },
    });
    const otherTemplate = await t.db.outboundTemplate.create({
      data: {
        tenantId: other.tenantId,
        channelId: otherChannel.id,
        name: 'o',
        language: 'pt_BR',
        category: 'MARKETING',
        status: 'APPROVED',
        components: [],
      },
    });
    const foreign = await t.db.campaign.create({
      data: {
        tenantId: other.tenantId,
        workspaceId: other.workspaceId,
        name: 'F',
        channelId: otherChannel.id,
        templateId: otherTemplate.id,
        createdById: other.users.m!.id,
        state: 'sent',
        desiredState: 'sent',
      },
    });
    const s = await t.db.campaignSubscriber.create({
      data: {
        tenantId: other.tenantId,
        campaignId: foreign.id,
        name: 'F',
        phoneNumber: '+5511900001111',
        state: 'sent',
        externalId: 'wamid.foreign',
        delivery: 'sent',
      },
    });
    expect(await processInbound(deps, receipt('wamid.foreign', 'read'))).toMatchObject({ statuses: 0, ignored: 1 });
    expect(await row(s.id)).toMatchObject({ delivery: 'sent', readAt: null });
  });

  it('a receipt that outruns the batch write of its send is retried, not lost', async () => {
    const campaign = await newCampaign({ state: 'running' });
    const s = await subscriber(campaign.id, null, 'scheduled');
    // The dispatcher sent it, the provider answered, the batch's write has not come yet.
    await expect(processInbound(deps, receipt('wamid.early', 'delivered'))).rejects.toThrow(/not written yet/);
    // A 'sent' receipt is never waited for: the write itself records it.
    expect(await processInbound(deps, receipt('wamid.early', 'sent'))).toMatchObject({ ignored: 1 });
    await t.db.campaignSubscriber.update({
      where: { id: s.id },
      data: { state: 'sent', externalId: 'wamid.early', delivery: 'sent', sentAt: new Date() },
    });
    expect(await processInbound(deps, receipt('wamid.early', 'delivered'))).toMatchObject({ statuses: 1 });
    expect(await row(s.id)).toMatchObject({ delivery: 'delivered' });
    // Nothing in flight: an unknown id is somebody else's message, dropped.
    await t.db.campaign.update({ where: { id: campaign.id }, data: { state: 'sent', desiredState: 'sent' } });
    expect(await processInbound(deps, receipt('wamid.unknown', 'delivered'))).toMatchObject({ ignored: 1 });
  });
});

describe('final states of a finished campaign (list filters)', () => {
  it('stays sent while receipts are awaited, then completes; a reply makes it completed with engagement', async () => {
    const campaign = await newCampaign();
    const a = await subscriber(campaign.id, 'wamid.settle-a');
    await subscriber(campaign.id, 'wamid.settle-b');
    await subscriber(campaign.id, null, 'error');
    expect(await settleCampaign(t.db, campaign.id)).toBe(false);
    await processInbound(deps, receipt('wamid.settle-a', 'delivered'));
    await settleSentCampaigns(deps);
    expect((await t.db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).state).toBe('sent');
    await processInbound(deps, receipt('wamid.settle-b', 'failed'));
    expect(await settleSentCampaigns(deps)).toEqual({ settled: 1 });
    expect(await t.db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      state: 'completed',
      desiredState: 'completed',
    });
    // The contact answers the campaign: its reply action runs, and the campaign shows engagement.
    const waId = (await row(a.id)).phoneNumber.slice(1);
    const reply = webhook({
      contacts: [{ profile: { name: 'S' }, wa_id: waId }],
      messages: [{ from: waId, id: `wamid.reply-${waId}`, timestamp: String(++clock), type: 'text', text: { body: 'Quero!' } }],
    });
    expect(await processInbound(deps, reply)).toMatchObject({ messages: 1 });
    expect(await row(a.id)).toMatchObject({ state: 'completed', replyText: 'Quero!' });
    expect(await t.db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      state: 'completed_with_engagement',
      desiredState: 'completed_with_engagement',
    });
    const events = (await redis.xrange(realtimeOutboxStream(prefix), '-', '+')).map(
      ([, f]) => JSON.parse(f[1]!) as { event: string; payload: { campaign?: { uuid: string; state: string } } },
    );
    expect(
      events.filter((e) => e.event === 'update-campaign' && e.payload.campaign?.uuid === campaign.id).map((e) => e.payload.campaign!.state),
    ).toEqual(['completed', 'completed_with_engagement']);
  });

  it('completes once a day has passed without every receipt, and leaves running or stopped campaigns alone', async () => {
    const late = await newCampaign({ state: 'sent', finishedAt: new Date(Date.now() - 25 * 3600 * 1000) });
    await subscriber(late.id, 'wamid.never');
    const running = await newCampaign({ state: 'running' });
    const stopped = await newCampaign({ state: 'stopped' });
    for (const c of [running, stopped]) await subscriber(c.id, null, 'error');
    await settleSentCampaigns(deps);
    expect((await t.db.campaign.findUniqueOrThrow({ where: { id: late.id } })).state).toBe('completed');
    expect(await settleCampaign(t.db, running.id)).toBe(false);
    expect(await settleCampaign(t.db, stopped.id)).toBe(false);
    expect(
      (await t.db.campaign.findMany({ where: { id: { in: [running.id, stopped.id] } }, orderBy: { state: 'asc' } })).map((c) => c.state),
    ).toEqual(['running', 'stopped']);
  });
});
