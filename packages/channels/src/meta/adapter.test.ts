import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelTarget, OutboundMessage } from '../adapter';
import { LOCAL_OUTBOUND } from '../test-outbound';
import { deliveryErrorOf, startWebhookCapture, type WebhookCapture } from '@atende/simulators/whatsapp-harness';
import { InstagramAdapter, MessengerAdapter } from './adapter';
import { hubSignature } from './graph';
import { startMetaSimulator, type MetaSimulator } from '@atende/simulators/meta';

/** Messenger and Instagram adapters against the Meta simulator. */
const PAGE = '100200300400';
const TOKEN = 'EAAGpage-token';
const APP_SECRET = 'app-secret-123';
const messenger = new MessengerAdapter({ outbound: LOCAL_OUTBOUND, timeoutMs: 2000 });
const instagram = new InstagramAdapter({ outbound: LOCAL_OUTBOUND, timeoutMs: 2000 });
let sim: MetaSimulator;
let igSim: MetaSimulator;
let hooks: WebhookCapture;
let channel: ChannelTarget;
let igChannel: ChannelTarget;
const ana = { id: '7000111222333', firstName: 'Ana', lastName: 'Souza' };

const message = (overrides: Partial<OutboundMessage> = {}): OutboundMessage => ({
  uuid: randomUUID(),
  conversationUuid: 'c',
  content: 'Olá, Ana!',
  annex: null,
  author: 'USER',
  createdAt: new Date(),
  contact: { uuid: 'u', phoneNumber: null, identifier: ana.id },
  lastContactMessageAt: new Date(),
  ...overrides,
});

beforeAll(async () => {
  hooks = await startWebhookCapture();
  const webhook = { url: hooks.url, verifyToken: 'verify-me' };
  sim = await startMetaSimulator({ object: 'page', pageId: PAGE, pageToken: TOKEN, appSecret: APP_SECRET, webhook });
  igSim = await startMetaSimulator({ object: 'instagram', pageId: PAGE, pageToken: TOKEN, appSecret: APP_SECRET, webhook });
  const credentials = { access_token: TOKEN, app_secret: APP_SECRET, verify_token: 'verify-me' };
  channel = { uuid: 'ch', type: 'messenger', config: { base_url: sim.baseUrl, page_id: PAGE }, credentials };
  igChannel = { uuid: 'ig', type: 'instagram', config: { base_url: igSim.baseUrl, page_id: PAGE }, credentials };
});
afterAll(async () => {
  await sim.close();
  await igSim.close();
  await hooks.close();
});
beforeEach(() => {
  sim.reset();
  igSim.reset();
  hooks.clear();
});

describe('Messenger adapter against the Meta simulator', () => {
  it('answers the hub.challenge handshake only with our verify token', () => {
    expect(messenger.verifyHandshake({ 'hub.mode': 'subscribe', 'hub.verify_token': 'verify-me', 'hub.challenge': '42' }, channel)).toBe(
      '42',
    );
    expect(messenger.verifyHandshake({ 'hub.mode': 'subscribe', 'hub.verify_token': 'other', 'hub.challenge': '42' }, channel)).toBeNull();
    expect(
      messenger.verifyHandshake({ 'hub.mode': 'unsubscribe', 'hub.verify_token': 'verify-me', 'hub.challenge': '42' }, channel),
    ).toBeNull();
  });

  it('parses a signed message into a PSID sender, refusing another signature', async () => {
    await sim.sendInbound({ from: ana, text: 'Oi, quero ajuda' });
    const hook = await hooks.next();
    expect(messenger.verifyWebhook(hook, channel)).toBe(true);
    expect(
      messenger.verifyWebhook(
        { ...hook, headers: { ...hook.headers, 'x-hub-signature-256': hubSignature(hook.rawBody, 'wrong') } },
        channel,
      ),
    ).toBe(false);
    expect(messenger.verifyWebhook({ ...hook, rawBody: hook.rawBody.replace('ajuda', 'AJUDA') }, channel)).toBe(false);
    const [event] = messenger.parseWebhook({ rawBody: hook.rawBody });
    expect(event).toMatchObject({ kind: 'message', from: ana.id, sender: { identifier: ana.id, name: null }, text: 'Oi, quero ajuda' });
    // An Instagram adapter does not take a page webhook.
    expect(() => instagram.parseWebhook({ rawBody: hook.rawBody })).toThrow(/instagram/);
  });

  it('downloads an image from the webhook address and turns delivery receipts into status events; echoes are ignored', async () => {
    await sim.sendInbound({ from: ana, image: Buffer.from('fake-jpeg') });
    const [event] = messenger.parseWebhook({ rawBody: (await hooks.next()).rawBody });
    if (event?.kind !== 'message' || !event.media) throw new Error('no media');
    const file = await messenger.fetchMedia(event.media, channel, 1024);
    expect(file.bytes.toString()).toBe('fake-jpeg');
    expect(file.contentType).toBe('image/jpeg');
    await expect(messenger.fetchMedia({ ...event.media, ref: 'https://evil.example/x.jpg' }, channel, 1024)).rejects.toThrow(/hosts/);

    await sim.sendDelivery(ana.id, ['m_1', 'm_2']);
    expect(
      messenger.parseWebhook({ rawBody: (await hooks.next()).rawBody }).map((e) => e.kind === 'status' && [e.externalId, e.status]),
    ).toEqual([
      ['m_1', 'delivered'],
      ['m_2', 'delivered'],
    ]);
    const echo = {
      object: 'page',
      entry: [
        { id: PAGE, messaging: [{ sender: { id: PAGE }, recipient: { id: ana.id }, message: { mid: 'm_e', text: 'x', is_echo: true } }] },
      ],
    };
    expect(messenger.parseWebhook({ rawBody: JSON.stringify(echo) })).toEqual([]);
    expect(() => messenger.parseWebhook({ rawBody: '{"object":"page"}' })).toThrow(/webhook/);
  });

  it('sends text and an attachment by link (its text after it), and looks the contact up by PSID', async () => {
    await sim.sendInbound({ from: ana, text: 'oi' });
    const result = await messenger.send(message(), channel);
    expect(result.externalId).toMatch(/^m_/);
    await messenger.send(
      message({
        content: 'Segue o boleto',
        annex: { url: 'https://atende.example/f/1', contentType: 'application/pdf', originalFilename: 'boleto.pdf', size: 1000 },
      }),
      channel,
    );
    expect(sim.sent().map((s) => [s.text, s.attachment])).toEqual([
      ['Olá, Ana!', null],
      [null, { type: 'file', url: 'https://atende.example/f/1' }],
      ['Segue o boleto', null],
    ]);
    expect(await messenger.senderName(ana.id, channel)).toBe('Ana Souza');
    expect(await messenger.senderName('999', channel)).toBeNull();
  });

  it('refuses outside the 24-hour window before calling, and says so when Meta refuses it', async () => {
    await sim.sendInbound({ from: ana, text: 'oi' });
    const before = await deliveryErrorOf(messenger.send(message({ lastContactMessageAt: new Date(Date.now() - 25 * 3600_000) }), channel));
    expect(before.kind).toBe('permanent');
    expect(before.message).toContain('channel_window_closed');
    expect(sim.sent()).toEqual([]);
    sim.setLastMessageAt(ana.id, new Date(Date.now() - 25 * 3600_000));
    const meta = await deliveryErrorOf(messenger.send(message(), channel));
    expect(meta.kind).toBe('permanent');
    expect(meta.message).toContain('channel_window_closed');
  });

  it('answers for 7 days with the HUMAN_AGENT tag when the channel has it on, and not after', async () => {
    const tagged: ChannelTarget = { ...channel, config: { ...(channel.config as object), human_agent_tag: 'true' } };
    const threeDaysAgo = new Date(Date.now() - 3 * 24 * 3600_000);
    sim.setLastMessageAt(ana.id, threeDaysAgo);
    sim.reset();
    await messenger.send(message({ lastContactMessageAt: threeDaysAgo }), tagged);
    expect(sim.sent()).toEqual([expect.objectContaining({ recipient: ana.id, tag: 'HUMAN_AGENT', answeredStatus: 200 })]);
    // Without the setting the same answer is refused before calling.
    const untagged = await deliveryErrorOf(messenger.send(message({ lastContactMessageAt: threeDaysAgo }), channel));
    expect(untagged.message).toContain('channel_window_closed');
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600_000);
    const late = await deliveryErrorOf(messenger.send(message({ lastContactMessageAt: eightDaysAgo }), tagged));
    expect(late.message).toContain('channel_window_closed');
    expect(sim.sent()).toHaveLength(1);
  });

  it('treats rate limits as transient, other Graph errors and refusals of ours as permanent', async () => {
    await sim.sendInbound({ from: ana, text: 'oi' });
    sim.rateLimitNext(1);
    const limited = await deliveryErrorOf(messenger.send(message(), channel));
    expect(limited.kind).toBe('transient');
    expect(limited.message).toContain('613');
    const badToken = await deliveryErrorOf(messenger.send(message(), { ...channel, credentials: { access_token: 'nope' } }));
    expect(badToken.kind).toBe('permanent');
    expect(badToken.message).toContain('190');
    const long = await deliveryErrorOf(messenger.send(message({ content: 'x'.repeat(2001) }), channel));
    expect(long.message).toContain('channel_text_too_long');
    const big = await deliveryErrorOf(
      messenger.send(
        message({ annex: { url: 'https://a.example/i', contentType: 'image/png', originalFilename: 'i.png', size: 9 * 1024 * 1024 } }),
        channel,
      ),
    );
    expect(big.message).toContain('channel_attachment_too_large');
  });
});

describe('Instagram adapter against the Meta simulator', () => {
  it('takes instagram webhooks, sends within 1000 characters and only the file types Instagram takes', async () => {
    await igSim.sendInbound({ from: ana, text: 'oi do insta' });
    const hook = await hooks.next();
    expect(instagram.verifyWebhook(hook, igChannel)).toBe(true);
    expect(instagram.parseWebhook({ rawBody: hook.rawBody })).toMatchObject([
      { kind: 'message', sender: { identifier: ana.id }, text: 'oi do insta' },
    ]);
    await instagram.send(message(), igChannel);
    expect(igSim.sent()[0]).toMatchObject({ recipient: ana.id, text: 'Olá, Ana!' });
    expect((await deliveryErrorOf(instagram.send(message({ content: 'x'.repeat(1001) }), igChannel))).message).toContain(
      'channel_text_too_long',
    );
    const doc = message({ annex: { url: 'https://a.example/d', contentType: 'application/msword', originalFilename: 'd.doc', size: 10 } });
    expect((await deliveryErrorOf(instagram.send(doc, igChannel))).message).toContain('channel_attachment_type');
    expect(await instagram.senderName(ana.id, igChannel)).toBe('Ana Souza');
  });
});
