import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WhatsAppWebAdapter } from '@atende/channels';
import { startWhatsAppWebSimulator, type WhatsAppWebSimulator } from '@atende/simulators/whatsapp-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OUTBOUND, useInboundHarness } from './harness';
import { processInbound } from './processor';

/**
 * WhatsApp Web bridge events end to end in the worker: the bridge simulator posts its webhooks to a
 * capture server standing in for the api, each processed as the channel-inbound job the api queues.
 * Contacts are known by their phone; files come from the bridge; receipts move our messages.
 */
const INSTANCE = 'loja-worker';
const KEY = 'instance-token-worker';
const h = useInboundHarness({ name: 'WhatsAppWeb', contentType: 'application/json' });
let sim: WhatsAppWebSimulator;
let channelId: string;

beforeAll(async () => {
  sim = await startWhatsAppWebSimulator({ instance: INSTANCE, apiKey: KEY });
  const config = { base_url: sim.baseUrl, instance: INSTANCE };
  const credentials = { api_key: KEY, webhook_secret: 'web-secret' };
  await new WhatsAppWebAdapter({ outbound: LOCAL_OUTBOUND }).setUp(
    { uuid: 'x', type: 'whatsapp_web', config, credentials },
    { url: h.webhookUrl, secret: 'web-secret' },
  );
  channelId = await h.createChannel({ name: 'WhatsApp Web', type: 'whatsapp_web', config, credentials });
});
afterAll(() => sim?.close());

const job = (body: string) => h.job(channelId, body);
const next = async () => processInbound(h.deps, job(await h.delivered()));

describe('channel-inbound: WhatsApp Web bridge events', () => {
  it('opens one conversation for a contact’s message (messages.upsert), known by phone with the push name, however often it comes', async () => {
    await sim.sendInbound({ from: { phone: '+5511987654321', name: 'Ana Souza' }, text: 'Oi, quero um orçamento' });
    const body = await h.delivered();
    expect(await processInbound(h.deps, job(body))).toMatchObject({ messages: 1 });
    expect(await processInbound(h.deps, job(body))).toMatchObject({ messages: 1 });
    const identity = await h.db.contactIdentity.findFirstOrThrow({ where: { channelId }, include: { contact: true } });
    expect(identity.identifier).toBe('+5511987654321');
    expect(identity.contact).toMatchObject({ name: 'Ana Souza', phoneNumber: '+5511987654321' });
    const conversations = await h.db.conversation.findMany({ where: { channelId }, include: { messages: true } });
    expect(conversations).toHaveLength(1);
    expect(conversations[0]).toMatchObject({ contactId: identity.contactId, sectorId: h.sectorId });
    expect(conversations[0]!.messages).toEqual([expect.objectContaining({ author: 'CONTACT', content: 'Oi, quero um orçamento' })]);
  });

  it('keeps a photo fetched from the bridge as the annex, its caption as text, in the same conversation', async () => {
    const photo = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4000, 3)]);
    await sim.sendInbound({ from: { phone: '+5511987654321' }, image: { bytes: photo, caption: 'Foto do produto' } });
    expect(await next()).toMatchObject({ messages: 1 });
    const message = await h.db.message.findFirstOrThrow({ where: { conversation: { channelId }, content: 'Foto do produto' } });
    const file = await h.db.storedFile.findUniqueOrThrow({ where: { id: message.annexId! } });
    expect(file).toMatchObject({ contentType: 'image/jpeg', size: photo.length });
    expect(await readFile(join(h.storageDir, file.storageKey))).toEqual(photo);
    expect(await h.db.conversation.count({ where: { channelId } })).toBe(1);
  });

  it('moves our message to delivered, then read, on the bridge’s receipts (messages.update)', async () => {
    const conversation = await h.db.conversation.findFirstOrThrow({ where: { channelId } });
    const sent = await h.db.message.create({
      data: {
        id: randomUUID(),
        tenantId: h.tenantId,
        conversationId: conversation.id,
        author: 'USER',
        content: 'Olá, Ana',
        state: 'sent',
        externalId: 'BAE5AA00BB11CC22',
      },
    });
    await sim.receipt('BAE5AA00BB11CC22', 'DELIVERY_ACK');
    expect(await next()).toMatchObject({ statuses: 1 });
    expect(await h.db.message.findUniqueOrThrow({ where: { id: sent.id } })).toMatchObject({
      state: 'sent',
      interactiveContent: { delivery: 'delivered' },
    });
    await sim.receipt('BAE5AA00BB11CC22', 'READ');
    expect(await next()).toMatchObject({ statuses: 1 });
    expect(await h.db.message.findUniqueOrThrow({ where: { id: sent.id } })).toMatchObject({ state: 'read' });
  });

  it('takes nothing from group messages and connection changes, and drops a body that is no bridge event', async () => {
    await sim.sendInbound({ from: { phone: '+5511987654321' }, text: 'no grupo', group: true });
    expect(await next()).toMatchObject({ messages: 0, ignored: 1 });
    await sim.setConnection('close');
    expect(await next()).toMatchObject({ messages: 0, ignored: 1 });
    await sim.setConnection('open');
    expect(await next()).toMatchObject({ messages: 0, ignored: 1 });
    expect(await processInbound(h.deps, job('{"entry":[]}'))).toMatchObject({ messages: 0, ignored: 1 });
    expect(await h.db.message.count({ where: { content: 'no grupo' } })).toBe(0);
  });
  it('stops the channel’s running and scheduled campaigns when the phone disconnects, and no other channel’s', async () => {
    const template = await h.db.outboundTemplate.create({
      data: { tenantId: h.tenantId, channelId, name: 'aviso', language: 'pt_BR', category: 'UTILITY', status: 'APPROVED', components: [] },
    });
    const otherChannel = await h.createChannel({
      name: 'Outro WhatsApp Web',
      type: 'whatsapp_web',
      config: { base_url: sim.baseUrl, instance: 'outra-loja' },
      credentials: { api_key: 'another-key', webhook_secret: 'other-secret' },
    });
    const otherTemplate = await h.db.outboundTemplate.create({
      data: {
        tenantId: h.tenantId,
        channelId: otherChannel,
        name: 'aviso',
        language: 'pt_BR',
        category: 'UTILITY',
        status: 'APPROVED',
        components: [],
      },
    });
    const createdById = (await h.db.user.findFirstOrThrow({ where: { tenantId: h.tenantId } })).id;
    const campaign = (name: string, state: string, on = { channelId, templateId: template.id }) =>
      h.db.campaign.create({
        data: { tenantId: h.tenantId, workspaceId: h.workspaceId, name, ...on, createdById, config: {}, state, desiredState: state },
      });
    const running = await campaign('Rodando', 'running');
    const scheduled = await campaign('Agendada', 'scheduled');
    const elsewhere = await campaign('Outro canal', 'running', { channelId: otherChannel, templateId: otherTemplate.id });

    await sim.setConnection('close');
    expect(await next()).toMatchObject({ messages: 0, ignored: 1 });
    const after = async (id: string) => h.db.campaign.findUniqueOrThrow({ where: { id }, select: { state: true, desiredState: true } });
    // The running one is told to stop (its dispatcher stops before its next batch); the scheduled one stops at once.
    expect(await after(running.id)).toEqual({ state: 'running', desiredState: 'stopped' });
    expect(await after(scheduled.id)).toEqual({ state: 'stopped', desiredState: 'stopped' });
    expect(await after(elsewhere.id)).toEqual({ state: 'running', desiredState: 'running' });
    await sim.setConnection('open');
    expect(await next()).toMatchObject({ ignored: 1 });
  });
});
