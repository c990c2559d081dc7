import { randomUUID } from 'node:crypto';
import { startWhatsAppSimulator, type WhatsAppSimulator } from '@atende/simulators/whatsapp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { processInbound } from '../channel-inbound/processor';
import { useDeliveryHarness } from './harness';

/** Agent messages out as SMS through the Twilio simulator: text, MMS, errors on the message, status callbacks. */
const SID = 'AC22222222222222222222222222222222';
const PHONE = '+5511977776666';
const h = useDeliveryHarness({ name: 'SMS out', adapters: { sms: { timeoutMs: 2000 } } });
let sim: WhatsAppSimulator;
let channelId: string;
let conversationId: string;

beforeAll(async () => {
  sim = await startWhatsAppSimulator({ provider: 'twilio_sms', credentials: { account_sid: SID, auth_token: 'sms-token' } });
  ({ channelId, conversationId } = await h.openConversation({
    channel: {
      name: 'SMS',
      type: 'sms',
      config: { base_url: sim.baseUrl, account_sid: SID, from_number: '+15005550006', mms_enabled: 'true' },
      credentials: { auth_token: 'sms-token' },
    },
    contact: { name: 'Ana', phoneNumber: PHONE },
    identifier: PHONE,
  }));
});
afterAll(() => sim?.close());
beforeEach(() => sim.reset());

const agentMessage = (content: string, annexId: string | null = null, voice = false) =>
  h.agentMessage(conversationId, content, annexId, voice);
const deliver = (id: string, finalAttempt = false) => h.deliver(id, finalAttempt);
/** A status callback as Twilio documents it for SMS: the ErrorCode, no error text. */
const statusCallback = (sid: string, status: string, errorCode?: string) =>
  processInbound(
    { ...h.deps, storage: h.storage },
    {
      tenant_uuid: h.tenantId,
      channel_uuid: channelId,
      content_type: 'application/x-www-form-urlencoded',
      received_at: new Date().toISOString(),
      raw_body: new URLSearchParams({
        MessageSid: sid,
        MessageStatus: status,
        To: PHONE,
        ...(errorCode ? { ErrorCode: errorCode } : {}),
      }).toString(),
    },
  );

describe('channel delivery: SMS through Twilio', () => {
  it('sends text to the contact number with a StatusCallback to the channel webhook; status callbacks move it to delivered', async () => {
    const id = await agentMessage('Olá, Ana! Como posso ajudar?');
    const result = await deliver(id);
    expect(result).toMatchObject({ outcome: 'sent', externalId: expect.stringMatching(/^SM/) });
    expect(sim.sent()).toEqual([
      expect.objectContaining({
        body: expect.objectContaining({
          To: PHONE,
          From: '+15005550006',
          Body: 'Olá, Ana! Como posso ajudar?',
          StatusCallback: `https://atende.example/api/v1/channels/${channelId}/webhook`,
        }),
      }),
    ]);
    const externalId = result.outcome === 'sent' ? result.externalId! : '';
    await statusCallback(externalId, 'sent');
    await statusCallback(externalId, 'delivered');
    expect(await h.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({
      state: 'sent',
      status: null,
      interactiveContent: { delivery: 'delivered' },
    });
    // A late 'sent' does not undo 'delivered'.
    await statusCallback(externalId, 'sent');
    expect(await h.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ interactiveContent: { delivery: 'delivered' } });
  });

  it('sends a stored picture as MMS by our signed link', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const key = `${h.tenantId}/${randomUUID()}`;
    await h.storage.put(key, bytes, { contentType: 'image/png', size: bytes.length });
    const file = await h.db.storedFile.create({
      data: {
        tenantId: h.tenantId,
        originalFilename: 'foto.png',
        contentType: 'image/png',
        size: bytes.length,
        service: h.storage.service,
        storageKey: key,
      },
    });
    const id = await agentMessage('Segue a foto', file.id);
    expect(await deliver(id)).toMatchObject({ outcome: 'sent' });
    expect(sim.sent()[0]!.body).toMatchObject({ Body: 'Segue a foto', MediaUrl: expect.stringContaining(`https://atende.example/`) });
    expect(String(sim.sent()[0]!.body.MediaUrl)).toContain(file.id);
  });

  it('shows error 21211 on the message as failed with its reason, and the retry delivers it', async () => {
    sim.failNext(1, 400);
    const id = await agentMessage('Oi de novo');
    const reason = "Twilio answered 400: (#21211) Invalid 'To' Phone Number";
    expect(await deliver(id)).toEqual({ outcome: 'failed', reason });
    expect(await h.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({
      state: 'pending',
      status: 'failed',
      errorMessage: reason,
    });
    await h.db.message.update({ where: { id }, data: { status: 'sending' } });
    expect(await deliver(id)).toMatchObject({ outcome: 'sent' });
    expect(await h.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'sent', status: null, errorMessage: null });
  });

  it('marks a message failed with the carrier error when the status callback says undelivered', async () => {
    const id = await agentMessage('Vai chegar?');
    const result = await deliver(id);
    await statusCallback(result.outcome === 'sent' ? result.externalId! : '', 'undelivered', '30003');
    expect(await h.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: 'failed',
      errorMessage: '30003: Twilio error 30003',
    });
  });

  it('refuses a text over 1600 characters without calling Twilio', async () => {
    const result = await deliver(await agentMessage('x'.repeat(1601)));
    expect(result.outcome === 'failed' && result.reason).toContain('channel_text_too_long');
    expect(sim.sent()).toEqual([]);
  });
});
