import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChannelTarget, type OutboundMessage, SmsTwilioAdapter } from '@atende/channels';
import { LOCAL_OUTBOUND } from '@atende/channels/test-outbound';
import { deliveryErrorOf, startWebhookCapture, type WebhookCapture } from '../whatsapp/simulator-harness';
import { startWhatsAppSimulator, type WhatsAppSimulator } from '../whatsapp/simulator';

// A Twilio account owns several numbers, each with its own incoming-message webhook, and sends only
// From a number it owns (error 21606 otherwise): the simulator given `numbers` plays that, so two SMS
// channels of one account (one per number) can be told apart end to end.
const SID = 'AC0123456789abcdef0123456789abcd14';
const TOKEN = 'sms-numbers-auth-token';
const FIRST = '+15005550006';
const SECOND = '+15005550014';
const adapter = new SmsTwilioAdapter({ outbound: LOCAL_OUTBOUND, timeoutMs: 2000 });
let sim: WhatsAppSimulator;
let first: WebhookCapture;
let second: WebhookCapture;

const channelOf = (fromNumber: string, webhookUrl: string): ChannelTarget => ({
  uuid: randomUUID(),
  type: 'sms',
  config: { base_url: sim.baseUrl, account_sid: SID, from_number: fromNumber },
  credentials: { auth_token: TOKEN },
  webhookUrl,
});
const message = (): OutboundMessage => ({
  uuid: randomUUID(),
  conversationUuid: 'c',
  content: 'Olá!',
  annex: null,
  author: 'USER',
  createdAt: new Date(),
  contact: { uuid: 'u', phoneNumber: '+5511988887777', identifier: null },
});
const steer = (path: string, body: unknown) =>
  fetch(`${sim.baseUrl}/_simulator/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  first = await startWebhookCapture();
  second = await startWebhookCapture();
  sim = await startWhatsAppSimulator({
    provider: 'twilio_sms',
    credentials: { account_sid: SID, auth_token: TOKEN },
    numbers: [FIRST, SECOND],
    webhookUrl: first.url,
  });
});
afterAll(async () => {
  await sim.close();
  await first.close();
  await second.close();
});

describe('Twilio simulator with several numbers', () => {
  it("sends From each number the account owns and refuses another with Twilio's 21606", async () => {
    await adapter.send(message(), channelOf(FIRST, first.url));
    await adapter.send(message(), channelOf(SECOND, second.url));
    const refused = await deliveryErrorOf(adapter.send(message(), channelOf('+15005550099', first.url)));
    expect(refused).toMatchObject({ kind: 'permanent' });
    expect(refused.message).toContain('21606');
    expect(sim.sent().map((s) => [s.body.From, s.answeredStatus])).toEqual([
      [FIRST, 200],
      [SECOND, 200],
      ['+15005550099', 400],
    ]);
  });

  it("posts a message to a number at that number's own webhook, signed for it; the first number keeps the simulator's", async () => {
    // The second number has no webhook yet: a message to it has nowhere to go.
    expect((await steer('inbound', { from: '+5511977776666', to: SECOND, text: 'Oi' })).status).toBe(502);
    expect((await steer('webhook-url', { number: SECOND, url: second.url })).status).toBe(204);
    expect((await steer('webhook-url', { number: '+15005550099', url: second.url })).status).toBe(400);

    expect((await steer('inbound', { from: '+5511977776666', to: SECOND, text: 'Para o segundo' })).status).toBe(200);
    const toSecond = await second.next();
    expect(adapter.verifyWebhook(toSecond, channelOf(SECOND, second.url))).toBe(true);
    expect(Object.fromEntries(new URLSearchParams(toSecond.rawBody))).toMatchObject({
      To: SECOND,
      From: '+5511977776666',
      Body: 'Para o segundo',
    });

    expect((await steer('inbound', { from: '+5511977776666', text: 'Para o primeiro' })).status).toBe(200);
    const toFirst = await first.next();
    expect(Object.fromEntries(new URLSearchParams(toFirst.rawBody))).toMatchObject({ To: FIRST, Body: 'Para o primeiro' });

    expect((await steer('inbound', { from: '+5511977776666', to: '+15005550099', text: 'x' })).status).toBe(400);
  });
});
