import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelTarget, OutboundMessage } from '../adapter';
import { LOCAL_OUTBOUND } from '../test-outbound';
import { TWILIO_URL_HEADER } from '../twilio/messaging';
import { deliveryErrorOf, startWebhookCapture, type WebhookCapture } from '@atende/simulators/whatsapp-harness';
import { startWhatsAppSimulator, type WhatsAppSimulator } from '@atende/simulators/whatsapp';
import { SmsTwilioAdapter } from './adapter';

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'sms-auth-token';
const adapter = new SmsTwilioAdapter({ outbound: LOCAL_OUTBOUND, timeoutMs: 2000 });
let sim: WhatsAppSimulator;
let hooks: WebhookCapture;
let channel: ChannelTarget;

const message = (overrides: Partial<OutboundMessage> = {}): OutboundMessage => ({
  uuid: randomUUID(),
  conversationUuid: 'c',
  content: 'Olá, Ana!',
  annex: null,
  author: 'USER',
  createdAt: new Date(),
  contact: { uuid: 'u', phoneNumber: '+5511988887777', identifier: null },
  ...overrides,
});
const annex = { url: 'https://files.example.test/f/1?sig=x', contentType: 'image/png', originalFilename: 'p.png', size: 1000 };

beforeAll(async () => {
  sim = await startWhatsAppSimulator({ provider: 'twilio_sms', credentials: { account_sid: SID, auth_token: TOKEN } });
  hooks = await startWebhookCapture();
  sim.setWebhookUrl(hooks.url);
  channel = {
    uuid: 'ch',
    type: 'sms',
    config: { base_url: sim.baseUrl, account_sid: SID, from_number: '+15005550006' },
    credentials: { auth_token: TOKEN },
    webhookUrl: hooks.url,
  };
});
afterAll(async () => {
  await sim.close();
  await hooks.close();
});
beforeEach(() => {
  sim.reset();
  hooks.clear();
});

const received = () => hooks.next();

describe('SMS adapter (Twilio Programmable Messaging) against the simulator', () => {
  it('sends text with plain E.164 numbers and a StatusCallback to the channel webhook', async () => {
    const result = await adapter.send(message(), channel);
    expect(result.externalId).toMatch(/^SM[0-9a-f]{24}$/);
    expect(sim.sent()).toEqual([
      expect.objectContaining({
        answeredStatus: 200,
        body: expect.objectContaining({ To: '+5511988887777', From: '+15005550006', Body: 'Olá, Ana!', StatusCallback: hooks.url }),
      }),
    ]);
    expect(sim.sent()[0]!.body.MediaUrl).toBeUndefined();
  });

  it('sends from the Messaging Service when one is set', async () => {
    await adapter.send(message(), { ...channel, config: { base_url: sim.baseUrl, account_sid: SID, messaging_service_sid: 'MG123' } });
    expect(sim.sent()[0]!.body).toMatchObject({ MessagingServiceSid: 'MG123' });
    expect(sim.sent()[0]!.body.From).toBeUndefined();
  });

  it('refuses attachments unless MMS is on, and then sends our signed link as MediaUrl', async () => {
    const off = await deliveryErrorOf(adapter.send(message({ annex }), channel));
    expect(off).toMatchObject({ kind: 'permanent' });
    expect(off.message).toContain('channel_attachment_type');
    const mms = { ...channel, config: { ...(channel.config as object), mms_enabled: 'true' } };
    const zip = await deliveryErrorOf(adapter.send(message({ annex: { ...annex, contentType: 'application/zip' } }), mms));
    expect(zip.message).toContain('channel_attachment_type');
    const big = await deliveryErrorOf(adapter.send(message({ annex: { ...annex, size: 6 * 1024 * 1024 } }), mms));
    expect(big.message).toContain('channel_attachment_too_large');
    expect(sim.sent()).toHaveLength(0);
    await adapter.send(message({ content: 'Segue a foto', annex }), mms);
    expect(sim.sent()[0]!.body).toMatchObject({ MediaUrl: annex.url, Body: 'Segue a foto' });
  });

  it("maps Twilio's errors: 21211 permanent with its code and text, 429 transient, a bad token 401", async () => {
    sim.refuseRecipient('+5511988887777');
    const invalid = await deliveryErrorOf(adapter.send(message(), channel));
    expect(invalid).toMatchObject({
      kind: 'permanent',
      httpStatus: 400,
      message: "Twilio answered 400: (#21211) Invalid 'To' Phone Number",
    });
    sim.rateLimitNext(1);
    expect(
      await deliveryErrorOf(adapter.send(message({ contact: { uuid: 'u', phoneNumber: '+5511977776666', identifier: null } }), channel)),
    ).toMatchObject({ kind: 'transient', httpStatus: 429 });
    const unauthorized = await deliveryErrorOf(adapter.send(message(), { ...channel, credentials: { auth_token: 'wrong' } }));
    expect(unauthorized).toMatchObject({ kind: 'permanent', httpStatus: 401 });
    expect(await deliveryErrorOf(adapter.send(message({ content: 'x'.repeat(1601) }), channel))).toMatchObject({ kind: 'permanent' });
  });

  it('verifies X-Twilio-Signature over the public URL and parameters, and refuses a wrong one', async () => {
    await sim.sendInbound({ from: '+5511988887777', text: 'Oi, quero ajuda' });
    const hook = await received();
    expect(adapter.verifyWebhook(hook, channel)).toBe(true);
    expect(adapter.verifyWebhook({ ...hook, url: `${hook.url}?x=1` }, channel)).toBe(false);
    expect(adapter.verifyWebhook({ ...hook, rawBody: hook.rawBody.replace('ajuda', 'ajudx') }, channel)).toBe(false);
    expect(adapter.verifyWebhook(hook, { ...channel, credentials: { auth_token: 'other' } })).toBe(false);
    expect(adapter.verifySignature({ rawBody: hook.rawBody, headers: hook.headers, secret: TOKEN })).toBe(false); // no URL given
    expect(
      adapter.verifySignature({ rawBody: hook.rawBody, headers: { ...hook.headers, [TWILIO_URL_HEADER]: hook.url }, secret: TOKEN }),
    ).toBe(true);
    expect(adapter.parseWebhook({ rawBody: hook.rawBody, contentType: 'application/x-www-form-urlencoded' })).toEqual([
      expect.objectContaining({
        kind: 'message',
        from: '+5511988887777',
        text: 'Oi, quero ajuda',
        media: null,
        externalId: expect.stringMatching(/^SM/),
      }),
    ]);
  });

  it('parses MMS media (one event per medium, text as the first caption) and downloads it from Twilio only', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 9, 9]);
    const sid = await sim.sendInbound({ from: '+5511988887777', media: { contentType: 'image/png', bytes: png, caption: 'A foto' } });
    const [event] = adapter.parseWebhook({ rawBody: (await received()).rawBody, contentType: 'application/x-www-form-urlencoded' });
    expect(event).toMatchObject({ kind: 'message', externalId: sid, text: null, media: { contentType: 'image/png', caption: 'A foto' } });
    const media = event!.kind === 'message' ? event!.media! : null;
    const file = await adapter.fetchMedia(media!, channel, 1_000_000);
    expect(file.bytes.equals(png)).toBe(true);
    await expect(adapter.fetchMedia({ ...media!, ref: 'https://evil.example.test/x.png' }, channel, 1_000_000)).rejects.toThrow(/hosts/);
    const several = new URLSearchParams({
      MessageSid: 'SMmany',
      From: '+5511988887777',
      Body: 'duas',
      NumMedia: '2',
      MediaUrl0: 'https://api.twilio.com/a',
      MediaContentType0: 'image/jpeg',
      MediaUrl1: 'https://api.twilio.com/b',
      MediaContentType1: 'application/pdf',
    });
    expect(adapter.parseWebhook({ rawBody: several.toString(), contentType: '' })).toEqual([
      expect.objectContaining({
        externalId: 'SMmany',
        media: expect.objectContaining({ ref: 'https://api.twilio.com/a', caption: 'duas' }),
      }),
      expect.objectContaining({
        externalId: 'SMmany/1',
        media: expect.objectContaining({ ref: 'https://api.twilio.com/b', caption: null }),
      }),
    ]);
  });

  it('turns status callbacks (to the StatusCallback of the send) into delivery events with the error code', async () => {
    const { externalId } = await adapter.send(message(), channel);
    await sim.sendStatus(externalId!, 'delivered');
    expect(adapter.parseWebhook({ rawBody: (await received()).rawBody, contentType: '' })).toEqual([
      expect.objectContaining({ kind: 'status', externalId, status: 'delivered', error: null }),
    ]);
    // An SMS status callback carries the ErrorCode and no error text: the title names the code.
    await sim.sendStatus(externalId!, 'failed', { code: '30003', title: 'Unreachable destination handset' });
    expect(adapter.parseWebhook({ rawBody: (await received()).rawBody, contentType: '' })).toEqual([
      expect.objectContaining({ kind: 'status', status: 'failed', error: { code: '30003', title: 'Twilio error 30003' } }),
    ]);
    expect(
      adapter.parseWebhook({ rawBody: new URLSearchParams({ MessageSid: 'SM1', MessageStatus: 'queued' }).toString(), contentType: '' }),
    ).toEqual([]);
    expect(() => adapter.parseWebhook({ rawBody: 'From=%2B5511', contentType: '' })).toThrow(/MessageSid/);
  });
});
