import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';
import { customChannel, inbound } from './fixtures';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let channel: { id: string };
let token: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_IP: '1000' });
  acme = await t.tenant('Acme', { users: { agent: ['agent'], agent2: ['agent'], agent3: ['agent'], supervisor: ['supervisor'] } });
  ({ channel, token } = await customChannel(t.database.db, acme.tenantId, acme.workspaceId, acme.sectors[0]!.id).then((r) => ({
    channel: r.channel,
    token: r.token,
  })));
  await t.database.db.workspace.update({ where: { id: acme.workspaceId }, data: { maxConversationPerUser: 2 } });
  for (const name of ['agent', 'agent2', 'agent3', 'supervisor']) tokens[name] = await t.login(`${name}@acme.test`);
});
afterAll(() => t.close());

const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });

describe('custom channel inbound', () => {
  it('creates the contact and a waiting conversation in the entry sector, idempotent by message id', async () => {
    const first = await inbound(t, channel.id, token, { phone: '(11) 98888-0001', id: 'ext-1', content: 'Oi' });
    expect(first.status).toBe(202);
    expect(first.body.data.duplicate).toBe(false);
    const again = await inbound(t, channel.id, token, { phone: '(11) 98888-0001', id: 'ext-1', content: 'Oi' });
    expect(again.body.data).toEqual({ ...first.body.data, duplicate: true });
    const conv = await t.database.db.conversation.findUniqueOrThrow({
      where: { id: first.body.data.conversation_uuid },
      include: { contact: true },
    });
    expect(conv).toMatchObject({ state: 'waiting', sectorId: acme.sectors[0]!.id, unreadContactMessages: 1, contactInteracted: true });
    expect(conv.contact.phoneNumber).toBe('+5511988880001');
    expect(await t.database.db.message.count({ where: { conversationId: conv.id } })).toBe(1);
    // A second message of the same contact joins the same open conversation.
    const second = await inbound(t, channel.id, token, { phone: '+55 11 98888 0001', id: 'ext-2' });
    expect(second.body.data.conversation_uuid).toBe(conv.id);
  });

  it('stores one message when the same delivery races with itself', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, () => inbound(t, channel.id, token, { phone: '11988880002', id: 'race-1' })),
    );
    expect(results.every((r) => r.status === 202)).toBe(true);
    expect(results.filter((r) => r.body.data.duplicate === false)).toHaveLength(1);
    expect(await t.database.db.message.count({ where: { externalId: 'race-1' } })).toBe(1);
    expect(await t.database.db.conversation.count({ where: { contact: { phoneNumber: '+5511988880002' } } })).toBe(1);
  });

  // The common case (known contact, open conversation) runs as one statement: same rules as the first message.
  it('appends to the open conversation once per message id, also when a delivery races with itself', async () => {
    const first = await inbound(t, channel.id, token, { phone: '11988880003', id: 'open-1' });
    const id = first.body.data.conversation_uuid as string;
    const results = await Promise.all(
      Array.from({ length: 6 }, () => inbound(t, channel.id, token, { phone: '11988880003', id: 'open-2', content: 'Segunda' })),
    );
    expect(results.every((r) => r.status === 202 && r.body.data.conversation_uuid === id)).toBe(true);
    expect(results.filter((r) => r.body.data.duplicate === false)).toHaveLength(1);
    const again = await inbound(t, channel.id, token, { phone: '11988880003', id: 'open-1' });
    expect(again.body.data).toEqual({ ...first.body.data, duplicate: true });
    const conv = await t.database.db.conversation.findUniqueOrThrow({
      where: { id },
      include: { messages: { orderBy: { createdAt: 'asc' } } },
    });
    expect(conv.unreadContactMessages).toBe(2);
    expect(conv.messages.map((m) => [m.author, m.content, m.externalId])).toEqual([
      ['CONTACT', 'Hello', 'open-1'],
      ['CONTACT', 'Segunda', 'open-2'],
    ]);
    expect(conv.lastMessageAt).toEqual(conv.messages[1]!.createdAt);
  });

  it('answers 401 for a wrong token or unknown channel and stores nothing; 400 for a bad body', async () => {
    const before = await t.database.db.message.count();
    expect((await inbound(t, channel.id, 'wrong-token', { phone: '11988880003' })).status).toBe(401);
    expect((await inbound(t, '0b7c1e6a-554b-4e9a-992b-1c6f4f2a1100', token, { phone: '11988880003' })).status).toBe(401);
    const noContact = await t.http
      .post(`/api/v1/channels/droz/${channel.id}/messages`)
      .set('Authorization', `Bearer ${token}`)
      .send({ contact: {}, message: { content: 'x' } });
    expect(noContact.status).toBe(400);
    const badPhone = await inbound(t, channel.id, token, { phone: '123' });
    expect(badPhone.status).toBe(400);
    expect(await t.database.db.message.count()).toBe(before);
  });
});

describe('accept session (on_demand)', () => {
  it('never hands one conversation to two agents nor exceeds capacity under parallel accepts', async () => {
    for (let i = 0; i < 5; i++) await inbound(t, channel.id, token, { phone: `1197777000${i}`, id: `acc-${i}` });
    const waiting = await t.database.db.conversation.count({ where: { tenantId: acme.tenantId, state: 'waiting' } });
    const users = await t.database.db.user.findMany({
      where: { tenantId: acme.tenantId, email: { in: ['agent@acme.test', 'agent2@acme.test', 'agent3@acme.test'] } },
    });
    const calls = users.flatMap((u) => {
      const name = u.email.split('@')[0]!;
      return Array.from({ length: 4 }, () => t.http.patch('/api/v1/conversations').set(auth(name)).send({ user_id: u.id }));
    });
    const results = await Promise.all(calls);
    expect(results.every((r) => [200, 404, 409].includes(r.status))).toBe(true);
    const ok = results.filter((r) => r.status === 200).map((r) => r.body.data.uuid as string);
    expect(new Set(ok).size).toBe(ok.length);
    expect(ok.length).toBe(Math.min(waiting, 6));
    for (const u of users) {
      expect(await t.database.db.conversation.count({ where: { userId: u.id, state: 'answered' } })).toBeLessThanOrEqual(2);
    }
    const full = results.find((r) => r.status === 409);
    expect(full?.body.error_message).toBe('Você já atingiu a quantidade máxima de atendimentos simultâneos (2)');
  });

  it('refuses accept when auto distribution is on, with the spec message', async () => {
    await t.database.db.workspace.update({ where: { id: acme.workspaceId }, data: { conversationDeliveryMode: 'fifo' } });
    const me = await t.database.db.user.findFirstOrThrow({ where: { email: 'agent3@acme.test' } });
    const res = await t.http.patch('/api/v1/conversations').set(auth('agent3')).send({ user_id: me.id });
    expect(res.status).toBe(409);
    expect(res.body.error_message).toBe('Você não pode solicitar atendimentos enquanto a distribuição automática estiver habilitada');
    await t.database.db.workspace.update({ where: { id: acme.workspaceId }, data: { conversationDeliveryMode: 'on_demand' } });
  });

  it('refuses accepting for somebody else and bad bodies', async () => {
    const other = await t.database.db.user.findFirstOrThrow({ where: { email: 'agent2@acme.test' } });
    expect((await t.http.patch('/api/v1/conversations').set(auth('agent')).send({ user_id: other.id })).status).toBe(403);
    expect((await t.http.patch('/api/v1/conversations').set(auth('agent')).send({ user_id: 'x' })).status).toBe(400);
    expect((await t.http.patch('/api/v1/conversations').set(auth('agent')).send({})).status).toBe(400);
  });
});
