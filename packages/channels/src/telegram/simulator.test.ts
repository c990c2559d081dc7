import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTelegramSimulator, type TelegramSimulator } from './simulator';

// The simulator answers as the Bot API does (https://core.telegram.org/bots/api#making-requests),
// so the adapter's handling of those answers is tested against the real shapes.
const TOKEN = '7000000321:AAsim-test';
let sim: TelegramSimulator;
beforeAll(async () => {
  sim = await startTelegramSimulator({ token: TOKEN });
});
afterAll(() => sim.close());

const call = async (method: string, body: unknown, token = TOKEN) => {
  const res = await fetch(`${sim.baseUrl}/bot${token}/${method}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('Telegram Bot API simulator', () => {
  it("answers the Bot API's errors: bad token, too long, unknown file, bad secret token, unknown method", async () => {
    expect(await call('getMe', {}, '1:wrong')).toEqual({ status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } });
    expect(await call('sendMessage', { chat_id: 1, text: 'x'.repeat(4097) })).toEqual({ status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: message is too long' } });
    expect((await call('sendMessage', { chat_id: 1, text: ' ' })).body.description).toBe('Bad Request: message text is empty');
    expect((await call('getFile', { file_id: 'nope' })).body.description).toBe('Bad Request: invalid file_id');
    expect((await call('setWebhook', { url: 'https://a.test/h', secret_token: 'has space' })).body.description).toBe('Bad Request: secret token contains unallowed characters');
    expect((await call('sendSticker', { chat_id: 1 })).status).toBe(404);
  });

  it('answers flood control with retry_after, then goes on', async () => {
    sim.rateLimitNext(1, 9);
    expect(await call('sendMessage', { chat_id: 1, text: 'a' })).toEqual({ status: 429, body: { ok: false, error_code: 429, description: 'Too Many Requests: retry after 9', parameters: { retry_after: 9 } } });
    const ok = await call('sendMessage', { chat_id: 1, text: 'a' });
    expect(ok).toMatchObject({ status: 200, body: { ok: true, result: { chat: { id: 1, type: 'private' }, text: 'a' } } });
  });

  it('plays a contact over HTTP: the update goes to the webhook setWebhook registered, with its secret', async () => {
    const received: { secret: string | null; body: unknown }[] = [];
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ secret: (req.headers['x-telegram-bot-api-secret-token'] as string | undefined) ?? null, body: JSON.parse(body) });
        res.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    expect((await call('setWebhook', { url: `http://127.0.0.1:${port}/hook`, secret_token: 'abc_123' })).body).toEqual({ ok: true, result: true, description: 'Webhook was set' });
    const steer = await fetch(`${sim.baseUrl}/_simulator/inbound`, { method: 'POST', body: JSON.stringify({ from: { id: 42, firstName: 'Ana', username: 'ana' }, text: 'Oi' }) });
    expect(steer.status).toBe(200);
    expect(received).toEqual([{ secret: 'abc_123', body: expect.objectContaining({ message: expect.objectContaining({ text: 'Oi', from: expect.objectContaining({ id: 42, username: 'ana' }), chat: expect.objectContaining({ id: 42, type: 'private' }) }) }) }]);
    expect((await fetch(`${sim.baseUrl}/_simulator/inbound`, { method: 'POST', body: '{}' })).status).toBe(400);
    server.close();
  });
});
