import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startWebhookCapture, type WebhookCapture } from '../whatsapp/simulator-harness';
import { startWhatsAppWebSimulator, type WhatsAppWebSimulator } from './simulator';

/** The bridge simulator is as strict as the bridge, and steerable over HTTP as the demo and e2e steer it. */
const KEY = 'instance-token';
let sim: WhatsAppWebSimulator;
let hooks: WebhookCapture;

beforeAll(async () => {
  hooks = await startWebhookCapture();
  sim = await startWhatsAppWebSimulator({
    instance: 'loja',
    apiKey: KEY,
    globalKey: 'global-key',
    webhook: { url: hooks.url, headers: { authorization: 'Bearer s' } },
  });
});
afterAll(async () => {
  await sim.close();
  await hooks.close();
});
beforeEach(() => {
  sim.reset();
  hooks.clear();
});

const call = (path: string, init: { method?: string; key?: string | null; body?: unknown } = {}) =>
  fetch(`${sim.baseUrl}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { 'content-type': 'application/json', ...(init.key === null ? {} : { apikey: init.key ?? KEY }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

describe('WhatsApp Web bridge simulator', () => {
  it('refuses a call without the instance’s token or the global key (401), and another instance (404)', async () => {
    const none = await call('/message/sendText/loja', { key: null, body: { number: '5511987654321', text: 'x' } });
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ status: 401, error: 'Unauthorized', response: { message: 'Unauthorized' } });
    expect((await call('/instance/connectionState/loja', { key: 'wrong' })).status).toBe(401);
    expect((await call('/instance/connectionState/loja', { key: 'global-key' })).status).toBe(200);
    const other = await call('/instance/connectionState/outra');
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ response: { message: ['The "outra" instance does not exist'] } });
    expect(sim.sent()).toEqual([]);
  });

  it('answers sendText with the message key (201) and records it; refuses an empty text and a bad number', async () => {
    const ok = await call('/message/sendText/loja', { body: { number: '5511987654321', text: 'Olá' } });
    expect(ok.status).toBe(201);
    const body = (await ok.json()) as { key: { id: string; fromMe: boolean; remoteJid: string }; status: string };
    expect(body).toMatchObject({ key: { fromMe: true, remoteJid: '5511987654321@s.whatsapp.net' }, status: 'PENDING' });
    expect((await call('/message/sendText/loja', { body: { number: '5511987654321', text: ' ' } })).status).toBe(400);
    expect((await call('/message/sendText/loja', { body: { number: 'abc', text: 'x' } })).status).toBe(400);
    const sent = (await (await call('/_simulator/sent')).json()) as { sent: { messageId: string | null; answeredStatus: number }[] };
    expect(sent.sent.map((s) => s.answeredStatus)).toEqual([201, 400, 400]);
    expect(sent.sent[0]!.messageId).toBe(body.key.id);
  });

  it('posts contacts’ messages, receipts and connection changes to the webhook with its headers, steered over HTTP', async () => {
    const inbound = await call('/_simulator/inbound', { body: { from: { phone: '+5511987654321', name: 'Ana' }, text: 'Oi' } });
    expect(inbound.status).toBe(200);
    const upsert = await hooks.next();
    expect(upsert.headers.authorization).toBe('Bearer s');
    expect(JSON.parse(upsert.rawBody)).toMatchObject({
      event: 'messages.upsert',
      instance: 'loja',
      apikey: KEY,
      data: { key: { remoteJid: '5511987654321@s.whatsapp.net', fromMe: false }, pushName: 'Ana', message: { conversation: 'Oi' } },
    });
    expect((await call('/_simulator/receipt', { body: { id: 'BAE5X', status: 'READ' } })).status).toBe(204);
    expect(JSON.parse((await hooks.next()).rawBody)).toMatchObject({
      event: 'messages.update',
      data: { keyId: 'BAE5X', status: 'READ', fromMe: true },
    });
    expect((await call('/_simulator/connection', { body: { state: 'close' } })).status).toBe(200);
    expect(JSON.parse((await hooks.next()).rawBody)).toMatchObject({
      event: 'connection.update',
      data: { state: 'close', statusReason: 401 },
    });
    const closedSend = await call('/message/sendText/loja', { body: { number: '5511987654321', text: 'x' } });
    expect(closedSend.status).toBe(400);
    const connect = (await (await call('/instance/connect/loja')).json()) as { base64: string; count: number };
    expect(connect.base64).toMatch(/^data:image\/png;base64,/);
    expect(Buffer.from(connect.base64.split(',')[1]!, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(await (await call('/instance/connectionState/loja')).json()).toEqual({
      instance: { instanceName: 'loja', state: 'connecting' },
    });
    await call('/_simulator/connection', { body: { state: 'open' } });
    expect(await (await call('/instance/connect/loja')).json()).toEqual({ instance: { instanceName: 'loja', state: 'open' } });
  });

  it('takes webhook/set nested (as the bridge validates it) or flat (as its reference shows it)', async () => {
    const nested = await call('/webhook/set/loja', {
      body: {
        webhook: { enabled: true, url: 'http://127.0.0.1:1/a', headers: { authorization: 'Bearer n' }, events: ['MESSAGES_UPSERT'] },
      },
    });
    expect(nested.status).toBe(201);
    expect(sim.webhook()).toEqual({ url: 'http://127.0.0.1:1/a', headers: { authorization: 'Bearer n' }, events: ['MESSAGES_UPSERT'] });
    await call('/webhook/set/loja', { body: { enabled: true, url: 'http://127.0.0.1:1/b', webhookByEvents: false, events: [] } });
    expect(sim.webhook()).toMatchObject({ url: 'http://127.0.0.1:1/b', headers: {} });
    expect((await call('/webhook/set/loja', { body: { webhook: { enabled: true, url: 'ftp://x' } } })).status).toBe(400);
    await call('/webhook/set/loja', { body: { webhook: { enabled: true, url: hooks.url, headers: { authorization: 'Bearer s' } } } });
  });
});
