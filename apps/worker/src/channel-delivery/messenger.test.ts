import { randomUUID } from 'node:crypto';
import { startMetaSimulator, type MetaSimulator } from '@atende/simulators/meta';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useDeliveryHarness } from './harness';

/** Agent messages out through the Meta simulator's Send API: text, files by link, the 24-hour window and Meta's errors on the message. */
const PAGE = '100200300777';
const PSID = '7000555000222';
const credentials = { access_token: 'EAAdelivery', app_secret: 'app-secret', verify_token: 'verify' };
const h = useDeliveryHarness({ name: 'Messenger out', adapters: { meta: { timeoutMs: 2000 } } });
let sim: MetaSimulator;
let conversationId: string;
let contactMessageId: string;

beforeAll(async () => {
  sim = await startMetaSimulator({ object: 'page', pageId: PAGE, pageToken: credentials.access_token, appSecret: credentials.app_secret });
  ({ conversationId } = await h.openConversation({
    channel: { name: 'Messenger', type: 'messenger', config: { base_url: sim.baseUrl, page_id: PAGE }, credentials },
    contact: { name: 'Ana' },
    identifier: PSID,
  }));
  contactMessageId = (
    await h.db.message.create({
      data: { id: randomUUID(), tenantId: h.tenantId, conversationId, author: 'CONTACT', content: 'Oi', state: 'sent' },
    })
  ).id;
});
afterAll(() => sim?.close());
beforeEach(async () => {
  sim.reset();
  sim.addContact({ id: PSID, firstName: 'Ana' });
  await h.db.message.update({ where: { id: contactMessageId }, data: { createdAt: new Date() } });
});

const agentMessage = (content: string, annexId: string | null = null, voice = false) =>
  h.agentMessage(conversationId, content, annexId, voice);
const deliver = (id: string, finalAttempt = false) => h.deliver(id, finalAttempt);

describe('channel delivery: Messenger', () => {
  it("sends text to the contact's PSID and stores Meta's mid", async () => {
    const id = await agentMessage('Olá, Ana! Como posso ajudar?');
    expect(await deliver(id)).toMatchObject({ outcome: 'sent', externalId: expect.stringMatching(/^m_/) });
    expect(sim.sent()).toEqual([expect.objectContaining({ recipient: PSID, text: 'Olá, Ana! Como posso ajudar?', attachment: null })]);
    expect(await h.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'sent', status: null });
  });

  it('sends an image as an image attachment by its signed link', async () => {
    const file = await h.db.storedFile.create({
      data: {
        tenantId: h.tenantId,
        originalFilename: 'foto.png',
        contentType: 'image/png',
        size: 2000,
        service: 'local',
        storageKey: `${h.tenantId}/x`,
      },
    });
    const id = await agentMessage('', file.id);
    expect(await deliver(id)).toMatchObject({ outcome: 'sent' });
    const [sent] = sim.sent();
    expect(sent?.attachment?.type).toBe('image');
    expect(sent?.attachment?.url).toMatch(new RegExp(`^https://atende\\.example/.*${file.id}.*signature=`));
  });

  it('fails a reply more than 24 hours after the contact last wrote, with a clear reason and without calling Meta', async () => {
    await h.db.message.update({ where: { id: contactMessageId }, data: { createdAt: new Date(Date.now() - 25 * 3600_000) } });
    const id = await agentMessage('Ainda está aí?');
    const result = await deliver(id);
    expect(result).toMatchObject({ outcome: 'failed' });
    expect(await h.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: 'failed',
      errorMessage: expect.stringContaining('channel_window_closed'),
    });
    expect(sim.sent()).toEqual([]);
  });

  it('shows a Meta error on the message as failed, and the retry delivers it; rate limits are retried', async () => {
    sim.failNext(1, 400, { code: 551, message: "(#551) This person isn't available right now." });
    const id = await agentMessage('Oi de novo');
    expect(await deliver(id)).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('(#551)') });
    expect(await h.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'pending', status: 'failed' });
    await h.db.message.update({ where: { id }, data: { status: 'sending' } });
    expect(await deliver(id)).toMatchObject({ outcome: 'sent' });
    sim.rateLimitNext(1);
    const limited = await agentMessage('Tudo certo?');
    await expect(deliver(limited)).rejects.toMatchObject({ kind: 'transient' });
    expect(await deliver(limited)).toMatchObject({ outcome: 'sent' });
  });
});
