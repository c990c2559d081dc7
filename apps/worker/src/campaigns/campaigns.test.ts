import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { channelAdapters, encryptCredentials, outboundClient, parseSecretsKey } from '@atende/channels';
import { startWhatsAppSimulator, type WhatsAppSimulator } from '@atende/simulators/whatsapp';
import { ensureTenant } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { RateLimiter, RealtimeOutbox, realtimeOutboxStream } from '@atende/queue';
import { LocalDiskDriver, type StorageDriver } from '@atende/storage';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dispatchCampaign, UNKNOWN_AFTER_CRASH, type DispatchDeps } from './dispatch';
import { applyCampaignReceipt } from './receipts';
import { importSubscribers, type ImportDeps } from './import';
import { startScheduled } from './schedule';
// The tests' simulators listen on 127.0.0.1, listed as OUTBOUND_ALLOW_HOSTS would list them.
const LOCAL_OUTBOUND = outboundClient({ allowHosts: '127.0.0.1,localhost' });

const prefix = `atende-test:${randomBytes(4).toString('hex')}:`;
const secretsKey = parseSecretsKey(Buffer.alloc(32, 9).toString('base64'));
const credentials = { api_key: 'k-360', webhook_secret: 'hook' };
let t: TestDatabase;
let redis: Redis;
let sim: WhatsAppSimulator;
let storageDir: string;
let storage: StorageDriver;
let importDeps: ImportDeps;
let deps: (owner?: string, rate?: number) => DispatchDeps;
let tenant: Awaited<ReturnType<typeof ensureTenant>>;
let channelId: string;
let templateId: string;
let dndPhone: string;

beforeAll(async () => {
  t = await createTestDatabase();
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  storageDir = await mkdtemp(join(tmpdir(), 'atende-campaigns-'));
  storage = new LocalDiskDriver(storageDir);
  sim = await startWhatsAppSimulator({ provider: '360dialog', credentials });
  const realtime = new RealtimeOutbox(redis, prefix);
  const log = pino({ level: 'silent' });
  importDeps = { db: t.db, databaseUrl: t.url, realtime, storage: () => storage, log };
  const adapters = channelAdapters({ outbound: LOCAL_OUTBOUND });
  const limiter = new RateLimiter(redis, prefix);
  deps = (owner = 'worker-a', rate = 0) => ({
    db: t.db,
    realtime,
    adapters,
    secretsKey,
    limiter,
    owner,
    ratePerSecond: rate,
    log,
    batchSize: 20,
  });
  // Bots on (flag bots_interface): the chatbot_outbound reply action's bot answers only then.
  tenant = await ensureTenant(t.db, {
    name: 'Campaigns',
    users: { manager: ['campaign_manager'] },
    emailDomain: 'campaigns.test',
    password: 'x1234567',
    sectors: ['Vendas'],
    features: { bots_interface: true },
  });
  const channel = await t.db.channel.create({
    data: {
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      name: 'WhatsApp',
      type: 'whatsapp_360dialog',
      config: { base_url: sim.baseUrl, api_version: 'cloud' },
      credentialsEncrypted: encryptCredentials(credentials, secretsKey),
    },
  });
  channelId = channel.id;
  const template = await t.db.outboundTemplate.create({
    data: {
      tenantId: tenant.tenantId,
      channelId,
      name: 'oferta',
      language: 'pt_BR',
      category: 'MARKETING',
      status: 'APPROVED',
      components: [
        { type: 'BODY', text: 'Olá {{1}}, sua oferta: {{2}}' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'QUICK_REPLY', text: 'Quero' },
            { type: 'QUICK_REPLY', text: 'Sair' },
          ],
        },
      ],
    },
  });
  templateId = template.id;
  dndPhone = '+5511977776666';
  const contact = await t.db.contact.create({ data: { tenantId: tenant.tenantId, name: 'Não perturbe', phoneNumber: dndPhone } });
  const list = await t.db.dndList.create({ data: { tenantId: tenant.tenantId, name: 'Opt-out' } });
  await t.db.dndContact.create({ data: { dndListId: list.id, contactId: contact.id, tenantId: tenant.tenantId } });
});
afterAll(async () => {
  await sim?.close();
  await redis?.del(realtimeOutboxStream(prefix));
  redis?.disconnect();
  await t?.drop();
  await rm(storageDir, { recursive: true, force: true });
});

async function newCampaign(name: string, options: { withDnd?: boolean } = {}) {
  const lists = options.withDnd ? await t.db.dndList.findMany({ where: { tenantId: tenant.tenantId } }) : [];
  return t.db.campaign.create({
    data: {
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      name,
      channelId,
      templateId,
      createdById: tenant.users.manager!.id,
      config: { default_action: { action: 'end_with_message' }, reply_actions: {} },
      dndLists: { create: lists.map((l) => ({ dndListId: l.id })) },
    },
  });
}
async function importCsv(campaignId: string, csv: string) {
  const id = randomUUID();
  const key = `${tenant.tenantId}/${id}`;
  await storage.put(key, Buffer.from(csv), { contentType: 'text/csv', size: Buffer.byteLength(csv) });
  await t.db.storedFile.create({
    data: {
      id,
      tenantId: tenant.tenantId,
      originalFilename: 's.csv',
      contentType: 'text/csv',
      size: Buffer.byteLength(csv),
      service: storage.service,
      storageKey: key,
    },
  });
  return importSubscribers(importDeps, { tenant_uuid: tenant.tenantId, campaign_uuid: campaignId, file_uuid: id });
}
async function start(campaignId: string) {
  const c = await t.db.campaign.update({ where: { id: campaignId }, data: { desiredState: 'running', runNumber: { increment: 1 } } });
  return { tenant_uuid: tenant.tenantId, campaign_uuid: campaignId, run: c.runNumber };
}
const phones = (n: number, base: number) => Array.from({ length: n }, (_, i) => `+55119${String(base + i).padStart(8, '0')}`);
const sentTo = () =>
  sim
    .sent()
    .filter((s) => s.answeredStatus === 200)
    .map((s) => String(s.body.to));

describe('subscriber import', () => {
  it('keeps valid rows, ignores duplicates, records bad rows with their reason and marks DND contacts', async () => {
    const campaign = await newCampaign('Import', { withDnd: true });
    const csv = [
      'Name;Phone;1;2',
      'Ana;(11) 98888-0001;Ana;10% off',
      'Bruno;+55 11 98888-0002;Bruno;frete grátis',
      'Bruno again;11988880002;Bruno;dup',
      'Carla;123;Carla;x',
      'Davi;11988880004;Davi;',
      `Nina;${dndPhone};Nina;y`,
      '=cmd|calc;11988880005;=1+1;@SUM(A1)',
    ].join('\n');
    const counters = await importCsv(campaign.id, csv);
    expect(counters).toEqual({ imported: 4, ignored: 1, imported_with_error: 2 });
    const rows = await t.db.campaignSubscriber.findMany({ where: { campaignId: campaign.id }, orderBy: { phoneNumber: 'asc' } });
    expect(rows.map((r) => [r.name, r.phoneNumber, r.state, r.errorMessage])).toEqual([
      ['Nina', dndPhone, 'dnd', null],
      ['Ana', '+5511988880001', 'pending', null],
      ['Bruno', '+5511988880002', 'pending', null],
      ['Davi', '+5511988880004', 'error', 'Parameter 2 is required'],
      ['=cmd|calc', '+5511988880005', 'pending', null],
      ['Carla', '123', 'error', 'Número de telefone inválido'],
    ]);
    expect(rows[1]!.parameters).toEqual(['Ana', '10% off']);
    const done = await t.db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect(done).toMatchObject({ importStatus: 'done', importSummary: { imported: 4, ignored: 1, imported_with_error: 2 } });
    const events = (await redis.xrange(realtimeOutboxStream(prefix), '-', '+')).map(
      ([, f]) => JSON.parse(f[1]!) as { event: string; payload: { status?: string } },
    );
    expect(events.filter((e) => e.event === 'update-campaign-tasks').map((e) => e.payload.status)).toContain('done');
  });
});

describe('sending (exactly once)', () => {
  it('sends the template to every pending subscriber once, with its parameters, then stops', async () => {
    sim.reset();
    const campaign = await newCampaign('Send');
    await importCsv(campaign.id, ['name,phone,1,2', ...phones(45, 1000).map((p, i) => `C${i},${p},C${i},P${i}`)].join('\n'));
    const began = Date.now();
    expect(await dispatchCampaign(deps(), await start(campaign.id))).toBe('done');
    // Progress reaches campaign screens at its start, at most once a second while sending, and at its end: not per send nor per batch.
    const updates = (await redis.xrange(realtimeOutboxStream(prefix), '-', '+'))
      .map(([, f]) => JSON.parse(f[1]!) as { event: string; payload: { campaign?: { uuid: string; state: string } } })
      .filter((e) => e.event === 'update-campaign' && e.payload.campaign?.uuid === campaign.id);
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates.length).toBeLessThanOrEqual(2 + Math.ceil((Date.now() - began) / 1000));
    // A finished run is 'sent' (receipts awaited), not 'stopped' with Start on.
    expect(updates.at(-1)!.payload.campaign!.state).toBe('sent');
    expect(sentTo().sort()).toEqual(
      phones(45, 1000)
        .map((p) => p.slice(1))
        .sort(),
    );
    const first = sim.sent().find((x) => x.body.to === phones(1, 1000)[0]!.slice(1))!.body as {
      template: { components: { parameters: { text: string }[] }[] };
    };
    expect(first.template.components[0]!.parameters.map((p) => p.text)).toEqual(['C0', 'P0']);
    const states = await t.db.campaignSubscriber.groupBy({ by: ['state'], where: { campaignId: campaign.id }, _count: { _all: true } });
    expect(states).toEqual([{ state: 'sent', _count: { _all: 45 } }]);
    expect(await t.db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      state: 'sent',
      desiredState: 'sent',
      dispatchOwner: null,
      finishedAt: expect.any(Date),
    });
  });

  it('after a crash mid-send, a second worker resumes without sending anyone twice, and a racing one stays out', async () => {
    sim.reset();
    const campaign = await newCampaign('Crash');
    await importCsv(campaign.id, ['name,phone,1,2', ...phones(60, 2000).map((p, i) => `C${i},${p},a,b`)].join('\n'));
    const job = await start(campaign.id);
    // Worker A claimed 20 subscribers, started sending 10 of them (the provider took them), then
    // died holding an expired lease, before it could write their outcomes.
    const claimed = await t.db.$queryRaw<{ id: string; phoneNumber: string; parameters: string[] }[]>`
      UPDATE "CampaignSubscriber" SET state = 'scheduled' WHERE id IN (SELECT id FROM "CampaignSubscriber" WHERE "campaignId" = ${campaign.id}::uuid ORDER BY "createdAt", id LIMIT 20)
      RETURNING id, "phoneNumber", parameters`;
    await t.db.campaignSubscriber.updateMany({ where: { id: { in: claimed.slice(0, 10).map((c) => c.id) } }, data: { state: 'sending' } });
    const { subscriberMessage } = await import('./dispatch');
    const template = (await import('@atende/conversations')).presentTemplate(
      await t.db.outboundTemplate.findUniqueOrThrow({
        where: { id: templateId },
        include: { channel: { select: { id: true, name: true, type: true } } },
      }),
    );
    const adapter = channelAdapters({ outbound: LOCAL_OUTBOUND }).get('whatsapp_360dialog')!;
    const target = { uuid: channelId, type: 'whatsapp_360dialog', config: { base_url: sim.baseUrl, api_version: 'cloud' }, credentials };
    for (const s of claimed.slice(0, 10)) await adapter.send(subscriberMessage(template, s, campaign.id), target);
    await t.db.campaign.update({
      where: { id: campaign.id },
      data: { dispatchOwner: 'worker-a', dispatchLeaseUntil: new Date(Date.now() - 1000) },
    });

    const [b, c] = await Promise.allSettled([dispatchCampaign(deps('worker-b'), job), dispatchCampaign(deps('worker-c'), job)]);
    const outcomes = [b, c].map((r) => (r.status === 'fulfilled' ? r.value : 'busy'));
    expect(outcomes.sort()).toEqual(['busy', 'done']);
    // The provider drops no repeat: each phone got its message once because nobody was sent twice.
    expect(new Set(sentTo()).size).toBe(60);
    expect(sentTo()).toHaveLength(60);
    expect(sim.duplicates()).toEqual({});
    // The 10 whose outcome A never wrote are 'unknown', never sent again by B; the other 50 are sent.
    const rows = await t.db.campaignSubscriber.findMany({ where: { campaignId: campaign.id } });
    const unknown = rows.filter((r) => r.state === 'unknown');
    expect(unknown.map((r) => r.id).sort()).toEqual(
      claimed
        .slice(0, 10)
        .map((c) => c.id)
        .sort(),
    );
    expect(unknown.every((r) => r.errorMessage === UNKNOWN_AFTER_CRASH)).toBe(true);
    expect(rows.filter((r) => r.state === 'sent')).toHaveLength(50);

    // Their receipts settle them: the Cloud API format echoes biz_opaque_callback_data, the subscriber's id.
    for (const [i, s] of sim
      .delivered()
      .filter((d) => unknown.some((u) => u.phoneNumber.slice(1) === d.to))
      .entries()) {
      const status = i === 0 ? ('failed' as const) : ('delivered' as const);
      const event = {
        kind: 'status' as const,
        externalId: s.id,
        status,
        error: status === 'failed' ? { code: '131026', title: 'Message undeliverable' } : null,
        at: new Date(),
        callbackData: String(s.body.biz_opaque_callback_data),
      };
      expect(await applyCampaignReceipt(t.db, tenant.tenantId, channelId, event)).toEqual({ outcome: 'applied', campaignId: campaign.id });
    }
    const settled = await t.db.campaignSubscriber.findMany({ where: { id: { in: unknown.map((u) => u.id) } } });
    expect(settled.filter((r) => r.state === 'error').map((r) => [r.delivery, r.errorMessage, r.sentAt])).toEqual([
      ['failed', '131026: Message undeliverable', null],
    ]);
    const reconciled = settled.filter((r) => r.state === 'sent');
    expect(reconciled).toHaveLength(9);
    expect(reconciled.every((r) => r.delivery === 'delivered' && r.externalId?.startsWith('wamid.') && r.sentAt && r.deliveredAt)).toBe(
      true,
    );
  });

  it('a send whose answer is lost is unknown, never retried; refusals are still retried or recorded', async () => {
    sim.reset();
    const campaign = await newCampaign('Lost answers');
    await importCsv(campaign.id, ['name,phone,1,2', ...phones(12, 2500).map((p, i) => `C${i},${p},a,b`)].join('\n'));
    // One 503 (the provider took nothing: retried), and two sends taken by the provider whose answers never come back.
    sim.failNext(1, 503);
    sim.dropAnswerNext(2);
    expect(await dispatchCampaign(deps(), await start(campaign.id))).toBe('done');
    expect(
      sim
        .sent()
        .map((s) => s.answeredStatus)
        .filter((a) => a !== 200),
    ).toEqual([503, 0, 0]);
    expect(sim.delivered()).toHaveLength(12);
    expect(sim.duplicates()).toEqual({});
    const rows = await t.db.campaignSubscriber.findMany({ where: { campaignId: campaign.id } });
    expect(rows.filter((r) => r.state === 'unknown').map((r) => r.errorMessage)).toEqual([
      expect.stringContaining('360dialog unreachable'),
      expect.stringContaining('360dialog unreachable'),
    ]);
    expect(rows.filter((r) => r.state === 'sent')).toHaveLength(10);
    // Every row ends sent, error or unknown; the run ends 'sent' while the unknown ones may still be settled by receipts.
    expect(rows.every((r) => ['sent', 'error', 'unknown'].includes(r.state))).toBe(true);
    expect(await t.db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({ state: 'sent' });
  });

  it('stops within a batch when told, and a new start finishes the rest without repeats', async () => {
    sim.reset();
    const campaign = await newCampaign('Stop');
    await importCsv(campaign.id, ['name,phone,1,2', ...phones(80, 3000).map((p, i) => `C${i},${p},a,b`)].join('\n'));
    const job = await start(campaign.id);
    const running = dispatchCampaign(deps('worker-a', 20), job);
    // Stopped once sending has begun.
    await vi.waitFor(() => expect(sentTo().length).toBeGreaterThan(0), { timeout: 5000 });
    await t.db.campaign.update({ where: { id: campaign.id }, data: { desiredState: 'stopped' } });
    const began = Date.now();
    expect(await running).toBe('stopped');
    expect(Date.now() - began).toBeLessThan(3000);
    const partial = sentTo().length;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(80);
    expect(await t.db.campaignSubscriber.count({ where: { campaignId: campaign.id, state: 'scheduled' } })).toBe(0);
    expect(await dispatchCampaign(deps('worker-a'), await start(campaign.id))).toBe('done');
    expect(sentTo()).toHaveLength(80);
    expect(new Set(sentTo()).size).toBe(80);
  });

  it('holds the rate limit, and an old run never sends after a restart', async () => {
    sim.reset();
    const campaign = await newCampaign('Rate');
    await importCsv(campaign.id, ['name,phone,1,2', ...phones(30, 4000).map((p, i) => `C${i},${p},a,b`)].join('\n'));
    const stale = await start(campaign.id);
    const job = await start(campaign.id);
    expect(await dispatchCampaign(deps(), stale)).toBe('superseded');
    const began = Date.now();
    expect(await dispatchCampaign(deps('worker-a', 20), job)).toBe('done');
    // 30 sends at 20/s with a burst of 20: at least half a second.
    expect(Date.now() - began).toBeGreaterThanOrEqual(450);
    expect(sentTo()).toHaveLength(30);
  });

  it('never sends a subscriber whose parameter is empty, however the row came back to pending', async () => {
    sim.reset();
    const campaign = await newCampaign('Revalidate');
    const [good, bad] = phones(2, 7000);
    await importCsv(campaign.id, ['Name;Phone;1;2', `Gil;${good};Gil;10%`, `Hugo;${bad};Hugo;20%`].join('\n'));
    // Set back to pending behind the screen's back, with the second parameter gone.
    await t.db.campaignSubscriber.updateMany({
      where: { campaignId: campaign.id, phoneNumber: bad },
      data: { parameters: ['Hugo', ' '], state: 'pending' },
    });
    await dispatchCampaign(deps(), await start(campaign.id));
    expect(sentTo()).toEqual([good!.slice(1)]);
    const rows = await t.db.campaignSubscriber.findMany({ where: { campaignId: campaign.id }, orderBy: { phoneNumber: 'asc' } });
    expect(rows.map((r) => [r.phoneNumber, r.state, r.errorMessage])).toEqual([
      [good, 'sent', null],
      [bad, 'error', 'Parameter 2 is required'],
    ]);
  });

  it('records provider refusals per subscriber and goes on', async () => {
    sim.reset();
    const campaign = await newCampaign('Refused');
    await importCsv(campaign.id, ['name,phone,1,2', ...phones(5, 5000).map((p, i) => `C${i},${p},a,b`)].join('\n'));
    sim.failNext(1, 400);
    expect(await dispatchCampaign(deps(), await start(campaign.id))).toBe('done');
    const rows = await t.db.campaignSubscriber.findMany({ where: { campaignId: campaign.id } });
    expect(rows.filter((r) => r.state === 'error').map((r) => r.errorMessage)).toEqual([expect.stringContaining('360dialog answered 400')]);
    expect(rows.filter((r) => r.state === 'sent')).toHaveLength(4);
    // Each send starts its receipts at 'sent'.
    expect(rows.filter((r) => r.state === 'sent').every((r) => r.delivery === 'sent' && r.externalId)).toBe(true);
  });

  it('a run whose every send was refused has no receipt to wait for: it is completed at once', async () => {
    sim.reset();
    const campaign = await newCampaign('All refused');
    await importCsv(campaign.id, ['name,phone,1,2', ...phones(3, 5100).map((p, i) => `C${i},${p},a,b`)].join('\n'));
    sim.failNext(3, 400);
    expect(await dispatchCampaign(deps(), await start(campaign.id))).toBe('done');
    expect(await t.db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      state: 'completed',
      desiredState: 'completed',
      finishedAt: expect.any(Date),
    });
  });
});

describe('scheduling', () => {
  it('starts a due campaign once, and fails one that cannot start with its reasons', async () => {
    const ok = await newCampaign('Scheduled ok');
    await importCsv(ok.id, 'name,phone,1,2\nAna,11988889999,a,b');
    const empty = await newCampaign('Scheduled empty');
    const past = new Date(Date.now() - 1000);
    await t.db.campaign.updateMany({
      where: { id: { in: [ok.id, empty.id] } },
      data: { state: 'scheduled', desiredState: 'scheduled', startAt: past },
    });
    const [first, second] = await Promise.all([startScheduled(importDeps), startScheduled(importDeps)]);
    expect(first.started + second.started).toBe(1);
    expect(first.failed + second.failed).toBe(1);
    expect(await t.db.campaign.findUniqueOrThrow({ where: { id: ok.id } })).toMatchObject({ desiredState: 'running', runNumber: 1 });
    expect(await t.db.campaign.findUniqueOrThrow({ where: { id: empty.id } })).toMatchObject({
      state: 'failed',
      scheduledStartErrors: ['There are no valid subscribers for this campaign'],
    });
    expect(await t.db.outboxJob.count({ where: { queue: 'campaign-dispatch', tenantId: tenant.tenantId } })).toBe(1);
  });
});

describe('reply actions', () => {
  it('runs the pressed button’s action, or the default one, once per subscriber', async () => {
    const { InboundReceiver } = await import('@atende/conversations');
    const realtime = new RealtimeOutbox(redis, prefix);
    const conversationDeps = { db: t.db, realtime, log: pino({ level: 'silent' }) };
    const sector = tenant.sectors[0]!;
    const list = await t.db.dndList.create({ data: { tenantId: tenant.tenantId, name: 'Sair da lista' } });
    const campaign = await t.db.campaign.create({
      data: {
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        name: 'Replies',
        channelId,
        templateId,
        createdById: tenant.users.manager!.id,
        config: {
          default_action: { action: 'end_with_message', message: 'Obrigado!' },
          reply_actions: {
            Quero: { action: 'transfer_to_sector', sector_uuid: sector.id, message: 'Já te atendemos' },
            Sair: { action: 'end_dnd', dnd_list: [list.id], message: 'Removido' },
          },
        },
      },
    });
    const [p1, p2, p3] = phones(3, 6000);
    await t.db.campaignSubscriber.createMany({
      data: [p1!, p2!, p3!].map((phoneNumber) => ({
        tenantId: tenant.tenantId,
        campaignId: campaign.id,
        name: 'S',
        phoneNumber,
        state: 'sent',
        sentAt: new Date(),
      })),
    });
    const channel = { id: channelId, tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, entrySectorId: null, tenantConfig: {} };
    const receiver = new InboundReceiver(conversationDeps);
    // The reply action runs as the receiver takes the message (conversation-entry.ts); its history event tells which.
    const reply = async (phone: string, id: string, button: string | null, text: string) => {
      const interactive = button ? { interactive: { type: 'button' as const, text: button, payload: null, context_id: null } } : {};
      const got = await receiver.receive(channel, { contact: { phone }, message: { id, content: text, ...interactive } });
      const event = await t.db.conversationEvent.findFirst({
        where: { conversationId: got.conversation_uuid, type: 'campaign-reply' },
        orderBy: { at: 'desc' },
      });
      return { got, outcome: event?.detail ?? null };
    };

    const transfer = await reply(p1!, 'r1', 'Quero', 'Quero');
    expect(transfer.outcome).toMatchObject({ reply_action: 'transfer_to_sector', executed: true });
    const moved = await t.db.conversation.findUniqueOrThrow({ where: { id: transfer.got.conversation_uuid } });
    expect(moved).toMatchObject({ sectorId: sector.id, state: 'waiting' });
    expect(await t.db.message.findFirst({ where: { conversationId: moved.id, author: 'USER', state: 'pending' } })).toMatchObject({
      content: 'Já te atendemos',
    });

    const dnd = await reply(p2!, 'r2', 'Sair', 'Sair');
    const closed = await t.db.conversation.findUniqueOrThrow({ where: { id: dnd.got.conversation_uuid } });
    expect(closed).toMatchObject({ state: 'closed', endedBy: 'system' });
    expect(await t.db.dndContact.count({ where: { dndListId: list.id, contactId: closed.contactId } })).toBe(1);

    const fallback = await reply(p3!, 'r3', null, 'Oi, quem é?');
    expect(fallback.outcome).toMatchObject({ reply_action: 'end_with_message', executed: true });
    const subscribers = await t.db.campaignSubscriber.findMany({ where: { campaignId: campaign.id }, orderBy: { phoneNumber: 'asc' } });
    expect(subscribers.map((s) => [s.state, s.replyAction, s.replyText])).toEqual([
      ['completed', 'Quero', 'Quero'],
      ['completed', 'Sair', 'Sair'],
      ['completed', 'reply', 'Oi, quem é?'],
    ]);
    // A second answer (or a repeated webhook) runs nothing again: it only joins the conversation.
    const again = await reply(p1!, 'r4', 'Quero', 'Quero');
    expect(again.got.conversation_uuid).toBe(transfer.got.conversation_uuid);
    expect(await t.db.conversationEvent.count({ where: { conversationId: moved.id, type: 'campaign-reply' } })).toBe(1);
    expect(await t.db.message.count({ where: { conversationId: moved.id, content: 'Já te atendemos' } })).toBe(1);
  });

  it('chatbot_outbound hands the conversation to the bot, which greets the subscriber from its Start', async () => {
    const { InboundReceiver, runBotSteps, botHttp } = await import('@atende/conversations');
    const conversationDeps = { db: t.db, realtime: new RealtimeOutbox(redis, prefix), log: pino({ level: 'silent' }) };
    const bot = await t.db.bot.create({
      data: {
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        name: 'Offers',
        nodes: [
          { id: 's', type: 'start', next: 'ask' },
          {
            id: 'ask',
            type: 'options',
            text: 'Which plan?',
            invalid_option_message: 'Pick 1',
            options: [{ key: '1', label: 'Gold', next: 'bye' }],
          },
          { id: 'bye', type: 'end', text: 'Done!' },
        ],
      },
    });
    const campaign = await t.db.campaign.create({
      data: {
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        name: 'To the bot',
        channelId,
        templateId,
        createdById: tenant.users.manager!.id,
        mode: 'broadcast',
        config: { default_action: { action: 'chatbot_outbound', bot_uuid: bot.id, message: 'Um momento' }, reply_actions: {} },
      },
    });
    const [phone] = phones(1, 7000);
    await t.db.campaignSubscriber.create({
      data: { tenantId: tenant.tenantId, campaignId: campaign.id, name: 'S', phoneNumber: phone!, state: 'sent', sentAt: new Date() },
    });
    const channel = { id: channelId, tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, entrySectorId: null, tenantConfig: {} };
    const got = await new InboundReceiver(conversationDeps).receive(channel, {
      contact: { phone: phone! },
      message: { id: 'bot-r1', content: 'Tenho interesse' },
    });
    expect(await t.db.campaignSubscriber.findFirstOrThrow({ where: { campaignId: campaign.id } })).toMatchObject({
      state: 'completed',
      replyAction: 'reply',
    });
    // Broadcast does not close it: the bot talks now, from a job queued with the hand-over.
    expect(await t.db.conversation.findUniqueOrThrow({ where: { id: got.conversation_uuid } })).toMatchObject({
      state: 'bot',
      botId: bot.id,
    });
    expect(
      await t.db.outboxJob.count({ where: { queue: 'bot-step', payload: { path: ['conversation_uuid'], equals: got.conversation_uuid } } }),
    ).toBe(1);
    await runBotSteps(conversationDeps, botHttp({ allowHosts: '' }), got.conversation_uuid);
    const texts = await t.db.message.findMany({
      where: { conversationId: got.conversation_uuid },
      orderBy: { createdAt: 'asc' },
      select: { author: true, content: true },
    });
    expect(texts).toEqual([
      // The template the subscriber received comes first; this one had no parameters.
      { author: 'USER', content: 'Olá {{1}}, sua oferta: {{2}}' },
      { author: 'CONTACT', content: 'Tenho interesse' },
      { author: 'USER', content: 'Um momento' },
      { author: 'USER', content: 'Which plan?\n\n1 - Gold' },
    ]);
  });
});

describe('do-not-disturb at send time', () => {
  it('never sends to a contact put on one of the campaign’s DND lists after the import', async () => {
    sim.reset();
    const campaign = await newCampaign('Late DND', { withDnd: true });
    const [late, other] = phones(2, 7000);
    await importCsv(campaign.id, `name,phone,1,2\nTarde,${late},a,b\nOutro,${other},a,b`);
    const list = (await t.db.campaignDndList.findFirstOrThrow({ where: { campaignId: campaign.id } })).dndListId;
    const contact = await t.db.contact.create({ data: { tenantId: tenant.tenantId, name: 'Tarde', phoneNumber: late! } });
    await t.db.dndContact.create({ data: { dndListId: list, contactId: contact.id, tenantId: tenant.tenantId } });
    expect(await dispatchCampaign(deps(), await start(campaign.id))).toBe('done');
    expect(sentTo()).toEqual([other!.slice(1)]);
    expect((await t.db.campaignSubscriber.findFirstOrThrow({ where: { campaignId: campaign.id, phoneNumber: late } })).state).toBe('dnd');
  });
});
