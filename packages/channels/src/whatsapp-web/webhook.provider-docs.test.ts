import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChannelTarget } from '../adapter';
import { ChannelDeliveryError } from '../adapter';
import { WhatsAppWebAdapter, bridgeFailure } from './adapter';

/**
 * Contract tests against the calls and webhook bodies the bridge documents
 * (fixtures/provider-docs/whatsapp-web, whose README names each source): what the adapter makes of
 * them, independent of our simulator.
 */

const adapter = new WhatsAppWebAdapter();
const channel: ChannelTarget = {
  uuid: 'ch-web',
  type: 'whatsapp_web',
  config: { base_url: 'https://evolution.example.com', instance: 'teste-docs' },
  credentials: { api_key: 'B6D711FCDE4D4FD5936544120E713976', webhook_secret: 'ours' },
};
const fixture = (name: string) => readFileSync(new URL(`../fixtures/provider-docs/whatsapp-web/${name}`, import.meta.url), 'utf8');
const parse = (name: string, target = channel) => adapter.parseWebhook({ rawBody: fixture(name) }, target);
const answer = (status: number, name: string) => {
  const bytes = Buffer.from(fixture(name));
  return { status, bytes, headers: new Headers(), text: () => bytes.toString(), json: () => JSON.parse(bytes.toString()) as unknown };
};

describe('WhatsApp Web bridge: documented webhooks', () => {
  it('takes a contact text (messages.upsert, conversation) with the phone from remoteJid and pushName as the name', () => {
    expect(parse('messages-upsert-conversation.json')).toEqual([
      {
        kind: 'message',
        externalId: 'ABC1234',
        from: '+557499879409',
        profileName: 'Davidson',
        text: 'What is your name?',
        media: null,
        button: null,
        contextExternalId: null,
        at: new Date(1764497700 * 1000),
      },
    ]);
  });

  it('names the message a reply answers (contextInfo.stanzaId)', () => {
    expect(parse('messages-upsert-reply.json')).toEqual([
      expect.objectContaining({ text: 'Sim, pode mandar', contextExternalId: 'BAE594145F4C59B4' }),
    ]);
  });

  it('keeps an image, a voice note and a document as media fetched by the message id, with their captions', () => {
    expect(parse('messages-upsert-image.json')).toEqual([
      expect.objectContaining({
        externalId: '3EB0C767D26A1D4B',
        text: null,
        media: { ref: '3EB0C767D26A1D4B', contentType: 'image/jpeg', filename: null, caption: 'Foto do produto' },
      }),
    ]);
    expect(parse('messages-upsert-voice.json')).toEqual([
      expect.objectContaining({
        media: { ref: '3EB0F00D1234ABCD5678', contentType: 'audio/ogg', filename: null, caption: null, voice: true },
      }),
    ]);
    expect(parse('messages-upsert-document.json')).toEqual([
      expect.objectContaining({
        media: { ref: '3EB0DOC0C0FFEE112233', contentType: 'application/pdf', filename: 'orcamento.pdf', caption: 'Segue o orçamento' },
      }),
    ]);
  });

  it('keeps a location as its name, address and map link, and a contact card with its number and e-mail', () => {
    const [place] = parse('messages-upsert-location.json');
    expect(place).toMatchObject({
      text: 'MASP\nAv. Paulista, 1578 - São Paulo\nhttps://www.openstreetmap.org/?mlat=-23.5614&mlon=-46.6559#map=17/-23.5614/-46.6559',
      details: { type: 'location', latitude: -23.5614, longitude: -46.6559, name: 'MASP', address: 'Av. Paulista, 1578 - São Paulo' },
    });
    const [card] = parse('messages-upsert-contact.json');
    expect(card).toMatchObject({
      text: 'Bruno Lima\n+55 11 98765-4321\nbruno@example.com',
      details: { type: 'contact', name: 'Bruno Lima', phones: ['+55 11 98765-4321'], emails: ['bruno@example.com'] },
    });
  });

  it('leaves out the business’s own messages and group messages, saying why', () => {
    expect(parse('messages-upsert-from-me.json')).toEqual([{ kind: 'ignored', reason: 'message sent by the business' }]);
    expect(parse('messages-upsert-group.json')).toEqual([{ kind: 'ignored', reason: 'group message' }]);
  });

  it('answers a contact known by a LID at the phone the bridge gives beside it', () => {
    expect(parse('messages-upsert-lid.json')).toEqual([expect.objectContaining({ from: '+557499879409', text: 'Oi, tudo bem?' })]);
  });

  it('moves our message on delivery and read receipts (messages.update), not on a contact message read', () => {
    expect(parse('messages-update-delivery.json')).toEqual([
      { kind: 'status', externalId: 'BAE594145F4C59B4', status: 'delivered', error: null, at: new Date('2026-11-30T10:15:00.000Z') },
    ]);
    expect(parse('messages-update-read.json')).toEqual([expect.objectContaining({ kind: 'status', status: 'read' })]);
    expect(parse('messages-update-contact-read.json')).toEqual([{ kind: 'ignored', reason: 'receipt of a contact message' }]);
  });

  it('reports the phone connecting and disconnecting (connection.update), and takes nothing from a new QR code', () => {
    expect(parse('connection-update-open.json')).toEqual([
      { kind: 'connection', state: 'open', reason: 200, at: new Date('2026-11-30T10:15:00.000Z') },
    ]);
    expect(parse('connection-update-close.json')).toEqual([
      { kind: 'connection', state: 'close', reason: 401, at: new Date('2026-11-30T10:15:00.000Z') },
    ]);
    expect(parse('qrcode-updated.json')).toEqual([]);
  });

  it('leaves out another instance’s events and refuses a body that is no bridge event', () => {
    const other = { ...channel, config: { base_url: 'https://evolution.example.com', instance: 'loja-2' } };
    expect(parse('messages-upsert-conversation.json', other)).toEqual([{ kind: 'ignored', reason: 'event of another bridge instance' }]);
    expect(() => adapter.parseWebhook({ rawBody: '{"entry":[]}' }, channel)).toThrow(ChannelDeliveryError);
    expect(() => adapter.parseWebhook({ rawBody: 'not json' }, channel)).toThrow('Webhook body is not JSON');
  });

  it('takes a delivery whose body carries the channel’s API key, and refuses one with another', () => {
    const body = fixture('messages-upsert-conversation.json');
    expect(adapter.verifyWebhook({ rawBody: body, headers: {}, url: '' }, channel)).toBe(true);
    const other = { ...channel, credentials: { api_key: 'another-key', webhook_secret: 'ours' } };
    expect(adapter.verifyWebhook({ rawBody: body, headers: {}, url: '' }, other)).toBe(false);
    expect(adapter.verifyWebhook({ rawBody: body, headers: { authorization: 'Bearer ours' }, url: '' }, other)).toBe(true);
  });
});

describe('WhatsApp Web bridge: documented answers', () => {
  it('words the bridge’s error answer (unknown instance: 404) as a permanent failure naming it', () => {
    const error = bridgeFailure('WhatsApp Web bridge', answer(404, 'connection-state-not-found.json'));
    expect(error).toMatchObject({ kind: 'permanent', httpStatus: 404, outcomeUnknown: false });
    expect(error.message).toBe('WhatsApp Web bridge answered 404: The "invalid-instance" instance does not exist');
  });

  it('reads the sent message’s id from the send answers', async () => {
    for (const [file, id] of [
      ['send-text-answer.json', 'BAE594145F4C59B4'],
      ['send-media-answer.json', 'BAE5F5A632EAE722'],
      ['send-audio-answer.json', 'BAE5EFED2AB0BB9F'],
    ] as const) {
      const sender = new WhatsAppWebAdapter({ fetch: async () => new Response(fixture(file), { status: 201 }) });
      const sent = await sender.send(
        {
          uuid: 'm',
          conversationUuid: 'c',
          content: 'Olá!',
          annex: null,
          author: 'USER',
          createdAt: new Date(),
          contact: { uuid: 'u', phoneNumber: '+553198296801', identifier: null },
        },
        channel,
      );
      expect(sent.externalId).toBe(id);
    }
  });

  it('shows the QR code of instance/connect while the phone is not linked, and none once it is', async () => {
    const replies = (state: string) => async (input: string | URL | Request) =>
      String(input).includes('connectionState')
        ? new Response(JSON.stringify({ instance: { instanceName: 'teste-docs', state } }))
        : new Response(fixture('connect-answer.json'));
    const closed = new WhatsAppWebAdapter({ fetch: replies('close') });
    const documented = JSON.parse(fixture('connect-answer.json')) as { base64: string; code: string };
    expect(await closed.connection(channel)).toEqual({ state: 'connecting', qr: documented.base64, code: documented.code });
    const open = new WhatsAppWebAdapter({ fetch: replies('open') });
    expect(await open.connection(channel)).toEqual({ state: 'open', qr: null, code: null });
  });

  it('decodes a received file from getBase64FromMediaMessage', async () => {
    const fetcher = new WhatsAppWebAdapter({ fetch: async () => new Response(fixture('get-base64-answer.json')) });
    const file = await fetcher.fetchMedia({ ref: '3EB0C767D26A1D4B', contentType: null, filename: null, caption: null }, channel, 1024);
    expect(file.contentType).toBe('image/jpeg');
    expect(file.filename).toBe('3EB0C767D26A1D4B.jpeg');
    expect(file.bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });
});
