import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';
import { InboundReceiver, receiveQueuedChannelMessage } from '@atende/conversations';
import { providerChannelRow } from '@atende/db';
import { customChannel, inbound, storeQueuedInbound } from '../conversations/fixtures';
import { CHANNEL_ROW_TTL_MS } from './service';

// The custom channel's inbound call: checked and queued by the api, stored by the worker's
// channel-inbound processor; it remembers an authenticated channel's row for a second.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let admin: string;

beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_IP: '1000' });
  acme = await t.tenant('Inbound Rows', { users: { admin: ['admin'], agent: ['agent'] } });
  admin = await t.login('admin@inboundrows.test');
});
afterAll(() => t.close());

// Letting the remembered row's time to live pass is the scenario: nothing else tells this process of the change.
const afterTtl = () => new Promise((r) => setTimeout(r, CHANNEL_ROW_TTL_MS + 100));

describe('custom channel inbound: the remembered channel row', () => {
  it('a channel disabled or deleted through the api refuses the very next message, and stores nothing', async () => {
    const { channel, token } = await customChannel(t.database.db, acme.tenantId, acme.workspaceId, acme.sectors[0]!.id);
    expect((await inbound(t, channel.id, token, { phone: '11977770001', id: 'row-1' })).status).toBe(202);
    const off = await t.http.patch(`/api/v1/channels/${channel.id}`).set('Authorization', `Bearer ${admin}`).send({ enabled: false });
    expect(off.status).toBe(200);
    const refused = await inbound(t, channel.id, token, { phone: '11977770001', id: 'row-2' });
    expect(refused.status).toBe(403);
    expect(refused.body.error_message).toBe('This channel is disabled');
    expect(await t.database.db.message.count({ where: { externalId: 'row-2' } })).toBe(0);

    const on = await t.http.patch(`/api/v1/channels/${channel.id}`).set('Authorization', `Bearer ${admin}`).send({ enabled: true });
    expect(on.status).toBe(200);
    expect((await inbound(t, channel.id, token, { phone: '11977770001', id: 'row-3' })).status).toBe(202);
    expect((await t.http.delete(`/api/v1/channels/${channel.id}`).set('Authorization', `Bearer ${admin}`)).status).toBeLessThan(300);
    expect((await inbound(t, channel.id, token, { phone: '11977770001', id: 'row-4' })).status).toBe(401);
    expect(await t.database.db.message.count({ where: { externalId: 'row-4' } })).toBe(0);
  });

  it('a wrong token is refused even while the channel is remembered', async () => {
    const { channel, token } = await customChannel(
      t.database.db,
      acme.tenantId,
      acme.workspaceId,
      acme.sectors[0]!.id,
      'another-token-0123456789',
    );
    expect((await inbound(t, channel.id, token, { phone: '11977770002', id: 'tok-1' })).status).toBe(202);
    const wrong = await inbound(t, channel.id, 'not-the-token', { phone: '11977770002', id: 'tok-2' });
    expect(wrong.status).toBe(401);
    expect(
      (
        await t.http
          .post(`/api/v1/channels/droz/${channel.id}/messages`)
          .send({ contact: { phone: '11977770002' }, message: { id: 'tok-3', content: 'x' } })
      ).status,
    ).toBe(401);
    expect(await t.database.db.message.count({ where: { externalId: { in: ['tok-2', 'tok-3'] } } })).toBe(0);
  });

  it("a change made elsewhere (another api process) applies within the row's second", async () => {
    const { channel, token } = await customChannel(
      t.database.db,
      acme.tenantId,
      acme.workspaceId,
      acme.sectors[0]!.id,
      'elsewhere-token-0123456789',
    );
    expect((await inbound(t, channel.id, token, { phone: '11977770003', id: 'far-1' })).status).toBe(202);
    // Written straight to the database: this process was not told.
    await t.database.db.channel.update({ where: { id: channel.id }, data: { enabled: false } });
    await afterTtl();
    const refused = await inbound(t, channel.id, token, { phone: '11977770003', id: 'far-2' });
    expect(refused.status).toBe(403);
    expect(await t.database.db.message.count({ where: { externalId: 'far-2' } })).toBe(0);
  });

  it('a new conversation opens by the stored channel, not the remembered row (its entry sector changed meanwhile)', async () => {
    const [first, second] = acme.sectors;
    if (!first || !second) throw new Error('the test tenant needs two sectors');
    const { channel, token } = await customChannel(t.database.db, acme.tenantId, acme.workspaceId, first.id, 'entry-token-0123456789');
    const opened = await inbound(t, channel.id, token, { phone: '11977770004', id: 'entry-1' });
    expect(opened.status).toBe(202);
    await t.database.db.channel.update({ where: { id: channel.id }, data: { entrySectorId: second.id } });
    // Within the second: a contact without an open conversation.
    const fresh = await inbound(t, channel.id, token, { phone: '11977770005', id: 'entry-2' });
    expect(fresh.status).toBe(202);
    const conv = await t.database.db.conversation.findUniqueOrThrow({ where: { id: fresh.body.data.conversation_uuid } });
    expect(conv.sectorId).toBe(second.id);
    // And the known contact's next message still joins their open conversation.
    const again = await inbound(t, channel.id, token, { phone: '11977770004', id: 'entry-3' });
    expect(again.body.data.conversation_uuid).toBe(opened.body.data.conversation_uuid);
  });

  it('a user session token is no channel token', async () => {
    const { channel } = await customChannel(
      t.database.db,
      acme.tenantId,
      acme.workspaceId,
      acme.sectors[0]!.id,
      'session-test-token-0123456789',
    );
    const res = await inbound(t, channel.id, admin, { phone: '11977770006', id: 'sess-1' });
    expect(res.status).toBe(401);
    expect(res.body.error_message).toBe('Invalid channel or token');
  });
});

describe('custom channel inbound: queued like a webhook', () => {
  const post = (channelId: string, token: string, body: object) =>
    t.http.post(`/api/v1/channels/droz/${channelId}/messages`).set('Authorization', `Bearer ${token}`).send(body);
  const storedAt = (channelId: string, token: string, messageId: string) =>
    t.http.get(`/api/v1/channels/droz/${channelId}/messages/${messageId}`).set('Authorization', `Bearer ${token}`);

  it("answers the message's uuid at once, stores it with the queue, and tells where it went", async () => {
    const { channel, token } = await customChannel(
      t.database.db,
      acme.tenantId,
      acme.workspaceId,
      acme.sectors[0]!.id,
      'queue-token-0123456789',
    );
    const body = { contact: { phone: '11977770010', name: 'Lia' }, message: { id: 'q-1', content: 'Oi' } };
    const res = await post(channel.id, token, body);
    expect(res.status).toBe(202);
    expect(Object.keys(res.body.data)).toEqual(['message_uuid']);
    // Nothing is stored before the worker's turn; the conversation is not known yet.
    expect(await t.database.db.message.count({ where: { id: res.body.data.message_uuid } })).toBe(0);
    // A message id that is no uuid is a bad request, not a lookup.
    const malformed = await storedAt(channel.id, token, 'not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('validation_failed');
    const early = await storedAt(channel.id, token, res.body.data.message_uuid);
    expect(early.status).toBe(404);
    expect(early.body.code).toBe('message_not_found');

    // The same message again names the same uuid and is stored once.
    expect((await post(channel.id, token, body)).body.data.message_uuid).toBe(res.body.data.message_uuid);
    const [first, repeat] = await storeQueuedInbound(t, channel.id);
    expect(first).toMatchObject({ message_uuid: res.body.data.message_uuid, duplicate: false });
    expect(repeat).toEqual({ ...first, duplicate: true });
    expect(await t.database.db.message.count({ where: { id: res.body.data.message_uuid } })).toBe(1);

    const found = await storedAt(channel.id, token, res.body.data.message_uuid);
    expect(found.status).toBe(200);
    expect(found.body.data).toEqual({ message_uuid: res.body.data.message_uuid, conversation_uuid: first!.conversation_uuid });
    // Another channel's token does not open it; nor does another channel's path.
    const other = await customChannel(t.database.db, acme.tenantId, acme.workspaceId, acme.sectors[0]!.id, 'queue-other-0123456789');
    expect((await storedAt(channel.id, other.token, res.body.data.message_uuid)).status).toBe(401);
    expect((await storedAt(other.channel.id, other.token, res.body.data.message_uuid)).status).toBe(404);
  });

  it('refuses an invalid phone while the caller waits, and queues nothing', async () => {
    const { channel, token } = await customChannel(
      t.database.db,
      acme.tenantId,
      acme.workspaceId,
      acme.sectors[0]!.id,
      'phone-token-0123456789',
    );
    const res = await post(channel.id, token, { contact: { phone: '12' }, message: { content: 'Oi' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('phone_invalid');
    expect(res.body.fields).toEqual([{ path: 'contact.phone', message: 'Número de telefone inválido', code: 'phone_invalid' }]);
    expect(await storeQueuedInbound(t, channel.id)).toEqual([]);
  });

  it('messages stored out of order (parallel jobs) keep the order they were accepted in', async () => {
    const { channel, token } = await customChannel(
      t.database.db,
      acme.tenantId,
      acme.workspaceId,
      acme.sectors[0]!.id,
      'order-token-0123456789',
    );
    for (const [id, content] of [
      ['ord-1', 'primeira'],
      ['ord-2', 'segunda'],
      ['ord-3', 'terceira'],
    ])
      expect((await post(channel.id, token, { contact: { phone: '11977770011' }, message: { id, content } })).status).toBe(202);
    const jobs = await t.database.db.outboxJob.findMany({
      where: { queue: 'channel-inbound', dispatchedAt: null, payload: { path: ['channel_uuid'], equals: channel.id } },
      orderBy: { createdAt: 'asc' },
    });
    expect(jobs).toHaveLength(3);
    const receiver = new InboundReceiver(t.ctx);
    const row = (await providerChannelRow(t.database.db, acme.tenantId, channel.id))!;
    // The worker reaches the second first, then the third, then the first.
    for (const job of [jobs[1]!, jobs[2]!, jobs[0]!]) {
      const payload = job.payload as { raw_body: string; received_at: string };
      expect(await receiveQueuedChannelMessage(receiver, row, payload.raw_body, new Date(payload.received_at))).not.toBeNull();
      await t.database.db.outboxJob.update({ where: { id: job.id }, data: { dispatchedAt: new Date() } });
    }
    const messages = await t.database.db.message.findMany({
      where: { externalId: { in: ['ord-1', 'ord-2', 'ord-3'] } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    expect(messages.map((m) => m.content)).toEqual(['primeira', 'segunda', 'terceira']);
    const conversation = await t.database.db.conversation.findUniqueOrThrow({ where: { id: messages[0]!.conversationId } });
    // The conversation's last message time did not move back when the first was stored last.
    expect(conversation.lastMessageAt).toEqual(messages[2]!.createdAt);
  });
});
