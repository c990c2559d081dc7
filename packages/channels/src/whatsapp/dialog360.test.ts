import { describe, expect, it } from 'vitest';
import { DIALOG360_WEBHOOK_HEADER, WhatsApp360DialogAdapter } from './dialog360';
import { deliveryErrorOf, outboundMessage as message, useHarness } from '@atende/simulators/whatsapp-harness';
import { LOCAL_OUTBOUND } from '../test-outbound';

/** The 360dialog adapter against the 360dialog simulator: on-premise and Cloud API channels, templates. */
const adapter = new WhatsApp360DialogAdapter({ timeoutMs: 2000, outbound: LOCAL_OUTBOUND });
const credentials = { api_key: 'k-360', webhook_secret: 'hook-secret' };
// No api_version: a channel stays on the on-premise API until update_to_cloud_api.
const onPremise = useHarness({ provider: '360dialog', adapter, credentials, settings: {}, webhookFormat: 'onpremise' });
const cloud = useHarness({ provider: '360dialog', adapter, credentials, settings: { api_version: 'cloud' } });

describe('360dialog adapter, on-premise API', () => {
  it('posts to /v1/messages with the D360-API-KEY, without messaging_product', async () => {
    const sent = await adapter.send(
      message({
        template: { name: 'boas_vindas', language: 'pt_BR', header: { format: 'TEXT', value: 'Ana' }, body: ['Ana'], urlButtons: [] },
      }),
      onPremise.channel,
    );
    const [recorded] = onPremise.sim.sent();
    expect(recorded).toMatchObject({ id: sent.externalId, path: '/v1/messages', answeredStatus: 200 });
    expect(recorded?.body).toEqual({
      to: '5511988887777',
      type: 'template',
      template: {
        name: 'boas_vindas',
        language: { code: 'pt_BR', policy: 'deterministic' },
        components: [
          { type: 'header', parameters: [{ type: 'text', text: 'Ana' }] },
          { type: 'body', parameters: [{ type: 'text', text: 'Ana' }] },
        ],
      },
    });
  });

  it("names the on-premise API's error code and title", async () => {
    onPremise.sim.failNext(1, 400);
    expect((await deliveryErrorOf(adapter.send(message(), onPremise.channel))).message).toBe(
      '360dialog answered 400: (#1009) Parameter value is not valid',
    );
    onPremise.sim.refuseRecipient('5511988887777');
    const unknown = await deliveryErrorOf(adapter.send(message(), onPremise.channel));
    expect([unknown.kind, unknown.message]).toEqual(['permanent', '360dialog answered 400: (#1013) User is not valid']);
    const wrongKey = await deliveryErrorOf(
      adapter.send(message(), { ...onPremise.channel, credentials: { ...credentials, api_key: 'nope' } }),
    );
    expect([wrongKey.kind, wrongKey.message]).toEqual(['permanent', '360dialog answered 401: Invalid api key']);
  });

  it('parses the flat on-premise webhooks and downloads media from /v1/media/{id}', async () => {
    await onPremise.sim.sendInbound({ from: '+5511988887777', text: 'Oi', name: 'Maria' });
    const text = await onPremise.nextEvents();
    expect(JSON.parse(text.hook.rawBody)).not.toHaveProperty('entry');
    expect(text.events[0]).toMatchObject({ kind: 'message', from: '+5511988887777', text: 'Oi', profileName: 'Maria' });

    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    await onPremise.sim.sendInbound({ from: '+5511988887777', media: { contentType: 'image/jpeg', bytes } });
    const [event] = (await onPremise.nextEvents()).events;
    if (event?.kind !== 'message' || !event.media) throw new Error('no media parsed');
    const file = await adapter.fetchMedia(event.media, onPremise.channel, 1024);
    expect([file.bytes.equals(bytes), file.contentType]).toEqual([true, 'image/jpeg']);

    await onPremise.sim.sendStatus('gBEGkX', 'failed', {
      code: '470',
      title: 'Message failed to send because more than 24 hours have passed',
    });
    expect((await onPremise.nextEvents()).events).toEqual([
      {
        kind: 'status',
        externalId: 'gBEGkX',
        status: 'failed',
        error: { code: '470', title: 'Message failed to send because more than 24 hours have passed' },
        at: expect.any(Date),
      },
    ]);
  });
});

describe('360dialog adapter, Cloud API', () => {
  it('posts to /messages in the Cloud API shape', async () => {
    await adapter.send(message(), cloud.channel);
    expect(cloud.sim.sent()[0]).toMatchObject({
      path: '/messages',
      body: { messaging_product: 'whatsapp', to: '5511988887777', type: 'text' },
    });
  });

  it("fetches media through 360dialog's host although the media address names Meta's", async () => {
    const bytes = Buffer.from('OggS voice');
    await cloud.sim.sendInbound({ from: '+5511988887777', media: { contentType: 'audio/ogg', bytes } });
    const [event] = (await cloud.nextEvents()).events;
    if (event?.kind !== 'message' || !event.media) throw new Error('no media parsed');
    expect((await adapter.fetchMedia(event.media, cloud.channel, 1024)).bytes.equals(bytes)).toBe(true);
    // Another host in the answer is never fetched.
    cloud.sim.failNext(1, 200, { url: 'https://files.evil.example/x', mime_type: 'audio/ogg' });
    await expect(adapter.fetchMedia(event.media, cloud.channel, 1024)).rejects.toThrow("Media address is not on 360dialog's hosts");
  });
});

describe('360dialog webhooks and templates', () => {
  it('has no handshake, and accepts webhooks only with the webhook token of a channel that has one', async () => {
    expect(adapter.verifyHandshake()).toBeNull();
    await cloud.sim.sendStatus('wamid.1', 'sent');
    const hook = await cloud.hooks.next();
    expect(hook.headers[DIALOG360_WEBHOOK_HEADER]).toBe('hook-secret');
    expect(adapter.verifyWebhook(hook, cloud.channel)).toBe(true);
    expect(adapter.verifyWebhook(hook, { ...cloud.channel, credentials: { api_key: 'k-360' } })).toBe(false);
    expect(adapter.verifyWebhook({ ...hook, headers: { [DIALOG360_WEBHOOK_HEADER]: 'hook-secreT' } }, cloud.channel)).toBe(false);
  });

  it('submits (PENDING), lists, edits by deleting and submitting again, and deletes by name', async () => {
    const definition = {
      name: 'pedido_pronto',
      language: 'pt_BR',
      category: 'UTILITY' as const,
      components: [{ type: 'BODY' as const, text: 'Seu pedido {{1}} está pronto', example: { body_text: [['123']] } }],
    };
    const submitted = await adapter.submitTemplate(definition, cloud.channel);
    expect(submitted).toMatchObject({ name: 'pedido_pronto', status: 'PENDING', category: 'UTILITY' });
    expect(cloud.sim.templates()).toEqual([
      expect.objectContaining({ name: 'pedido_pronto', status: 'PENDING', components: definition.components }),
    ]);
    expect(await adapter.listTemplates(cloud.channel)).toEqual([{ ...submitted, reason: null }]);

    const edited = await adapter.editTemplate(
      submitted.externalId,
      { ...definition, components: [{ type: 'BODY', text: 'Pedido {{1}} pronto!' }] },
      cloud.channel,
    );
    expect(edited.status).toBe('PENDING');
    expect(
      cloud.sim
        .templateCalls()
        .slice(-2)
        .map((c) => `${c.method} ${c.path}`),
    ).toEqual(['DELETE /v1/configs/templates/pedido_pronto', 'POST /v1/configs/templates']);
    expect(cloud.sim.templates().map((t) => t.components)).toEqual([[{ type: 'BODY', text: 'Pedido {{1}} pronto!' }]]);

    // Gone at 360dialog already: editing just submits it.
    cloud.sim.reset();
    expect((await adapter.editTemplate('x', definition, cloud.channel)).status).toBe('PENDING');
    await adapter.deleteTemplate(null, 'pedido_pronto', cloud.channel);
    expect(cloud.sim.templates()).toEqual([]);
    expect((await deliveryErrorOf(adapter.deleteTemplate(null, 'pedido_pronto', cloud.channel))).httpStatus).toBe(404);
  });

  it('parses the template status webhook', async () => {
    const submitted = await adapter.submitTemplate(
      { name: 'promo', language: 'en_US', category: 'MARKETING', components: [{ type: 'BODY', text: 'Sale' }] },
      cloud.channel,
    );
    await cloud.sim.setTemplateStatus('promo', 'APPROVED');
    expect((await cloud.nextEvents()).events).toEqual([
      { kind: 'template-status', externalId: submitted.externalId, name: 'promo', language: 'en_US', status: 'APPROVED', reason: null },
    ]);
  });
});
