import { randomUUID } from 'node:crypto';
import { startWhatsAppWebSimulator, type WhatsAppWebSimulator } from '@atende/simulators/whatsapp-web';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useDeliveryHarness } from './harness';

/** Agent messages out through the WhatsApp Web bridge simulator: text, files by signed link, voice notes, and the bridge's refusals. */
const INSTANCE = 'loja-delivery';
const KEY = 'instance-token-delivery';
const h = useDeliveryHarness({ name: 'WA Web out', adapters: { whatsappWeb: { timeoutMs: 2000 } } });
let sim: WhatsAppWebSimulator;
let conversationId: string;

beforeAll(async () => {
  sim = await startWhatsAppWebSimulator({ instance: INSTANCE, apiKey: KEY });
  ({ conversationId } = await h.openConversation({
    channel: {
      name: 'WhatsApp Web',
      type: 'whatsapp_web',
      config: { base_url: sim.baseUrl, instance: INSTANCE },
      credentials: { api_key: KEY, webhook_secret: 's' },
    },
    contact: { name: 'Ana', phoneNumber: '+5511987654321' },
    identifier: '+5511987654321',
  }));
});
afterAll(() => sim?.close());
beforeEach(async () => {
  sim.reset();
  if (sim.state !== 'open') await sim.setConnection('open');
});

const storedFile = async (bytes: Buffer, contentType: string, originalFilename: string) => {
  const key = `${h.tenantId}/${randomUUID()}`;
  await h.storage.put(key, bytes, { contentType, size: bytes.length });
  return (
    await h.db.storedFile.create({
      data: { tenantId: h.tenantId, originalFilename, contentType, size: bytes.length, service: h.storage.service, storageKey: key },
    })
  ).id;
};

describe('channel delivery: WhatsApp Web', () => {
  it('sends an agent’s reply with sendText to the contact’s number and keeps the bridge’s message id', async () => {
    const id = await h.agentMessage(conversationId, 'Olá, Ana! Como posso ajudar?');
    const outcome = await h.deliver(id);
    expect(sim.sent()).toEqual([
      expect.objectContaining({ endpoint: 'sendText', number: '5511987654321', text: 'Olá, Ana! Como posso ajudar?', answeredStatus: 201 }),
    ]);
    expect(outcome).toMatchObject({ outcome: 'sent', externalId: sim.sent()[0]!.messageId });
    expect(await h.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'sent', externalId: sim.sent()[0]!.messageId });
  });

  it('sends a stored document by its signed link with the caption, and a recorded voice note as WhatsApp audio', async () => {
    const pdf = await storedFile(Buffer.from('%PDF-1.4 orçamento'), 'application/pdf', 'orcamento.pdf');
    expect(await h.deliver(await h.agentMessage(conversationId, 'Segue o orçamento', pdf))).toMatchObject({ outcome: 'sent' });
    const ogg = await storedFile(Buffer.concat([Buffer.from('OggS'), Buffer.alloc(300, 1)]), 'audio/ogg', 'voz.ogg');
    expect(await h.deliver(await h.agentMessage(conversationId, '', ogg, true))).toMatchObject({ outcome: 'sent' });
    const [document, voice] = sim.sent();
    expect(document).toMatchObject({
      endpoint: 'sendMedia',
      mediatype: 'document',
      fileName: 'orcamento.pdf',
      caption: 'Segue o orçamento',
    });
    expect(document!.media).toMatch(/^https:\/\/atende\.example\/api\/v1\/storage\/files\/.+\/signed\?/);
    expect(voice).toMatchObject({ endpoint: 'sendWhatsAppAudio', media: expect.stringMatching(/^https:\/\/atende\.example\//) });
  });

  it('shows the bridge’s refusal (the phone is not linked) on the message as failed with its reason', async () => {
    await sim.setConnection('close');
    const id = await h.agentMessage(conversationId, 'Oi de novo');
    expect(await h.deliver(id)).toEqual({ outcome: 'failed', reason: 'WhatsApp Web bridge answered 400: Error: Connection Closed' });
    expect(await h.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'failed' });
  });
});
