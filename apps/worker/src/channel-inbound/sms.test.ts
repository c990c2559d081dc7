import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startWhatsAppSimulator, type WhatsAppSimulator } from '@atende/simulators/whatsapp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useInboundHarness } from './harness';
import { processInbound } from './processor';

/**
 * SMS/MMS end to end in the worker: the Twilio simulator (SMS dialect) posts real
 * signed webhooks to a capture server standing in for the api's webhook, each processed as the
 * channel-inbound job the api queues.
 */
const SID = 'AC11111111111111111111111111111111';
const h = useInboundHarness({ name: 'SMS', contentType: 'application/x-www-form-urlencoded' });
let sim: WhatsAppSimulator;
let channelId: string;

beforeAll(async () => {
  const credentials = { auth_token: 'sms-token' };
  sim = await startWhatsAppSimulator({
    provider: 'twilio_sms',
    credentials: { account_sid: SID, ...credentials },
    webhookUrl: h.webhookUrl,
  });
  channelId = await h.createChannel({
    name: 'SMS',
    type: 'sms',
    config: { base_url: sim.baseUrl, account_sid: SID, from_number: '+15005550006', mms_enabled: 'true' },
    credentials,
  });
});
afterAll(() => sim?.close());

const job = (body: string) => h.job(channelId, body);
const delivered = () => h.delivered();

describe('channel-inbound: SMS into conversations', () => {
  it('opens one conversation in the entry sector for the sender number, and stores a repeated MessageSid once', async () => {
    const sid = await sim.sendInbound({ from: '+5511988887777', text: 'Oi, quero um orçamento' });
    const body = await delivered();
    expect(await processInbound(h.deps, job(body))).toMatchObject({ messages: 1 });
    await processInbound(h.deps, job(body));
    const conversations = await h.db.conversation.findMany({ where: { channelId }, include: { messages: true, contact: true } });
    expect(conversations).toHaveLength(1);
    expect(conversations[0]).toMatchObject({
      sectorId: h.sectorId,
      contact: expect.objectContaining({ phoneNumber: expect.stringContaining('5511988887777') }),
    });
    expect(conversations[0]!.messages).toEqual([
      expect.objectContaining({ author: 'CONTACT', content: 'Oi, quero um orçamento', externalId: sid }),
    ]);
  });

  it('keeps an MMS picture as the message annex, its text as caption, in the same conversation', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2000, 5)]);
    await sim.sendInbound({ from: '+5511988887777', media: { contentType: 'image/png', bytes: png, caption: 'Foto do produto' } });
    expect(await processInbound(h.deps, job(await delivered()))).toMatchObject({ messages: 1 });
    const message = await h.db.message.findFirstOrThrow({ where: { conversation: { channelId }, content: 'Foto do produto' } });
    const file = await h.db.storedFile.findUniqueOrThrow({ where: { id: message.annexId! } });
    expect(file).toMatchObject({ contentType: 'image/png', size: png.length });
    expect(await readFile(join(h.storageDir, file.storageKey))).toEqual(png);
    expect(await h.db.conversation.count({ where: { channelId } })).toBe(1);
  });

  it('drops a body without MessageSid', async () => {
    expect(await processInbound(h.deps, job('From=%2B5511988887777&Body=oi'))).toMatchObject({ messages: 0 });
    expect(await h.db.message.count({ where: { content: 'oi' } })).toBe(0);
  });
});
