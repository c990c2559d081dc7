import { runBotFlow, type BotNode } from '@atende/core';
import { botHttp, handToBot, inTransaction, runBotSteps, type ConversationDeps } from '@atende/conversations';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customChannel, inbound } from '../conversations/fixtures';
import { ALL_ON, startTestApp, type TestApp } from '../../testing';

// The bot runtime (flow nodes, HTTP timeout): a channel's entry bot talks to new
// conversations; each contact message queues a bot step (outbox) that the worker runs with
// runBotSteps, called here directly as the worker's job does.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let channel: { id: string };
let token: string;
let admin = '';
let support = '';
let billing = '';
let botId = '';
let deps: ConversationDeps;
let server: Server;
let base = '';
const requests: { method: string; url: string; body: string }[] = [];
const http = botHttp({ allowHosts: '127.0.0.1' });

beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_IP: '1000' });
  acme = await t.tenant('Bots runtime', { features: ALL_ON, users: { admin: ['admin'], agent: ['agent'] } });
  admin = await t.login('admin@botsruntime.test');
  support = acme.sectors[0]!.id;
  billing = (await t.database.db.sector.create({ data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, name: 'Billing' } })).id;
  ({ channel, token } = await customChannel(t.database.db, acme.tenantId, acme.workspaceId, support, 'bots-runtime-token-0123456789'));
  deps = { db: t.database.db, realtime: { emit: () => undefined }, log: { error: () => undefined } };
  // The company's order system the bot asks.
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', body });
      const id = (req.url ?? '').split('/').pop();
      if (id === 'slow') return void setTimeout(() => res.end('{}'), 3000);
      if (req.url?.startsWith('/redirect/'))
        return void res.writeHead(302, { location: decodeURIComponent(req.url.slice('/redirect/'.length)) }).end();
      if (id === 'gone') return void res.writeHead(404).end('no such order');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: id === '13' ? 'late' : 'on its way', id }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const flow = (): BotNode[] => [
  { id: 'start', type: 'start', next: 'menu' },
  {
    id: 'menu',
    type: 'options',
    text: 'Hi {{contact.name}}! How can I help?',
    invalid_option_message: 'Please answer 1 or 2.',
    options: [
      { key: '1', label: 'Where is my order', next: 'ask' },
      { key: '2', label: 'Talk to a person', next: 'human' },
    ],
  },
  { id: 'ask', type: 'prompt', text: 'Your order number?', variable: 'order', next: 'lookup' },
  {
    id: 'lookup',
    type: 'http',
    method: 'GET',
    url: `${base}/orders/{{order}}`,
    timeout_seconds: 1,
    error_text: 'I could not find it right now.',
    on_error: 'human',
    next: 'route',
  },
  { id: 'route', type: 'router', conditions: [{ expression: 'response.status == "late"', next: 'sorry' }], next: 'done' },
  { id: 'sorry', type: 'transfer', text: 'Order {{order}} is late, passing you to billing.', sector_uuid: billing },
  { id: 'human', type: 'transfer', text: 'Passing you to a person.', sector_uuid: support },
  { id: 'done', type: 'end', text: 'Order {{order}} is {{response.status}}. Bye!' },
];

const messagesOf = async (conversationId: string) =>
  (
    await t.database.db.message.findMany({
      where: { conversationId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { author: true, content: true, tags: true },
    })
  ).map((m) => `${m.author}${m.tags.includes('bot') ? '(bot)' : ''}: ${m.content}`);
const conversation = (id: string) => t.database.db.conversation.findUniqueOrThrow({ where: { id } });
const steps = (id: string) =>
  t.database.db.outboxJob.count({ where: { queue: 'bot-step', payload: { path: ['conversation_uuid'], equals: id } } });
/** A contact writes; the step the message queued runs, as the worker would. */
async function says(phone: string, id: string, content: string): Promise<string> {
  const res = await inbound(t, channel.id, token, { phone, id, content, name: 'Rita' });
  expect(res.status).toBe(202);
  const conversationId = res.body.data.conversation_uuid as string;
  await runBotSteps(deps, http, conversationId);
  return conversationId;
}

describe('bots as channel entry points', () => {
  it('binds an existing bot of the workspace; the bound bot cannot be deleted', async () => {
    const created = await t.http
      .post('/api/v1/bots')
      .set({ Authorization: `Bearer ${admin}` })
      .send({ name: 'Orders', nodes: flow() });
    expect(created.status).toBe(201);
    botId = created.body.data.uuid;
    const wrong = await t.http
      .patch(`/api/v1/channels/${channel.id}`)
      .set({ Authorization: `Bearer ${admin}` })
      .send({ entry_point: support, entry_point_type: 'bot' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error_message).toBe('Entry point not found');
    const bound = await t.http
      .patch(`/api/v1/channels/${channel.id}`)
      .set({ Authorization: `Bearer ${admin}` })
      .send({ entry_point: botId, entry_point_type: 'bot' });
    expect(bound.status).toBe(200);
    expect(bound.body.data.entry_point).toEqual({ uuid: botId, name: 'Orders', type: 'bot' });
    const del = await t.http.delete(`/api/v1/bots/${botId}`).set({ Authorization: `Bearer ${admin}` });
    expect(del.status).toBe(409);
    expect(del.body.error_message).toBe('Some channels depend on this bot');
    expect((await t.database.db.bot.findUniqueOrThrow({ where: { id: botId } })).deletedAt).toBeNull();
  });
});

describe('a bot talking to contacts', () => {
  it('greets, repeats on a wrong option, asks, calls the order system and ends the conversation with its answer', async () => {
    const id = await says('11944440001', 'bot-1', 'Oi');
    expect(await conversation(id)).toMatchObject({ state: 'bot', botId, botNodeId: 'menu', sectorId: null });
    expect(await steps(id)).toBe(1);
    expect(await messagesOf(id)).toEqual([
      'CONTACT: Oi',
      'USER(bot): Hi Rita! How can I help?\n\n1 - Where is my order\n2 - Talk to a person',
    ]);
    // Not in the queue while the bot talks.
    expect(
      (await t.http.get('/api/v1/conversations/waiting-queue').set({ Authorization: `Bearer ${await t.login('agent@botsruntime.test')}` }))
        .body.data.quantity_waiting_queue,
    ).toBe(0);

    await says('11944440001', 'bot-2', 'banana');
    expect((await messagesOf(id)).slice(-2)).toEqual([
      'USER(bot): Please answer 1 or 2.',
      'USER(bot): Hi Rita! How can I help?\n\n1 - Where is my order\n2 - Talk to a person',
    ]);
    await says('11944440001', 'bot-3', 'where is my ORDER');
    expect((await messagesOf(id)).at(-1)).toBe('USER(bot): Your order number?');
    await says('11944440001', 'bot-4', ' 4711 ');
    expect(requests.at(-1)).toMatchObject({ method: 'GET', url: '/orders/4711' });
    expect(await conversation(id)).toMatchObject({ state: 'closed', endedBy: 'bot', botId: null, botNodeId: null });
    expect((await messagesOf(id)).at(-1)).toBe('USER(bot): Order 4711 is on its way. Bye!');
    expect(await steps(id)).toBe(4);
    // Each bot text is queued for delivery to the contact like any reply.
    expect(await t.database.db.outboxJob.count({ where: { queue: 'channel-delivery', tenantId: acme.tenantId } })).toBe(5);
    // A step run again (a retried job) says nothing twice.
    const before = (await messagesOf(id)).length;
    await runBotSteps(deps, http, id);
    expect(await messagesOf(id)).toHaveLength(before);
  });

  it('routes on the answer: a late order goes to the billing queue with the transfer text', async () => {
    const id = await says('11944440002', 'late-1', 'Hello');
    await says('11944440002', 'late-2', '1');
    await says('11944440002', 'late-3', '13');
    expect(await conversation(id)).toMatchObject({ state: 'waiting', sectorId: billing, botId: null });
    expect((await messagesOf(id)).at(-1)).toBe('USER(bot): Order 13 is late, passing you to billing.');
    const event = await t.database.db.conversationEvent.findFirstOrThrow({ where: { conversationId: id, type: 'enter-queue' } });
    expect(event.detail).toEqual({ event: 'bot', bot_uuid: botId });
    const read = await t.http.get(`/api/v1/conversations/${id}`).set({ Authorization: `Bearer ${admin}` });
    expect(read.status).toBe(200);
  });

  it('gives up on a slow or failing order system within the node timeout and takes the error handle', async () => {
    const id = await says('11944440003', 'slow-1', 'Hello');
    await says('11944440003', 'slow-2', '1');
    const started = Date.now();
    await says('11944440003', 'slow-3', 'slow');
    expect(Date.now() - started).toBeLessThan(2500);
    expect((await messagesOf(id)).slice(-2)).toEqual(['USER(bot): I could not find it right now.', 'USER(bot): Passing you to a person.']);
    expect(await conversation(id)).toMatchObject({ state: 'waiting', sectorId: support });

    const other = await says('11944440004', 'gone-1', 'Hello');
    await says('11944440004', 'gone-2', '1');
    await says('11944440004', 'gone-3', 'gone');
    expect((await messagesOf(other)).slice(-2)).toEqual([
      'USER(bot): I could not find it right now.',
      'USER(bot): Passing you to a person.',
    ]);
  });

  it('greets once when several messages came before its first step; answers only what follows the greeting', async () => {
    const first = await inbound(t, channel.id, token, { phone: '11944440005', id: 'burst-1', content: 'Hi', name: 'Rita' });
    const id = first.body.data.conversation_uuid as string;
    await inbound(t, channel.id, token, { phone: '11944440005', id: 'burst-2', content: '1' });
    await inbound(t, channel.id, token, { phone: '11944440005', id: 'burst-3', content: '77' });
    expect(await steps(id)).toBe(3);
    // Two jobs run at once, as two worker slots would: the contact had not seen the menu yet.
    await Promise.all([runBotSteps(deps, http, id), runBotSteps(deps, http, id)]);
    await runBotSteps(deps, http, id);
    expect(await messagesOf(id)).toEqual([
      'CONTACT: Hi',
      'CONTACT: 1',
      'CONTACT: 77',
      'USER(bot): Hi Rita! How can I help?\n\n1 - Where is my order\n2 - Talk to a person',
    ]);
    // Answers written quickly one after the other are read in order, each once.
    await inbound(t, channel.id, token, { phone: '11944440005', id: 'burst-4', content: '1' });
    await inbound(t, channel.id, token, { phone: '11944440005', id: 'burst-5', content: '77' });
    await Promise.all([runBotSteps(deps, http, id), runBotSteps(deps, http, id)]);
    expect((await messagesOf(id)).slice(4)).toEqual([
      'CONTACT: 1',
      'CONTACT: 77',
      'USER(bot): Your order number?',
      'USER(bot): Order 77 is on its way. Bye!',
    ]);
    expect(await conversation(id)).toMatchObject({ state: 'closed' });
  });

  it('hands the contact to the entry sector when its bot was deleted meanwhile', async () => {
    const id = await says('11944440006', 'del-1', 'Hi');
    await t.database.db.bot.update({ where: { id: botId }, data: { deletedAt: new Date() } });
    await says('11944440006', 'del-2', '1');
    expect(await conversation(id)).toMatchObject({ state: 'waiting', sectorId: support, botId: null });
    const event = await t.database.db.conversationEvent.findFirstOrThrow({ where: { conversationId: id, type: 'enter-queue' } });
    expect(event.detail).toMatchObject({ event: 'bot', reason: 'bot_removed' });
    await t.database.db.bot.update({ where: { id: botId }, data: { deletedAt: null } });
  });

  it('stops answering when the tenant turns bots off: a talking bot hands its contact to the queue, new ones go straight there', async () => {
    const id = await says('11944440008', 'off-1', 'Hi');
    expect(await conversation(id)).toMatchObject({ state: 'bot', botId });
    const features = (on: boolean) =>
      t.database.db
        .$executeRaw`UPDATE "Tenant" SET config = jsonb_set(config, '{features,bots_interface}', ${on ? 'true' : 'false'}::jsonb) WHERE id = ${acme.tenantId}::uuid`;
    await features(false);
    try {
      await says('11944440008', 'off-2', '1');
      expect(await conversation(id)).toMatchObject({ state: 'waiting', sectorId: support, botId: null });
      const event = await t.database.db.conversationEvent.findFirstOrThrow({ where: { conversationId: id, type: 'enter-queue' } });
      expect(event.detail).toMatchObject({ reason: 'bots_disabled' });
      // A new contact on the bot's channel is not greeted by it.
      const fresh = await says('11944440009', 'off-3', 'Oi');
      expect(await conversation(fresh)).toMatchObject({ state: 'waiting', sectorId: support, botId: null });
      expect(await messagesOf(fresh)).toEqual(['CONTACT: Oi']);
    } finally {
      await features(true);
    }
  });

  it('takes over a conversation handed to it (a campaign reply) from its Start', async () => {
    await t.http
      .patch(`/api/v1/channels/${channel.id}`)
      .set({ Authorization: `Bearer ${admin}` })
      .send({ entry_point: support });
    const res = await inbound(t, channel.id, token, { phone: '11944440007', id: 'camp-1', content: 'Quero', name: 'Rita' });
    const id = res.body.data.conversation_uuid as string;
    expect(await conversation(id)).toMatchObject({ state: 'waiting', botId: null });
    const conv = await conversation(id);
    await inTransaction(deps, (tx, effects) => handToBot(tx, effects, conv, botId, new Date()));
    expect(await conversation(id)).toMatchObject({ state: 'bot', botId, sectorId: null });
    await runBotSteps(deps, http, id);
    expect(await messagesOf(id)).toEqual([
      'CONTACT: Quero',
      'USER(bot): Hi Rita! How can I help?\n\n1 - Where is my order\n2 - Talk to a person',
    ]);
    await says('11944440007', 'camp-2', '2');
    expect(await conversation(id)).toMatchObject({ state: 'waiting', sectorId: support });
  });
});

describe('the bots report', () => {
  it('counts, per bot, the conversations it sent to the queue or ended', async () => {
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const range = `start=${day(new Date(Date.now() - 86_400_000))}&end=${day(new Date())}&timezone=UTC`;
    const res = await t.http.get(`/api/v1/reports/bots?${range}`).set({ Authorization: `Bearer ${admin}` });
    expect(res.status).toBe(200);
    expect(res.body.data.rows).toEqual([
      { menu: 'Orders', answer: null, outcome: 'Ended', conversations: 2 },
      { menu: 'Orders', answer: null, outcome: 'Sent to the queue', conversations: 6 },
    ]);
  });
});

describe('bot HTTP requests', () => {
  it('refuse private and loopback addresses unless allowed, and other schemes', async () => {
    const strict = botHttp({ allowHosts: '' });
    const ask = (url: string) => strict({ url, method: 'GET', body: null, timeoutMs: 1000 });
    const port = new URL(base).port;
    const before = requests.length;
    for (const host of [
      '127.0.0.1',
      'localhost',
      '[::1]',
      '0.0.0.0',
      '2130706433',
      '0x7f000001',
      '10.0.0.1',
      '169.254.169.254',
      '[::ffff:127.0.0.1]',
      '[::7f00:1]',
    ]) {
      await expect(ask(`http://${host}:${port}/orders/1`)).rejects.toThrow('refused');
    }
    expect(requests.length).toBe(before);
    // An allowed server redirecting to a refused address: the hop is checked like the first request.
    await expect(
      http({
        url: `${base}/redirect/${encodeURIComponent('http://169.254.169.254/latest/meta-data')}`,
        method: 'GET',
        body: null,
        timeoutMs: 1000,
      }),
    ).rejects.toThrow('refused');
    await expect(ask('file:///etc/passwd')).rejects.toThrow('only http and https');
    await expect(http({ url: `${base}/orders/9`, method: 'POST', body: { order: '9' }, timeoutMs: 1000 })).resolves.toEqual({
      status: 200,
      body: { status: 'on its way', id: '9' },
    });
    expect(requests.at(-1)).toMatchObject({ method: 'POST', body: '{"order":"9"}' });
  });

  // `{{h}}` = '127.0.0.2:4319/inj?a=1&b=2#' added a parameter and cut the URL.
  it("puts a contact's text in the URL encoded for where it lands: one path segment, one query value", async () => {
    const h = '127.0.0.2:4319/inj?a=1&b=2#';
    const node = (url: string): BotNode[] => [
      { id: 'start', type: 'start', next: 'call' },
      { id: 'call', type: 'http', method: 'GET', url, timeout_seconds: 1, error_text: 'failed', on_error: 'end', next: 'end' },
      { id: 'end', type: 'end', text: 'ok' },
    ];
    const inPath = await runBotFlow(node(`${base}/orders/{{h}}?key=k1`), { nodeId: null, vars: { h } }, '', http);
    expect(inPath.http).toEqual([expect.objectContaining({ status: 200, error: null })]);
    const pathUrl = new URL(requests.at(-1)!.url, base);
    expect(pathUrl.pathname).toBe('/orders/127.0.0.2%3A4319%2Finj%3Fa%3D1%26b%3D2%23');
    expect([...pathUrl.searchParams]).toEqual([['key', 'k1']]);
    const inQuery = await runBotFlow(node(`${base}/orders/7?q={{h}}&key=k1`), { nodeId: null, vars: { h } }, '', http);
    expect(inQuery.http).toEqual([expect.objectContaining({ status: 200, error: null })]);
    const queryUrl = new URL(requests.at(-1)!.url, base);
    expect(queryUrl.pathname).toBe('/orders/7');
    expect([...queryUrl.searchParams]).toEqual([
      ['q', h],
      ['key', 'k1'],
    ]);
  });
});

// GET /api/v1/bots/history/conversations, from the passes above.
describe('bot history', () => {
  type Row = {
    conversation_uuid: string;
    contact: { phone: string | null };
    channel: { uuid: string };
    bot: { uuid: string; name: string; kind: string };
    outcome: string;
    at: string;
  };
  const history = (query: string, bearer = admin) =>
    t.http.get(`/api/v1/bots/history/conversations?${query}`).set({ Authorization: `Bearer ${bearer}` });
  const today = () => new Date().toISOString().slice(0, 10);

  it('lists each pass through the bot with how it ended, newest first; narrows to one bot; refuses bad input', async () => {
    const res = await history(`start=${today()}&end=${today()}&_limit=100`);
    expect(res.status).toBe(200);
    const rows = res.body.data as Row[];
    expect(res.body.pagination.total).toBe(rows.length);
    const outcomes = (phone: string) => rows.filter((r) => r.contact.phone?.endsWith(phone)).map((r) => r.outcome);
    expect(outcomes('11944440001')).toEqual(['ended']);
    expect(outcomes('11944440002')).toEqual(['sent_to_queue']);
    expect(
      rows.every((r) => r.bot.uuid === botId && r.bot.name === 'Orders' && r.bot.kind === 'bot' && r.channel.uuid === channel.id),
    ).toBe(true);
    expect(rows.map((r) => r.at)).toEqual([...rows.map((r) => r.at)].sort().reverse());
    // Paged: the second row alone.
    const second = await history(`start=${today()}&end=${today()}&_limit=1&_offset=1`);
    expect(second.body.data.map((r: Row) => r.conversation_uuid)).toEqual([rows[1]!.conversation_uuid]);
    // Past the last row: no rows, and the total stays right (it came from a window over the page: 0).
    const past = await history(`start=${today()}&end=${today()}&_limit=10&_offset=${rows.length + 5}`);
    expect(past.body).toMatchObject({ data: [], pagination: { total: rows.length, offset: rows.length + 5 } });
    expect(second.body.pagination.total).toBe(rows.length);
    // Another bot's history is empty.
    const other = await history(`start=${today()}&end=${today()}&bot_uuid=${support}`);
    expect(other.body).toMatchObject({ data: [], pagination: { total: 0 } });

    expect((await history(`end=${today()}`)).status).toBe(400);
    expect((await history(`start=${today()}&end=${today()}&bot_uuid=nope`)).status).toBe(400);
    expect((await history(`start=${today()}&end=${today()}`, await t.login('agent@botsruntime.test'))).status).toBe(403);
  });
});
