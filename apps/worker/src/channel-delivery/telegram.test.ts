import { randomUUID } from 'node:crypto';
import { startTelegramSimulator, type TelegramSimulator } from '@atende/simulators/telegram';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useDeliveryHarness } from './harness';

/** Agent messages out through the Telegram Bot API simulator: text, files, and the provider's errors on the message. */
const TOKEN = '7000000777:AAworker-delivery';
const CHAT = '555000222';
const h = useDeliveryHarness({ name: 'TG out', adapters: { telegram: { timeoutMs: 2000 } } });
let sim: TelegramSimulator;
let conversationId: string;

beforeAll(async () => {
  sim = await startTelegramSimulator({ token: TOKEN });
  ({ conversationId } = await h.openConversation({
    channel: {
      name: 'Telegram',
      type: 'telegram',
      config: { base_url: sim.baseUrl },
      credentials: { bot_token: TOKEN, webhook_secret: 's' },
    },
    contact: { name: 'Ana' },
    identifier: CHAT,
  }));
});
afterAll(() => sim?.close());
beforeEach(() => sim.reset());

const agentMessage = (content: string, annexId: string | null = null, voice = false) =>
  h.agentMessage(conversationId, content, annexId, voice);
const deliver = (id: string, finalAttempt = false) => h.deliver(id, finalAttempt);

describe('channel delivery: Telegram', () => {
  it('sends text with sendMessage to the contact’s chat and marks it sent (Telegram sends bots no receipts)', async () => {
    const id = await agentMessage('Olá, Ana! Como posso ajudar?');
    expect(await deliver(id)).toMatchObject({ outcome: 'sent', externalId: expect.stringMatching(new RegExp(`^${CHAT}:\\d+$`)) });
    expect(sim.sent()).toEqual([expect.objectContaining({ method: 'sendMessage', chatId: CHAT, text: 'Olá, Ana! Como posso ajudar?' })]);
    expect(await h.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'sent', status: null });
  });

  it('uploads a stored document with its caption (sendDocument, multipart from storage)', async () => {
    const bytes = Buffer.from('%PDF-1.4 orçamento');
    const key = `${h.tenantId}/${randomUUID()}`;
    await h.storage.put(key, bytes, { contentType: 'application/pdf', size: bytes.length });
    const file = await h.db.storedFile.create({
      data: {
        tenantId: h.tenantId,
        originalFilename: 'orcamento.pdf',
        contentType: 'application/pdf',
        size: bytes.length,
        service: h.storage.service,
        storageKey: key,
      },
    });
    const id = await agentMessage('Segue o orçamento', file.id);
    expect(await deliver(id)).toMatchObject({ outcome: 'sent' });
    expect(sim.sent()).toEqual([
      expect.objectContaining({
        method: 'sendDocument',
        chatId: CHAT,
        caption: 'Segue o orçamento',
        file: expect.objectContaining({ filename: 'orcamento.pdf', bytes }),
      }),
    ]);
  });

  it('shows a provider refusal on the message as failed with its reason, and the retry delivers it', async () => {
    sim.failNext(1, 403);
    const id = await agentMessage('Oi de novo');
    expect(await deliver(id)).toEqual({ outcome: 'failed', reason: 'Telegram answered 403: Forbidden: bot was blocked by the user' });
    expect(await h.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({
      state: 'pending',
      status: 'failed',
      errorMessage: 'Telegram answered 403: Forbidden: bot was blocked by the user',
    });
    // The agent's retry sets the message sending again and queues it.
    await h.db.message.update({ where: { id }, data: { status: 'sending' } });
    expect(await deliver(id)).toMatchObject({ outcome: 'sent' });
    expect(await h.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'sent', status: null, errorMessage: null });
  });

  it('retries flood control (429) and fails the message only after the last attempt; refuses a text over 4096 without calling', async () => {
    sim.rateLimitNext(1, 3);
    const limited = await agentMessage('Tudo certo?');
    await expect(deliver(limited)).rejects.toMatchObject({ kind: 'transient' });
    expect(await deliver(limited)).toMatchObject({ outcome: 'sent' });
    const long = await agentMessage('x'.repeat(4097));
    const result = await deliver(long);
    expect(result).toMatchObject({ outcome: 'failed' });
    expect(result.outcome === 'failed' && result.reason).toContain('channel_text_too_long');
    expect(sim.sent().filter((s) => s.text?.startsWith('xxx'))).toEqual([]);
  });
});
