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
  const res = await fetch(`${sim.baseUrl}/bot${token}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('Telegram Bot API simulator', () => {
  it("answers the Bot API's errors: bad token, too long, unknown file, bad secret token, unknown method", async () => {
    expect(await call('getMe', {}, '1:wrong')).toEqual({ status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } });
    expect(await call('sendMessage', { chat_id: 1, text: 'x'.repeat(4097) })).toEqual({
      status: 400,
      body: { ok: false, error_code: 400, description: 'Bad Request: message is too long' },
    });
    expect((await call('sendMessage', { chat_id: 1, text: ' ' })).body.description).toBe('Bad Request: message text is empty');
    expect((await call('getFile', { file_id: 'nope' })).body.description).toBe('Bad Request: invalid file_id');
    expect((await call('setWebhook', { url: 'https://a.test/h', secret_token: 'has space' })).body.description).toBe(
      'Bad Request: secret token contains unallowed characters',
    );
    expect((await call('sendSticker', { chat_id: 1 })).status).toBe(404);
  });

  it('answers flood control with retry_after, then goes on', async () => {
    sim.rateLimitNext(1, 9);
    expect(await call('sendMessage', { chat_id: 1, text: 'a' })).toEqual({
      status: 429,
      body: { ok: false, error_code: 429, description: 'Too Many Requests: retry after 9', parameters: { retry_after: 9 } },
    });
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
    expect((await call('setWebhook', { url: `http://127.0.0.1:${port}/hook`, secret_token: 'abc_123' })).body).toEqual({
      ok: true,
      result: true,
      description: 'Webhook was set',
    });
    const steer = await fetch(`${sim.baseUrl}/_simulator/inbound`, {
      method: 'POST',
      body: JSON.stringify({ from: { id: 42, firstName: 'Ana', username: 'ana' }, text: 'Oi' }),
    });
    expect(steer.status).toBe(200);
    expect(received).toEqual([
      {
        secret: 'abc_123',
        body: expect.objectContaining({
          message: expect.objectContaining({
            text: 'Oi',
            from: expect.objectContaining({ id: 42, username: 'ana' }),
            chat: expect.objectContaining({ id: 42, type: 'private' }),
          }),
        }),
      },
    ]);
    // Every kind the desk takes can be played over HTTP: a voice note, a place, a contact card, a poll.
    received.length = 0;
    const played = await fetch(`${sim.baseUrl}/_simulator/inbound`, {
      method: 'POST',
      body: JSON.stringify({
        from: { id: 42, firstName: 'Ana' },
        voice_base64: Buffer.from('OggS voice').toString('base64'),
        location: { latitude: -23.55, longitude: -46.63, venue: { title: 'Loja Centro', address: 'Rua A, 1' } },
        contact: { phone_number: '+5511988887777', first_name: 'Bia' },
        poll: { question: 'Sim?', options: ['Sim', 'Não'] },
      }),
    });
    expect(played.status).toBe(200);
    const message = (received[0]?.body as { message: Record<string, unknown> }).message;
    expect(message.voice).toMatchObject({ mime_type: 'audio/ogg', duration: 2 });
    expect(message.location).toEqual({ latitude: -23.55, longitude: -46.63 });
    expect(message.venue).toMatchObject({ title: 'Loja Centro', address: 'Rua A, 1' });
    expect(message.contact).toEqual({ phone_number: '+5511988887777', first_name: 'Bia' });
    expect(message.poll).toMatchObject({ question: 'Sim?' });
    expect((await fetch(`${sim.baseUrl}/_simulator/inbound`, { method: 'POST', body: '{}' })).status).toBe(400);
    server.close();
  });

  // A Bot API serves many bots, each with its own token, webhook and file ids: two channels (one per bot) stay apart.
  it('serves several bots: each its own token, webhook, sends and files; a token no bot has is refused', async () => {
    const second = '7000000654:AAsim-second';
    const multi = await startTelegramSimulator({ token: TOKEN, bots: [{ token: second, username: 'second_bot' }] });
    const { createServer } = await import('node:http');
    const received: { path: string; secret: string | null }[] = [];
    const server = createServer((req, res) => {
      received.push({ path: req.url ?? '', secret: (req.headers['x-telegram-bot-api-secret-token'] as string | undefined) ?? null });
      req.resume().on('end', () => res.end());
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const at = async (token: string, method: string, body: unknown = {}) => {
      const res = await fetch(`${multi.baseUrl}/bot${token}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { ok: boolean; result?: Record<string, unknown>; description?: string } };
    };
    try {
      expect((await at(second, 'getMe')).body.result).toMatchObject({ id: 7000000654, username: 'second_bot' });
      expect((await at('7000000654:AAwrong', 'getMe')).status).toBe(401);
      await at(TOKEN, 'setWebhook', { url: `${base}/first`, secret_token: 'one' });
      await at(second, 'setWebhook', { url: `${base}/second`, secret_token: 'two' });
      expect([multi.webhook()?.url, multi.webhook(7000000654)?.url]).toEqual([`${base}/first`, `${base}/second`]);
      const hook = await fetch(`${multi.baseUrl}/_simulator/webhook?bot_id=7000000654`);
      expect(((await hook.json()) as { webhook: { url: string } }).webhook.url).toBe(`${base}/second`);
      expect((await fetch(`${multi.baseUrl}/_simulator/webhook?bot_id=1`)).status).toBe(400);

      const steer = (body: unknown) => fetch(`${multi.baseUrl}/_simulator/inbound`, { method: 'POST', body: JSON.stringify(body) });
      expect((await steer({ bot_id: 7000000654, from: { id: 43, firstName: 'Rui' }, text: 'Oi, segundo' })).status).toBe(200);
      expect((await steer({ from: { id: 42, firstName: 'Ana' }, text: 'Oi, primeiro' })).status).toBe(200);
      expect(received).toEqual([
        { path: '/second', secret: 'two' },
        { path: '/first', secret: 'one' },
      ]);

      // A file a contact sent the second bot is that bot's: the first bot's getFile does not know its id.
      const update = await multi.sendInbound({ botId: 7000000654, from: { id: 43, firstName: 'Rui' }, photo: Buffer.from('jpeg-bytes') });
      const fileId = (update.message as { photo: { file_id: string }[] }).photo.at(-1)!.file_id;
      expect((await at(TOKEN, 'getFile', { file_id: fileId })).body.description).toBe('Bad Request: invalid file_id');
      const path = (await at(second, 'getFile', { file_id: fileId })).body.result?.file_path as string;
      expect((await fetch(`${multi.baseUrl}/file/bot${second}/${path}`)).status).toBe(200);
      expect((await fetch(`${multi.baseUrl}/file/bot${TOKEN}/${path}`)).status).toBe(404);

      await at(second, 'sendMessage', { chat_id: 43, text: 'Olá, Rui' });
      await at(TOKEN, 'sendMessage', { chat_id: 42, text: 'Olá, Ana' });
      expect(multi.sent().map((s) => [s.botId, s.chatId, s.text])).toEqual([
        [7000000654, '43', 'Olá, Rui'],
        [7000000321, '42', 'Olá, Ana'],
      ]);
    } finally {
      server.close();
      await multi.close();
    }
  });
});
