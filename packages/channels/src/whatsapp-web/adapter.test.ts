import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelTarget, OutboundMessage } from '../adapter';
import { LOCAL_OUTBOUND } from '../test-outbound';
import { deliveryErrorOf, startWebhookCapture, type WebhookCapture } from '@atende/simulators/whatsapp-harness';
import { startWhatsAppWebSimulator, type WhatsAppWebSimulator } from '@atende/simulators/whatsapp-web';
import { WhatsAppWebAdapter } from './adapter';

const INSTANCE = 'loja-centro';
const KEY = 'instance-token-123';
const SECRET = 'hook-secret_abc';
const adapter = new WhatsAppWebAdapter({ outbound: LOCAL_OUTBOUND, timeoutMs: 2000 });
let sim: WhatsAppWebSimulator;
let hooks: WebhookCapture;
let channel: ChannelTarget;

const message = (overrides: Partial<OutboundMessage> = {}): OutboundMessage => ({
  uuid: randomUUID(),
  conversationUuid: 'c',
  content: 'Olá, Ana!',
  annex: null,
  author: 'USER',
  createdAt: new Date(),
  contact: { uuid: 'u', phoneNumber: '+5511987654321', identifier: null },
  ...overrides,
});
const nextEvents = async () => {
  const hook = await hooks.next();
  if (!adapter.verifyWebhook(hook, channel)) throw new Error('The webhook did not verify');
  return adapter.parseWebhook(hook, channel);
};

beforeAll(async () => {
  sim = await startWhatsAppWebSimulator({ instance: INSTANCE, apiKey: KEY, exposeApiKey: false, notOnWhatsApp: ['5511900001111'] });
  hooks = await startWebhookCapture();
  channel = {
    uuid: 'ch',
    type: 'whatsapp_web',
    config: { base_url: sim.baseUrl, instance: INSTANCE },
    credentials: { api_key: KEY, webhook_secret: SECRET },
  };
  await adapter.setUp(channel, { url: hooks.url, secret: SECRET });
});
afterAll(async () => {
  await sim.close();
  await hooks.close();
});
beforeEach(async () => {
  sim.reset();
  hooks.clear();
  if (sim.state !== 'open') await sim.setConnection('open');
  hooks.clear();
});

describe('WhatsApp Web adapter against the bridge simulator', () => {
  it('sets the instance’s webhook to the channel with our secret as its Authorization header', () => {
    expect(sim.webhook()).toEqual({
      url: hooks.url,
      headers: { authorization: `Bearer ${SECRET}` },
      events: ['MESSAGES_UPSERT', 'MESSAGES_UPDATE', 'CONNECTION_UPDATE', 'QRCODE_UPDATED'],
    });
  });

  it('sends text to the contact’s number and answers the bridge’s message id', async () => {
    const sent = await adapter.send(message(), channel);
    expect(sim.sent()).toEqual([expect.objectContaining({ endpoint: 'sendText', number: '5511987654321', text: 'Olá, Ana!' })]);
    expect(sent.externalId).toBe(sim.sent()[0]!.messageId);
  });

  it('sends a template message as its rendered text (the bridge has no templates)', async () => {
    const template = { name: 'promo', language: 'pt_BR', header: null, body: ['Ana'], urlButtons: [] };
    await adapter.send(message({ content: 'Oi Ana, temos novidades', template }), channel);
    expect(sim.sent()).toEqual([expect.objectContaining({ endpoint: 'sendText', text: 'Oi Ana, temos novidades' })]);
  });

  it('sends images, videos and other files by their signed link with the caption, and a voice note as WhatsApp audio', async () => {
    const annex = (contentType: string, originalFilename: string) => ({
      url: `https://atende.example/f/${originalFilename}?sig=x`,
      contentType,
      originalFilename,
    });
    await adapter.send(message({ content: 'A foto', annex: annex('image/jpeg', 'foto.jpg') }), channel);
    await adapter.send(message({ content: '', annex: annex('video/mp4', 'video.mp4') }), channel);
    await adapter.send(message({ content: 'O orçamento', annex: annex('application/pdf', 'orcamento.pdf') }), channel);
    await adapter.send(message({ content: '', annex: annex('audio/ogg', 'voz.ogg'), voice: true }), channel);
    expect(sim.sent()).toEqual([
      expect.objectContaining({
        endpoint: 'sendMedia',
        mediatype: 'image',
        mimetype: 'image/jpeg',
        caption: 'A foto',
        media: 'https://atende.example/f/foto.jpg?sig=x',
      }),
      expect.objectContaining({ endpoint: 'sendMedia', mediatype: 'video', mimetype: 'video/mp4' }),
      expect.objectContaining({ endpoint: 'sendMedia', mediatype: 'document', fileName: 'orcamento.pdf', caption: 'O orçamento' }),
      expect.objectContaining({ endpoint: 'sendWhatsAppAudio', media: 'https://atende.example/f/voz.ogg?sig=x' }),
    ]);
    expect(sim.sent().every((s) => s.messageId)).toBe(true);
  });

  it('refuses permanently a wrong key (401), an unknown instance (404), a number not on WhatsApp and a phone not linked (400)', async () => {
    const wrongKey = await deliveryErrorOf(adapter.send(message(), { ...channel, credentials: { api_key: 'nope' } }));
    expect(wrongKey).toMatchObject({ kind: 'permanent', httpStatus: 401, message: 'WhatsApp Web bridge answered 401: Unauthorized' });
    const otherInstance = await deliveryErrorOf(
      adapter.send(message(), { ...channel, config: { base_url: sim.baseUrl, instance: 'outra' } }),
    );
    expect(otherInstance).toMatchObject({ kind: 'permanent', httpStatus: 404 });
    const unknown = await deliveryErrorOf(
      adapter.send(message({ contact: { uuid: 'u', phoneNumber: '+5511900001111', identifier: null } }), channel),
    );
    expect(unknown.message).toBe('WhatsApp Web bridge answered 400: 5511900001111 is not on WhatsApp');
    await sim.setConnection('close');
    const closed = await deliveryErrorOf(adapter.send(message(), channel));
    expect(closed).toMatchObject({
      kind: 'permanent',
      httpStatus: 400,
      message: 'WhatsApp Web bridge answered 400: Error: Connection Closed',
    });
  });

  it('says a 5xx may succeed later, a gateway’s 502 may have sent (never repeated), and an unreachable bridge was not reached', async () => {
    sim.failNext(1, 500);
    expect(await deliveryErrorOf(adapter.send(message(), channel))).toMatchObject({ kind: 'transient', outcomeUnknown: false });
    sim.failNext(1, 502);
    expect(await deliveryErrorOf(adapter.send(message(), channel))).toMatchObject({ kind: 'transient', outcomeUnknown: true });
    const down = await deliveryErrorOf(
      adapter.send(message(), { ...channel, config: { base_url: 'http://127.0.0.1:9', instance: INSTANCE } }),
    );
    expect(down).toMatchObject({ kind: 'transient', outcomeUnknown: false });
  });

  it('takes a contact’s text from the webhook, with the phone and push name, verified by our secret', async () => {
    await sim.sendInbound({ from: { phone: '+55 11 98765-4321', name: 'Ana' }, text: 'Oi, quero um orçamento' });
    expect(await nextEvents()).toEqual([
      expect.objectContaining({ kind: 'message', from: '+5511987654321', profileName: 'Ana', text: 'Oi, quero um orçamento', media: null }),
    ]);
  });

  it('fetches a contact’s photo and voice note from the bridge by the message id', async () => {
    const photo = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(3000, 7)]);
    await sim.sendInbound({ from: { phone: '5511987654321' }, image: { bytes: photo, caption: 'Foto' } });
    const [image] = await nextEvents();
    if (image?.kind !== 'message' || !image.media) throw new Error('no media');
    expect(image.media).toMatchObject({ contentType: 'image/jpeg', caption: 'Foto' });
    expect(await adapter.fetchMedia(image.media, channel, 1024 * 1024)).toMatchObject({ bytes: photo, contentType: 'image/jpeg' });
    await expect(adapter.fetchMedia(image.media, channel, 100)).rejects.toMatchObject({ kind: 'permanent' });
    const ogg = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(400, 1)]);
    await sim.sendInbound({ from: { phone: '5511987654321' }, voice: ogg });
    const [voice] = await nextEvents();
    if (voice?.kind !== 'message' || !voice.media) throw new Error('no media');
    expect(voice.media).toMatchObject({ contentType: 'audio/ogg', voice: true });
    expect((await adapter.fetchMedia(voice.media, channel, 1024 * 1024)).bytes).toEqual(ogg);
  });

  it('turns receipts of our message into statuses, and leaves group messages out', async () => {
    const { externalId } = await adapter.send(message(), channel);
    await sim.receipt(externalId!, 'DELIVERY_ACK');
    expect(await nextEvents()).toEqual([expect.objectContaining({ kind: 'status', externalId, status: 'delivered' })]);
    await sim.receipt(externalId!, 'READ');
    expect(await nextEvents()).toEqual([expect.objectContaining({ kind: 'status', externalId, status: 'read' })]);
    await sim.sendInbound({ from: { phone: '5511987654321' }, text: 'no grupo', group: true });
    expect(await nextEvents()).toEqual([{ kind: 'ignored', reason: 'group message' }]);
  });

  it('refuses a delivery without our secret (and without the key in the body)', async () => {
    await sim.postEvent('messages.upsert', { key: { remoteJid: '5511987654321@s.whatsapp.net', fromMe: false, id: 'X' } }, {});
    const hook = await hooks.next();
    expect(adapter.verifyWebhook(hook, channel)).toBe(false);
  });

  it('reads the phone’s state, and a QR code to link it while it is not (which starts the linking)', async () => {
    expect(await adapter.connection(channel)).toEqual({ state: 'open', qr: null, code: null });
    await sim.setConnection('close');
    const closed = await adapter.connection(channel);
    expect(closed.state).toBe('connecting');
    expect(closed.qr).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(closed.code).toMatch(/^2@/);
    expect(sim.state).toBe('connecting');
    await sim.setConnection('open');
    expect(await nextEvents()).toEqual([expect.objectContaining({ kind: 'connection', state: 'close' })]);
    expect(await nextEvents()).toEqual([expect.objectContaining({ kind: 'connection', state: 'open' })]);
    await expect(adapter.connection({ ...channel, credentials: { api_key: 'nope' } })).rejects.toMatchObject({ httpStatus: 401 });
  });
});
