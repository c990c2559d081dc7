import { describe, expect, it } from 'vitest';
import { deliveryErrorOf, outboundMessage as message, useHarness } from '@atende/simulators/whatsapp-harness';
import { twilioSignature, WhatsAppTwilioAdapter } from './twilio';
import type { ProviderOutboundTemplate } from './types';
import { LOCAL_OUTBOUND } from '../test-outbound';

/** The Twilio adapter against the Twilio simulator: form-encoded API, signed form webhooks, no template management. */
const adapter = new WhatsAppTwilioAdapter({ timeoutMs: 2000, outbound: LOCAL_OUTBOUND });
const credentials = { account_sid: 'AC123', auth_token: 'twilio-token' };
const h = useHarness({ provider: 'twilio', adapter, credentials, settings: { account_sid: 'AC123', from_number: '+5511900000000' } });

describe('Twilio WhatsApp adapter', () => {
  it('posts form-encoded messages from whatsapp:{from_number}, with media by URL', async () => {
    const sent = await adapter.send(message(), h.channel);
    expect(sent.externalId).toMatch(/^SM/);
    await adapter.send(
      message({ content: '', annex: { url: 'https://files.example/a.jpg', contentType: 'image/jpeg', originalFilename: 'a.jpg' } }),
      h.channel,
    );
    const [text, media] = h.sim.sent();
    expect(text).toMatchObject({
      path: '/2010-04-01/Accounts/AC123/Messages.json',
      body: { To: 'whatsapp:+5511988887777', From: 'whatsapp:+5511900000000', Body: 'Olá, Maria!' },
    });
    expect(media?.body).toMatchObject({ MediaUrl: 'https://files.example/a.jpg' });
  });

  it('sends through the messaging service when the channel has one', async () => {
    await adapter.send(message(), {
      ...h.channel,
      config: { base_url: h.sim.baseUrl, account_sid: 'AC123', messaging_service_sid: 'MG999' },
    });
    expect(h.sim.sent()[0]?.body).toEqual({ To: 'whatsapp:+5511988887777', MessagingServiceSid: 'MG999', Body: 'Olá, Maria!' });
  });

  it('sends a template by its Content SID and variables when known, else as the rendered text', async () => {
    const template: ProviderOutboundTemplate = {
      name: 'pedido',
      language: 'pt_BR',
      header: null,
      body: ['Ana', '123'],
      urlButtons: [],
      externalId: 'HX0123456789abcdef0123456789abcdef',
    };
    const unknownSid: ProviderOutboundTemplate = { ...template, externalId: null };
    await adapter.send(message({ content: 'Olá Ana, pedido 123', template }), h.channel);
    await adapter.send(message({ content: 'Olá Ana, pedido 123', template: unknownSid }), h.channel);
    const [bySid, byText] = h.sim.sent();
    expect(bySid?.body).toEqual({
      To: 'whatsapp:+5511988887777',
      From: 'whatsapp:+5511900000000',
      ContentSid: template.externalId,
      ContentVariables: '{"1":"Ana","2":"123"}',
    });
    expect(byText?.body).toEqual({ To: 'whatsapp:+5511988887777', From: 'whatsapp:+5511900000000', Body: 'Olá Ana, pedido 123' });
  });

  it("names Twilio's error code and message; an unknown WhatsApp recipient is permanent", async () => {
    h.sim.refuseRecipient('+5511988887777');
    const error = await deliveryErrorOf(adapter.send(message(), h.channel));
    expect([error.kind, error.message]).toEqual(['permanent', 'Twilio answered 400: (#63003) Channel could not find To address']);
    const wrong = await deliveryErrorOf(adapter.send(message(), { ...h.channel, credentials: { ...credentials, auth_token: 'x' } }));
    expect(wrong.message).toBe('Twilio answered 401: (#20003) Authenticate');
  });

  it('checks X-Twilio-Signature over the webhook URL and the sorted parameters', async () => {
    await h.sim.sendStatus('SM1', 'delivered');
    const hook = await h.hooks.next();
    expect(hook.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(hook.headers['x-twilio-signature']).toBe(twilioSignature(h.hooks.url, new URLSearchParams(hook.rawBody), 'twilio-token'));
    expect(adapter.verifyWebhook(hook, h.channel)).toBe(true);
    // The URL is signed too: the same body posted to another address is refused.
    expect(adapter.verifyWebhook({ ...hook, url: `${h.hooks.url}?x=1` }, h.channel)).toBe(false);
    expect(adapter.verifyWebhook({ ...hook, rawBody: hook.rawBody.replace('delivered', 'read') }, h.channel)).toBe(false);
    expect(adapter.verifySignature({ rawBody: hook.rawBody, headers: hook.headers, secret: 'twilio-token' })).toBe(false);
  });

  it('reads status callbacks: undelivered is failed with its error, queued and sending are no news', async () => {
    await h.sim.sendStatus('SM2', 'failed', {
      code: '63016',
      title: 'Failed to send freeform message because you are outside the allowed window',
    });
    expect((await h.nextEvents()).events).toEqual([
      {
        kind: 'status',
        externalId: 'SM2',
        status: 'failed',
        error: { code: '63016', title: 'Failed to send freeform message because you are outside the allowed window' },
        at: expect.any(Date),
      },
    ]);
    for (const status of ['queued', 'sending', 'accepted']) {
      expect(
        adapter.parseWebhook({
          rawBody: `MessageSid=SM3&MessageStatus=${status}&To=whatsapp%3A%2B5511988887777&From=whatsapp%3A%2B5511900000000`,
          contentType: 'application/x-www-form-urlencoded',
        }),
      ).toEqual([]);
    }
  });

  it("downloads media through Twilio's redirect, and never from another host", async () => {
    const bytes = Buffer.from('GIF89a simulated');
    await h.sim.sendInbound({ from: '+5511988887777', media: { contentType: 'image/gif', bytes, filename: 'x.gif', caption: 'olha' } });
    const [event] = (await h.nextEvents()).events;
    if (event?.kind !== 'message' || !event.media) throw new Error('no media parsed');
    expect(event).toMatchObject({ text: null, media: { contentType: 'image/gif', caption: 'olha' } });
    expect((await adapter.fetchMedia(event.media, h.channel, 1024)).bytes.equals(bytes)).toBe(true);
    for (const ref of ['http://169.254.169.254/latest', 'https://api.twilio.com.evil.example/x', 'file:///etc/passwd']) {
      await expect(adapter.fetchMedia({ ...event.media, ref }, h.channel, 1024)).rejects.toThrow("Media address is not on Twilio's hosts");
    }
  });

  it('has no template management', async () => {
    expect(adapter.supportsTemplates).toBe(false);
    expect(await adapter.listTemplates()).toEqual([]);
    const error = await deliveryErrorOf(adapter.submitTemplate());
    expect([error.kind, error.message]).toEqual(['permanent', 'Twilio templates are managed in the Twilio console']);
    await expect(adapter.editTemplate()).rejects.toThrow('Twilio console');
    await expect(adapter.deleteTemplate()).rejects.toThrow('Twilio console');
  });
});
