import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChannelTarget, type OutboundMessage, MessengerAdapter } from '@atende/channels';
import { LOCAL_OUTBOUND } from '@atende/channels/test-outbound';
import { deliveryErrorOf } from '../whatsapp/simulator-harness';
import { defaultPages, startMetaSimulator, type MetaSimulator } from './simulator';

// A Meta user manages several pages: the simulator serves each of them (defaultPages: the page and
// "Atende Outlet"), each with its own token, its own page-scoped contacts and its own webhook, so two
// channels (one per page) can be told apart end to end and one page's token never speaks for another.
const PAGE = '100200300400';
const TOKEN = 'EAAGpage-token';
const APP_SECRET = 'app-secret-multi';
const VERIFY = 'verify-multi';
const messenger = new MessengerAdapter({ outbound: LOCAL_OUTBOUND, timeoutMs: 2000 });
let sim: MetaSimulator;
let receiver: Server;
let receiverUrl = '';
const received: {
  path: string;
  body: { entry: { id: string; messaging: { recipient: { id: string }; message?: { attachments?: { type: string }[] } }[] }[] };
}[] = [];

const pages = defaultPages({ pageId: PAGE, pageToken: TOKEN });
const main = pages[0]!;
const outlet = pages[1]!;
const channelOf = (page: { id: string; accessToken: string }): ChannelTarget => ({
  uuid: randomUUID(),
  type: 'messenger',
  config: { base_url: sim.baseUrl, page_id: page.id },
  credentials: { access_token: page.accessToken, app_secret: APP_SECRET, verify_token: VERIFY },
});
const message = (psid: string): OutboundMessage => ({
  uuid: randomUUID(),
  conversationUuid: 'c',
  content: 'Olá!',
  annex: null,
  author: 'USER',
  createdAt: new Date(),
  contact: { uuid: 'u', phoneNumber: null, identifier: psid },
  lastContactMessageAt: new Date(),
});
const steer = (path: string, body: unknown) =>
  fetch(`${sim.baseUrl}/_simulator/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  // The channels' webhook endpoint: echoes the handshake's challenge for our verify token, keeps each delivery.
  receiver = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET') {
      res.statusCode = url.searchParams.get('hub.verify_token') === VERIFY ? 200 : 403;
      res.end(res.statusCode === 200 ? url.searchParams.get('hub.challenge') : '');
      return;
    }
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ path: url.pathname, body: JSON.parse(body) as (typeof received)[number]['body'] });
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  sim = await startMetaSimulator({
    object: 'page',
    pageId: PAGE,
    pageToken: TOKEN,
    appSecret: APP_SECRET,
    webhook: { url: `${receiverUrl}/main`, verifyToken: VERIFY },
  });
});
afterAll(async () => {
  await sim.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe('Meta simulator serving several pages', () => {
  it("sets each page's webhook apart and posts a contact's message to the page written to", async () => {
    expect((await steer('webhook', { url: `${receiverUrl}/outlet`, verify_token: VERIFY, page_id: outlet.id })).status).toBe(200);
    expect((await steer('webhook', { url: `${receiverUrl}/outlet`, verify_token: VERIFY, page_id: '999' })).status).toBe(400);
    const webhookOf = async (pageId: string) =>
      ((await (await fetch(`${sim.baseUrl}/_simulator/webhook?page_id=${pageId}`)).json()) as { webhook: { url: string } }).webhook.url;
    expect([await webhookOf(main.id), await webhookOf(outlet.id)]).toEqual([`${receiverUrl}/main`, `${receiverUrl}/outlet`]);

    const wrote = await steer('inbound', { id: '7300000000001', first_name: 'Rui', text: 'Oi, Outlet', page_id: outlet.id });
    expect(((await wrote.json()) as { webhook_status: number }).webhook_status).toBe(200);
    await sim.sendInbound({ from: { id: '7300000000002', firstName: 'Ana' }, text: 'Oi, Demo' });
    expect(received.map((r) => [r.path, r.body.entry[0]?.id, r.body.entry[0]?.messaging[0]?.recipient.id])).toEqual([
      ['/outlet', outlet.id, outlet.id],
      ['/main', main.id, main.id],
    ]);
  });

  it("sends with each page's own token, to that page's contacts only; a token never speaks for another page", async () => {
    await messenger.send(message('7300000000001'), channelOf(outlet));
    await messenger.send(message('7300000000002'), channelOf(main));
    // PSIDs are page-scoped: the Outlet's contact is unknown to the main page.
    expect((await deliveryErrorOf(messenger.send(message('7300000000001'), channelOf(main)))).message).toContain('No matching user found');
    // The Outlet's token posting for the main page, and a token no page has, are refused.
    expect(
      (
        await deliveryErrorOf(
          messenger.send(message('7300000000002'), {
            ...channelOf(main),
            credentials: { ...channelOf(main).credentials, access_token: outlet.accessToken },
          }),
        )
      ).message,
    ).toContain('(#100)');
    expect(
      (
        await deliveryErrorOf(
          messenger.send(message('7300000000002'), {
            ...channelOf(main),
            credentials: { ...channelOf(main).credentials, access_token: 'EAAunknown' },
          }),
        )
      ).message,
    ).toContain('Invalid OAuth access token');
    expect(sim.sent().map((s) => [s.pageId, s.recipient, s.answeredStatus])).toEqual([
      [outlet.id, '7300000000001', 200],
      [main.id, '7300000000002', 200],
      [main.id, '7300000000001', 400],
    ]);
  });
  it('plays over HTTP what a contact and their app do: images, a story mention, receipts; and plans refusals', async () => {
    received.length = 0;
    const png = Buffer.from('89504e470d0a1a0a00', 'hex').toString('base64');
    const wrote = await steer('inbound', { id: '7300000000003', first_name: 'Lia', images_base64: [png, png], text: 'Fotos' });
    expect(((await wrote.json()) as { webhook_status: number }).webhook_status).toBe(200);
    const attachments = received[0]?.body.entry[0]?.messaging[0]?.message?.attachments ?? [];
    expect(attachments.map((a) => a.type)).toEqual(['image', 'image']);

    expect((await steer('inbound', { id: '7300000000003', story_mention_base64: png })).status).toBe(200);
    expect((await steer('delivery', { id: '7300000000003', mids: ['m_1'] })).status).toBe(200);
    expect((await steer('read', { id: '7300000000003' })).status).toBe(200);
    const kinds = received
      .slice(1)
      .map((r) => Object.keys(r.body.entry[0]!.messaging[0]!).filter((k) => ['message', 'delivery', 'read'].includes(k)));
    expect(kinds).toEqual([['message'], ['delivery'], ['read']]);
    expect((await steer('delivery', { id: '7300000000003' })).status).toBe(400);

    // A planned refusal answers the next send with the Graph error, then sends go through again.
    expect((await steer('plan', { status: 400, code: 551, message: "(#551) This person isn't available right now." })).status).toBe(200);
    expect((await deliveryErrorOf(messenger.send(message('7300000000003'), channelOf(main)))).message).toContain('#551');
    await messenger.send(message('7300000000003'), channelOf(main));
  });
});
