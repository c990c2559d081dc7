import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelTarget, OutboundMessage } from '../adapter';
import { LOCAL_OUTBOUND } from '../test-outbound';
import { deliveryErrorOf, startWebhookCapture, type WebhookCapture } from '@atende/simulators/whatsapp-harness';
import { TelegramAdapter } from './adapter';
import { startTelegramSimulator, type TelegramSimulator } from '@atende/simulators/telegram';

const TOKEN = '7000000123:AAtest-token_abc';
const SECRET = 'hook-secret_123';
const adapter = new TelegramAdapter({ outbound: LOCAL_OUTBOUND, timeoutMs: 2000 });
let sim: TelegramSimulator;
let hooks: WebhookCapture;
let channel: ChannelTarget;
const ana = { id: 555000111, firstName: 'Ana', lastName: 'Souza', username: 'anasouza' };

const message = (overrides: Partial<OutboundMessage> = {}): OutboundMessage => ({
  uuid: randomUUID(),
  conversationUuid: 'c',
  content: 'Olá, Ana!',
  annex: null,
  author: 'USER',
  createdAt: new Date(),
  contact: { uuid: 'u', phoneNumber: null, identifier: String(ana.id) },
  ...overrides,
});

beforeAll(async () => {
  sim = await startTelegramSimulator({ token: TOKEN });
  hooks = await startWebhookCapture();
  channel = { uuid: 'ch', type: 'telegram', config: { base_url: sim.baseUrl }, credentials: { bot_token: TOKEN, webhook_secret: SECRET } };
  await adapter.setUp(channel, { url: hooks.url, secret: SECRET });
});
afterAll(async () => {
  await sim.close();
  await hooks.close();
});
beforeEach(() => {
  sim.reset();
  hooks.clear();
});

describe('Telegram adapter against the Bot API simulator', () => {
  it('registers the webhook with our secret, and refuses a bad token before anything is set', async () => {
    expect(sim.webhook()).toEqual({ url: hooks.url, secret: SECRET });
    const wrong = await deliveryErrorOf(
      adapter.setUp({ ...channel, credentials: { bot_token: '7000000123:AAother' } }, { url: 'http://127.0.0.1:1/x', secret: SECRET }),
    );
    expect(wrong).toMatchObject({ kind: 'permanent', httpStatus: 401, message: 'Telegram answered 401: Unauthorized' });
    expect(sim.webhook()?.url).toBe(hooks.url);
    const malformed = await deliveryErrorOf(
      adapter.setUp({ ...channel, credentials: { bot_token: 'not a token/../x' } }, { url: hooks.url, secret: SECRET }),
    );
    expect(malformed.httpStatus).toBe(401);
  });

  it('sends text with sendMessage and answers the chat-scoped message id', async () => {
    const result = await adapter.send(message(), channel);
    expect(result.externalId).toMatch(new RegExp(`^${ana.id}:\\d+$`));
    expect(sim.sent()).toEqual([
      expect.objectContaining({ method: 'sendMessage', chatId: String(ana.id), text: 'Olá, Ana!', answeredStatus: 200 }),
    ]);
  });

  it('uploads attachments multipart with the right method and caption, or passes the link', async () => {
    const pdf = Buffer.from('%PDF-1.4 boleto');
    await adapter.send(
      message({
        content: 'Segue o boleto',
        annex: {
          url: 'https://example.test/f',
          contentType: 'application/pdf',
          originalFilename: 'boleto.pdf',
          size: pdf.length,
          read: async () => pdf,
        },
      }),
      channel,
    );
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    await adapter.send(
      message({
        content: '',
        annex: { url: 'https://example.test/p', contentType: 'image/png', originalFilename: 'p.png', read: async () => png },
      }),
      channel,
    );
    const ogg = Buffer.from('OggS voice');
    await adapter.send(
      message({
        content: '',
        voice: true,
        annex: { url: 'https://example.test/v', contentType: 'audio/ogg', originalFilename: 'v.ogg', read: async () => ogg },
      }),
      channel,
    );
    // A Chrome recording (WebM) is no Telegram voice note: it goes as a file.
    await adapter.send(
      message({
        content: '',
        voice: true,
        annex: { url: 'https://example.test/w', contentType: 'audio/webm', originalFilename: 'w.webm' },
      }),
      channel,
    );
    const sent = sim.sent();
    expect(sent.map((s) => s.method)).toEqual(['sendDocument', 'sendPhoto', 'sendVoice', 'sendDocument']);
    expect(sent[0]).toMatchObject({
      caption: 'Segue o boleto',
      file: { filename: 'boleto.pdf', contentType: 'application/pdf', bytes: pdf },
    });
    expect(sent[1]).toMatchObject({ caption: null, file: { bytes: png } });
    expect(sent[2]).toMatchObject({ file: { bytes: ogg } });
    expect(sent[3]).toMatchObject({ file: { url: 'https://example.test/w' } });
  });

  it("refuses what Telegram would refuse before calling it, with the capability's code", async () => {
    const long = await deliveryErrorOf(adapter.send(message({ content: 'x'.repeat(4097) }), channel));
    expect(long).toMatchObject({ kind: 'permanent' });
    expect(long.message).toContain('channel_text_too_long');
    const caption = await deliveryErrorOf(
      adapter.send(
        message({
          content: 'x'.repeat(1025),
          annex: { url: 'https://example.test/p', contentType: 'image/png', originalFilename: 'p.png' },
        }),
        channel,
      ),
    );
    expect(caption.message).toContain('channel_caption_too_long');
    const big = await deliveryErrorOf(
      adapter.send(
        message({ annex: { url: 'https://example.test/p', contentType: 'image/png', originalFilename: 'p.png', size: 11 * 1024 * 1024 } }),
        channel,
      ),
    );
    expect(big.message).toContain('channel_attachment_too_large');
    const noChat = await deliveryErrorOf(
      adapter.send(message({ contact: { uuid: 'u', phoneNumber: '+5511988887777', identifier: null } }), channel),
    );
    expect(noChat.message).toBe('The contact has no Telegram chat');
    expect(sim.sent()).toEqual([]);
  });

  it("maps the Bot API's errors: 429 with retry_after is transient, 400 and 403 are permanent", async () => {
    sim.rateLimitNext(1, 7);
    const limited = await deliveryErrorOf(adapter.send(message(), channel));
    expect(limited).toMatchObject({
      kind: 'transient',
      httpStatus: 429,
      message: 'Telegram answered 429: Too Many Requests: retry after 7 (retry after 7 s)',
    });
    sim.failNext(1, 403);
    expect(await deliveryErrorOf(adapter.send(message(), channel))).toMatchObject({
      kind: 'permanent',
      message: 'Telegram answered 403: Forbidden: bot was blocked by the user',
    });
    sim.failNext(1, 502);
    expect((await deliveryErrorOf(adapter.send(message(), channel))).kind).toBe('transient');
  });

  it('receives updates with the secret header: text, contact identity, photo (largest) and document via getFile', async () => {
    await sim.sendInbound({ from: ana, text: 'Oi, tudo bem?' });
    const hook = await hooks.next();
    expect(adapter.verifyWebhook(hook, channel)).toBe(true);
    expect(adapter.verifyWebhook({ ...hook, headers: { ...hook.headers, 'x-telegram-bot-api-secret-token': 'wrong' } }, channel)).toBe(
      false,
    );
    expect(adapter.verifyWebhook({ ...hook, headers: {} }, channel)).toBe(false);
    const [text] = adapter.parseWebhook({ rawBody: hook.rawBody });
    expect(text).toMatchObject({
      kind: 'message',
      from: String(ana.id),
      sender: { identifier: String(ana.id), name: 'Ana Souza', username: 'anasouza' },
      text: 'Oi, tudo bem?',
      media: null,
    });

    const photo = Buffer.alloc(2048, 7);
    await sim.sendInbound({ from: ana, photo, caption: 'Olha' });
    const [withPhoto] = adapter.parseWebhook({ rawBody: (await hooks.next()).rawBody });
    if (withPhoto?.kind !== 'message' || !withPhoto.media) throw new Error('expected a photo message');
    expect(withPhoto.media.caption).toBe('Olha');
    const downloaded = await adapter.fetchMedia(withPhoto.media, channel, 1024 * 1024);
    expect(downloaded).toMatchObject({ contentType: 'image/jpeg', bytes: photo });

    await sim.sendInbound({ from: ana, document: { bytes: Buffer.from('%PDF'), filename: 'nota.pdf', mimeType: 'application/pdf' } });
    const [withDoc] = adapter.parseWebhook({ rawBody: (await hooks.next()).rawBody });
    if (withDoc?.kind !== 'message' || !withDoc.media) throw new Error('expected a document message');
    expect(await adapter.fetchMedia(withDoc.media, channel, 1024)).toMatchObject({ contentType: 'application/pdf', filename: 'nota.pdf' });
    expect((await deliveryErrorOf(adapter.fetchMedia(withPhoto.media, channel, 100))).kind).toBe('permanent');
  });

  it('ignores updates that are not private messages and refuses bodies that are not updates', () => {
    const edited = JSON.stringify({ update_id: 1, edited_message: { message_id: 1, chat: { id: 1, type: 'private' }, text: 'x' } });
    expect(adapter.parseWebhook({ rawBody: edited })).toEqual([]);
    const group = JSON.stringify({
      update_id: 2,
      message: { message_id: 1, from: { id: 5, first_name: 'A' }, chat: { id: -100, type: 'group' }, text: 'x' },
    });
    expect(adapter.parseWebhook({ rawBody: group })).toEqual([]);
    expect(() => adapter.parseWebhook({ rawBody: '{"entry":[]}' })).toThrow('not a Telegram update');
    expect(() => adapter.parseWebhook({ rawBody: 'nope' })).toThrow('not JSON');
  });
});
