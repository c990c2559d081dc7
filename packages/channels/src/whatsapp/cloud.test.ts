import { describe, expect, it } from 'vitest';
import { channelAdapters } from '../registry';
import { hubSignature, WhatsAppCloudAdapter } from './cloud';
import { templateStatusOf } from './cloud-format';
import { deliveryErrorOf, outboundMessage as message, useHarness } from '@atende/simulators/whatsapp-harness';
import { LOCAL_OUTBOUND } from '../test-outbound';

/** The WhatsApp Cloud API adapter against the Cloud API simulator: what is particular to Meta's API. */
const adapter = new WhatsAppCloudAdapter({ timeoutMs: 2000, outbound: LOCAL_OUTBOUND });
const credentials = { access_token: 'EAAG-token', app_secret: 'app-secret', verify_token: 'verify-me' };
const h = useHarness({ provider: 'cloud', adapter, credentials, settings: { phone_number_id: '1055', waba_id: '2077' } });

describe('WhatsApp Cloud API adapter', () => {
  it('serves whatsapp_cloud and {hash} channels', () => {
    const adapters = channelAdapters({ outbound: LOCAL_OUTBOUND });
    expect(adapters.get('whatsapp_cloud')).toBeInstanceOf(WhatsAppCloudAdapter);
    expect(adapters.get('{hash}')).toBeInstanceOf(WhatsAppCloudAdapter);
  });

  it("posts to {version}/{phone_number_id}/messages with the bearer token, in the Cloud API's message shapes", async () => {
    await adapter.send(message(), h.channel);
    for (const [contentType, kind] of [
      ['image/jpeg', 'image'],
      ['video/mp4', 'video'],
      ['audio/ogg', 'audio'],
    ] as const) {
      await adapter.send(
        message({ content: 'Foto', annex: { url: `https://files.example/x.${kind}`, contentType, originalFilename: 'x' } }),
        h.channel,
      );
    }
    await adapter.send(
      message({ annex: { url: 'https://files.example/a.pdf', contentType: 'application/pdf', originalFilename: 'a.pdf' } }),
      h.channel,
    );
    const sent = h.sim.sent();
    expect(sent.map((s) => s.path)).toEqual(Array(5).fill('/v21.0/1055/messages'));
    expect(sent.map((s) => s.body)).toEqual([
      {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        biz_opaque_callback_data: expect.any(String),
        to: '5511988887777',
        type: 'text',
        text: { body: 'Olá, Maria!', preview_url: false },
      },
      expect.objectContaining({ type: 'image', image: { link: 'https://files.example/x.image', caption: 'Foto' } }),
      expect.objectContaining({ type: 'video', video: { link: 'https://files.example/x.video', caption: 'Foto' } }),
      // WhatsApp shows no caption under audio.
      expect.objectContaining({ type: 'audio', audio: { link: 'https://files.example/x.audio' } }),
      expect.objectContaining({
        type: 'document',
        document: { link: 'https://files.example/a.pdf', filename: 'a.pdf', caption: 'Olá, Maria!' },
      }),
    ]);
  });

  it('sends a template with its header, body parameters in order and URL-button suffixes by index', async () => {
    const template = {
      name: 'pedido',
      language: 'pt_BR',
      header: { format: 'IMAGE' as const, value: 'https://files.example/banner.png' },
      body: ['Ana', '123'],
      urlButtons: [{ index: 1, text: 'abc' }],
    };
    await adapter.send(message({ content: 'Olá Ana, pedido 123', template }), h.channel);
    expect(h.sim.sent()[0]?.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      biz_opaque_callback_data: expect.any(String),
      to: '5511988887777',
      type: 'template',
      template: {
        name: 'pedido',
        language: { code: 'pt_BR', policy: 'deterministic' },
        components: [
          { type: 'header', parameters: [{ type: 'image', image: { link: 'https://files.example/banner.png' } }] },
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ana' },
              { type: 'text', text: '123' },
            ],
          },
          { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'abc' }] },
        ],
      },
    });
  });

  it('fails permanently, naming 131026, for a recipient not on WhatsApp', async () => {
    h.sim.refuseRecipient('+5511988887777');
    const error = await deliveryErrorOf(adapter.send(message(), h.channel));
    expect(error.kind).toBe('permanent');
    expect(error.message).toBe('WhatsApp Cloud API answered 400: (#131026) Message undeliverable');
  });

  it('answers the verify-token handshake only for subscribe with the right token', () => {
    expect(adapter.verifyHandshake({ 'hub.mode': 'subscribe', 'hub.verify_token': 'verify-me', 'hub.challenge': '42' }, h.channel)).toBe(
      '42',
    );
    expect(adapter.verifyHandshake({ 'hub.mode': 'subscribe', 'hub.verify_token': 'nope', 'hub.challenge': '42' }, h.channel)).toBeNull();
    expect(
      adapter.verifyHandshake({ 'hub.mode': 'unsubscribe', 'hub.verify_token': 'verify-me', 'hub.challenge': '42' }, h.channel),
    ).toBeNull();
    expect(
      adapter.verifyHandshake(
        { 'hub.mode': 'subscribe', 'hub.challenge': '42' },
        { ...h.channel, credentials: { ...credentials, verify_token: '' } },
      ),
    ).toBeNull();
  });

  it('checks X-Hub-Signature-256 over the exact bytes with the app secret', async () => {
    await h.sim.sendStatus('wamid.1', 'delivered');
    const hook = await h.hooks.next();
    expect(hook.headers['x-hub-signature-256']).toBe(hubSignature(hook.rawBody, 'app-secret'));
    expect(adapter.verifySignature({ rawBody: hook.rawBody, headers: hook.headers, secret: 'app-secret' })).toBe(true);
    expect(adapter.verifySignature({ rawBody: `${hook.rawBody} `, headers: hook.headers, secret: 'app-secret' })).toBe(false);
    expect(adapter.verifySignature({ rawBody: hook.rawBody, headers: { 'x-hub-signature-256': 'sha256=00' }, secret: 'app-secret' })).toBe(
      false,
    );
  });

  it("refuses media whose address is not on Meta's or the base_url's host", async () => {
    // The media id lookup answers an address elsewhere (a sender cannot choose it, a compromised answer could).
    h.sim.failNext(1, 200, { url: 'http://169.254.169.254/latest/meta-data', mime_type: 'image/jpeg' });
    await expect(adapter.fetchMedia({ ref: 'm1', contentType: null, filename: null, caption: null }, h.channel, 1024)).rejects.toThrow(
      "Media address is not on WhatsApp Cloud API's hosts",
    );
    h.sim.failNext(1, 200, { url: 'https://lookaside.fbsbx.com.evil.example/x', mime_type: 'image/jpeg' });
    await expect(adapter.fetchMedia({ ref: 'm1', contentType: null, filename: null, caption: null }, h.channel, 1024)).rejects.toThrow(
      /hosts/,
    );
    const missing = await deliveryErrorOf(
      adapter.fetchMedia({ ref: 'nope', contentType: null, filename: null, caption: null }, h.channel, 1024),
    );
    expect([missing.kind, missing.httpStatus]).toEqual(['permanent', 404]);
  });

  it('submits, lists, edits and deletes templates in the spec component shapes', async () => {
    const components = [
      { type: 'HEADER' as const, format: 'TEXT' as const, text: 'Olá {{1}}', example: { header_text: ['Ana'] } },
      { type: 'BODY' as const, text: 'Seu pedido {{1}} está pronto', example: { body_text: [['123']] } },
      { type: 'FOOTER' as const, text: 'Loja' },
      {
        type: 'BUTTONS' as const,
        buttons: [
          { type: 'QUICK_REPLY' as const, text: 'Ok' },
          { type: 'URL' as const, text: 'Ver', url: 'https://loja.example/{{1}}', example: ['https://loja.example/123'] },
        ],
      },
    ];
    const definition = { name: 'pedido_pronto', language: 'pt_BR', category: 'UTILITY' as const, components };
    const submitted = await adapter.submitTemplate(definition, h.channel);
    expect(submitted).toEqual({
      externalId: expect.any(String),
      name: 'pedido_pronto',
      language: 'pt_BR',
      category: 'UTILITY',
      status: 'PENDING',
      reason: null,
    });
    expect(h.sim.templateCalls()[0]).toMatchObject({ method: 'POST', path: '/v21.0/2077/message_templates', body: definition });
    const duplicate = await deliveryErrorOf(adapter.submitTemplate(definition, h.channel));
    expect(duplicate.message).toContain('Content in this language already exists');

    expect(await adapter.listTemplates(h.channel)).toEqual([{ ...submitted, reason: null }]);
    await adapter.editTemplate(
      submitted.externalId,
      { ...definition, components: [{ type: 'BODY', text: 'Pedido {{1}} pronto!' }] },
      h.channel,
    );
    expect(h.sim.templateCalls().at(-1)).toMatchObject({ method: 'POST', path: `/v21.0/${submitted.externalId}` });
    expect(h.sim.templates()[0]?.components).toEqual([{ type: 'BODY', text: 'Pedido {{1}} pronto!' }]);
    await adapter.deleteTemplate(submitted.externalId, 'pedido_pronto', h.channel);
    expect(h.sim.templateCalls().at(-1)?.path).toBe(`/v21.0/2077/message_templates?name=pedido_pronto&hsm_id=${submitted.externalId}`);
    expect(h.sim.templates()).toEqual([]);
  });

  it("parses the template status webhook (statuses) with Meta's reason", async () => {
    const submitted = await adapter.submitTemplate(
      { name: 'promo', language: 'pt_BR', category: 'MARKETING', components: [{ type: 'BODY', text: 'Promo' }] },
      h.channel,
    );
    await h.sim.setTemplateStatus('promo', 'REJECTED', 'INVALID_FORMAT');
    expect((await h.nextEvents()).events).toEqual([
      {
        kind: 'template-status',
        externalId: submitted.externalId,
        name: 'promo',
        language: 'pt_BR',
        status: 'REJECTED',
        reason: 'INVALID_FORMAT',
      },
    ]);
    await h.sim.setTemplateStatus('promo', 'FLAGGED');
    expect((await h.nextEvents()).events[0]).toMatchObject({ status: 'PAUSED', reason: null });
    expect(await adapter.listTemplates(h.channel)).toEqual([expect.objectContaining({ name: 'promo', status: 'PAUSED' })]);
  });
});

describe('template statuses from the providers', () => {
  it('maps every provider spelling onto the spec values, unknown ones to PENDING', () => {
    const cases: [string, string][] = [
      ['APPROVED', 'APPROVED'],
      ['approved', 'APPROVED'],
      ['REINSTATED', 'APPROVED'],
      ['submitted', 'PENDING'],
      ['in_review', 'PENDING'],
      ['pending', 'PENDING'],
      ['flagged', 'PAUSED'],
      ['PAUSED', 'PAUSED'],
      ['rejected', 'REJECTED'],
      ['disabled', 'DISABLED'],
      ['deleted', 'DELETED'],
      ['pending_deletion', 'PENDING_DELETION'],
      ['in appeal', 'IN_APPEAL'],
      ['limit_exceeded', 'LIMIT_EXCEEDED'],
      ['SOMETHING_NEW', 'PENDING'],
      ['', 'PENDING'],
    ];
    for (const [raw, status] of cases) expect([raw, templateStatusOf(raw)]).toEqual([raw, status]);
  });
});
