import { describe, expect, it } from 'vitest';
import { ChannelDeliveryError } from '../adapter';
import { WhatsAppCloudAdapter } from './cloud';
import { WhatsApp360DialogAdapter } from './dialog360';
import { contentTypeOf, deliveryErrorOf, outboundMessage as message, useHarness } from '@atende/simulators/whatsapp-harness';
import type { SimulatedProvider } from '@atende/simulators/whatsapp';
import { WhatsAppTwilioAdapter } from './twilio';
import type { WhatsAppAdapter } from './types';
import type { WhatsAppAdapterOptions } from './provider-adapter';
import { ATTACK_HOSTS, LOCAL_OUTBOUND } from '../test-outbound';

/**
 * What every WhatsApp adapter does the same way, each against its provider's simulator over real
 * HTTP (provider specifics: cloud.test.ts, dialog360.test.ts, twilio.test.ts).
 */
interface Case {
  provider: SimulatedProvider;
  adapter: WhatsAppAdapter;
  credentials: Record<string, string>;
  settings: Record<string, string>;
  /** The credential that authenticates its webhooks. */
  webhookSecret: string;
  /** The credential that authenticates calls to it. */
  apiSecret: string;
}
const cases: Case[] = [
  {
    provider: 'cloud',
    adapter: new WhatsAppCloudAdapter({ timeoutMs: 2000, outbound: LOCAL_OUTBOUND }),
    webhookSecret: 'app_secret',
    apiSecret: 'access_token',
    credentials: { access_token: 'EAAG-token', app_secret: 'app-secret', verify_token: 'verify-me' },
    settings: { phone_number_id: '1055', waba_id: '2077' },
  },
  {
    provider: '360dialog',
    adapter: new WhatsApp360DialogAdapter({ timeoutMs: 2000, outbound: LOCAL_OUTBOUND }),
    webhookSecret: 'webhook_secret',
    apiSecret: 'api_key',
    credentials: { api_key: 'k-360', webhook_secret: 'hook-secret' },
    settings: { api_version: 'cloud' },
  },
  {
    provider: 'twilio',
    adapter: new WhatsAppTwilioAdapter({ timeoutMs: 2000, outbound: LOCAL_OUTBOUND }),
    webhookSecret: 'auth_token',
    apiSecret: 'auth_token',
    credentials: { account_sid: 'AC123', auth_token: 'twilio-token' },
    settings: { account_sid: 'AC123', from_number: '+5511900000000' },
  },
];

describe.each(cases)(
  '$provider adapter against its simulator',
  ({ provider, adapter, credentials, settings, webhookSecret, apiSecret }) => {
    const h = useHarness({ provider, adapter, credentials, settings });

    it("sends text and media, answering the provider's message id", async () => {
      const text = await adapter.send(message(), h.channel);
      const doc = await adapter.send(
        message({ annex: { url: 'https://files.example/a.pdf', contentType: 'application/pdf', originalFilename: 'a.pdf' } }),
        h.channel,
      );
      const [first, second] = h.sim.sent();
      expect(first?.id).toBe(text.externalId);
      expect(second?.id).toBe(doc.externalId);
      expect(text.externalId).not.toBe(doc.externalId);
    });

    it("turns the provider's error into a permanent failure naming its code and text", async () => {
      h.sim.failNext(1, 400);
      const refused = await deliveryErrorOf(adapter.send(message(), h.channel));
      expect(refused.kind).toBe('permanent');
      expect(refused.httpStatus).toBe(400);
      expect(refused.message).toMatch(provider === 'twilio' ? /\(#21211\) Invalid 'To' Phone Number/ : /\(#100\) Invalid parameter/);
      // Wrong credentials will not get better by retrying.
      const wrong = { ...h.channel, credentials: { ...credentials, [apiSecret]: 'not-it' } };
      const unauthorized = await deliveryErrorOf(adapter.send(message(), wrong));
      expect([unauthorized.kind, unauthorized.httpStatus]).toEqual(['permanent', 401]);
      await expect(adapter.send(message({ contact: { uuid: 'u', phoneNumber: null, identifier: null } }), h.channel)).rejects.toThrow(
        'The contact has no WhatsApp number',
      );
    });

    it('treats a rate limit and a server error as transient, and the retry goes through', async () => {
      h.sim.rateLimitNext(1);
      const limited = await deliveryErrorOf(adapter.send(message(), h.channel));
      expect([limited.kind, limited.httpStatus]).toEqual(['transient', 429]);
      expect(limited.message).toContain(provider === 'twilio' ? '20429' : '130429');
      h.sim.failNext(1, 503);
      expect((await deliveryErrorOf(adapter.send(message(), h.channel))).kind).toBe('transient');
      const retry = message();
      expect((await adapter.send(retry, h.channel)).externalId).toBeTruthy();
      expect(h.sim.sent().map((s) => s.answeredStatus)).toEqual([429, 503, 200]);
    });

    it('a repeated message uuid is a second message: the provider documents no idempotency key', async () => {
      const once = message();
      const first = await adapter.send(once, h.channel);
      expect((await adapter.send(once, h.channel)).externalId).not.toBe(first.externalId);
      expect(h.sim.delivered()).toHaveLength(2);
      expect(h.sim.duplicates()).toEqual({ '5511988887777': 1 });
      expect(h.sim.duplicatesDropped()).toBe(0);
    });

    it('a send whose answer is lost after the provider took it fails with its outcome unknown', async () => {
      h.sim.dropAnswerNext(1);
      const lost = await deliveryErrorOf(adapter.send(message(), h.channel));
      expect([lost.kind, lost.outcomeUnknown]).toEqual(['transient', true]);
      expect(h.sim.delivered()).toHaveLength(1);
      // An error answer is the provider's own: it took nothing, so a retry is safe.
      h.sim.failNext(1, 503);
      expect((await deliveryErrorOf(adapter.send(message(), h.channel))).outcomeUnknown).toBe(false);
    });

    it('accepts its real webhooks and refuses a wrong secret, a missing header or a tampered body', async () => {
      await h.sim.sendInbound({ from: '+5511988887777', text: 'Oi', name: 'Maria' });
      const hook = await h.hooks.next();
      expect(adapter.verifyWebhook(hook, h.channel)).toBe(true);
      expect(adapter.verifyWebhook(hook, { ...h.channel, credentials: { ...credentials, [webhookSecret]: 'other' } })).toBe(false);
      expect(adapter.verifyWebhook(hook, { ...h.channel, credentials: null })).toBe(false);
      expect(adapter.verifyWebhook({ ...hook, headers: { 'content-type': contentTypeOf(hook) } }, h.channel)).toBe(false);
      // 360dialog does not sign bodies: its token proves where a delivery comes from, not its bytes.
      if (provider !== '360dialog')
        expect(adapter.verifyWebhook({ ...hook, rawBody: hook.rawBody.replace('Oi', 'Tchau') }, h.channel)).toBe(false);
    });

    it('parses an inbound text and a button reply with the message it answers', async () => {
      await h.sim.sendInbound({ from: '+5511988887777', text: 'Oi', name: 'Maria' });
      expect((await h.nextEvents()).events).toEqual([
        {
          kind: 'message',
          externalId: expect.any(String),
          from: '+5511988887777',
          profileName: 'Maria',
          text: 'Oi',
          media: null,
          button: null,
          contextExternalId: null,
          at: expect.any(Date),
        },
      ]);
      await h.sim.sendInbound({ from: '+5511988887777', button: { text: 'Sim', payload: 'yes' }, contextId: 'ctx-1' });
      expect((await h.nextEvents()).events[0]).toMatchObject({
        kind: 'message',
        button: { text: 'Sim', payload: 'yes' },
        contextExternalId: 'ctx-1',
      });
    });

    it('refuses a base_url on a loopback, private or metadata address, and media from it, without the allowlist', async () => {
      const strict = new (adapter.constructor as new (options: WhatsAppAdapterOptions) => WhatsAppAdapter)({ timeoutMs: 2000 });
      const port = new URL(h.sim.baseUrl).port;
      for (const host of ATTACK_HOSTS) {
        const channel = { ...h.channel, config: { ...(h.channel.config as object), base_url: `http://${host}:${port}` } };
        const error = await deliveryErrorOf(strict.send(message(), channel));
        expect([error.kind, error.message]).toEqual(['permanent', expect.stringContaining('refused')]);
        if (strict.supportsTemplates) expect((await deliveryErrorOf(strict.listTemplates(channel))).message).toContain('refused');
      }
      expect(h.sim.sent()).toEqual([]);
      await h.sim.sendInbound({
        from: '+5511988887777',
        media: { contentType: 'application/pdf', filename: 'x.pdf', bytes: Buffer.from('internal'), caption: '' },
      });
      const [event] = (await h.nextEvents()).events;
      if (event?.kind !== 'message' || !event.media) throw new Error('no media parsed');
      expect((await deliveryErrorOf(strict.fetchMedia(event.media, h.channel, 1024))).message).toContain('refused');
    });

    it("downloads an inbound message's media from the provider, size-capped", async () => {
      const bytes = Buffer.from('%PDF-1.4 simulated');
      await h.sim.sendInbound({
        from: '+5511988887777',
        media: { contentType: 'application/pdf', filename: 'boleto.pdf', bytes, caption: 'Segue' },
      });
      const [event] = (await h.nextEvents()).events;
      if (event?.kind !== 'message' || !event.media) throw new Error('no media parsed');
      expect(event.media).toMatchObject({ contentType: 'application/pdf', caption: 'Segue' });
      const file = await adapter.fetchMedia(event.media, h.channel, 1024 * 1024);
      expect(file.bytes.equals(bytes)).toBe(true);
      expect(file.contentType).toContain('application/pdf');
      await expect(adapter.fetchMedia(event.media, h.channel, 4)).rejects.toThrow(/more than 4 bytes/);
    });

    it('parses delivery statuses, a failure with the provider code and title, and refuses malformed bodies', async () => {
      const ours = message();
      const sent = await adapter.send(ours, h.channel);
      await h.sim.sendStatus(sent.externalId ?? '', 'read');
      // The Cloud API (and 360dialog's) echo our id of the message (biz_opaque_callback_data); Twilio has no such field.
      const echoed = provider === 'twilio' ? {} : { callbackData: ours.uuid };
      expect((await h.nextEvents()).events).toEqual([
        { kind: 'status', externalId: sent.externalId, status: 'read', error: null, at: expect.any(Date), ...echoed },
      ]);
      await h.sim.sendStatus('msg-2', 'failed', { code: '131026', title: 'Message undeliverable' });
      expect((await h.nextEvents()).events[0]).toMatchObject({
        kind: 'status',
        externalId: 'msg-2',
        status: 'failed',
        error: { code: '131026', title: 'Message undeliverable' },
      });
      const malformed =
        provider === 'twilio' ? ['Foo=bar', 'MessageSid=SM1&From=nobody'] : ['{"entry":', '{"entry":[{"changes":"no"}]}', '[]'];
      for (const rawBody of malformed)
        expect(() => adapter.parseWebhook({ rawBody, contentType: 'application/json' }, h.channel)).toThrow(ChannelDeliveryError);
    });

    it('refuses to send when the channel lacks what the provider needs', async () => {
      const bare = { ...h.channel, config: { base_url: h.sim.baseUrl }, credentials: {} };
      const error = await deliveryErrorOf(adapter.send(message(), bare));
      expect(error.kind).toBe('permanent');
      expect(error.message).toMatch(/^Channel has no .+ configured \(\w+\)$/);
      const badUrl = await deliveryErrorOf(adapter.send(message(), { ...h.channel, config: { ...settings, base_url: 'ftp://x' } }));
      expect(badUrl.message).toContain('base_url');
      expect(h.sim.sent()).toEqual([]);
    });
  },
);
