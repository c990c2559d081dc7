import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';
import { customChannel, inbound } from './fixtures';

// Sector: ticket announce flag, ticket message: a conversation entering
// an announcing sector's queue sends the contact the sector's ticket message, once per entry.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let channel: { id: string };
let token: string;
let agent = '';

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme', { users: { agent: ['agent'] } });
  const [support, sales] = acme.sectors;
  await t.database.db.sector.update({
    where: { id: support!.id },
    data: { ticketAnnounce: true, ticketMessage: 'Seu protocolo no setor {{sector}} é {{ticket}}.' },
  });
  await t.database.db.sector.update({ where: { id: sales!.id }, data: { ticketAnnounce: true, ticketMessage: 'Protocolo de Vendas:' } });
  ({ channel, token } = await customChannel(t.database.db, acme.tenantId, acme.workspaceId, support!.id));
  agent = await t.login('agent@acme.test');
});
afterAll(() => t.close());

const messagesOf = (conversationId: string) =>
  t.database.db.message.findMany({
    where: { conversationId },
    orderBy: [{ createdAt: 'asc' }],
    select: { author: true, content: true, tags: true },
  });

describe('sector ticket announcement', () => {
  it('announces the ticket after the first message, not on the next ones, and again on entering another sector', async () => {
    const first = await inbound(t, channel.id, token, { phone: '11955550001', id: 'tk-1', content: 'Olá' });
    expect(first.status).toBe(202);
    const conversationId = first.body.data.conversation_uuid as string;
    const conv = await t.database.db.conversation.findUniqueOrThrow({ where: { id: conversationId } });
    await inbound(t, channel.id, token, { phone: '11955550001', id: 'tk-2', content: 'Alguém aí?' });
    expect(await messagesOf(conversationId)).toEqual([
      { author: 'CONTACT', content: 'Olá', tags: [] },
      { author: 'USER', content: `Seu protocolo no setor ${acme.sectors[0]!.name} é ${conv.ticketNumber}.`, tags: ['ticket'] },
      { author: 'CONTACT', content: 'Alguém aí?', tags: [] },
    ]);
    // The announcement goes to the contact like any agent message: queued for delivery.
    const announced = await t.database.db.message.findFirstOrThrow({ where: { conversationId, tags: { has: 'ticket' } } });
    expect(await t.database.db.outboxJob.count({ where: { payload: { path: ['message_uuid'], equals: announced.id } } })).toBe(1);

    // An agent takes it and transfers it to Sales' queue: Sales announces (its message has no placeholder).
    const accepted = await t.http
      .patch('/api/v1/conversations')
      .set({ Authorization: `Bearer ${agent}` })
      .send({ user_id: acme.users.agent!.id });
    expect(accepted.body.data.uuid).toBe(conversationId);
    const moved = await t.http
      .patch(`/api/v1/conversations/${conversationId}`)
      .set({ Authorization: `Bearer ${agent}` })
      .send({ sector_uuid: acme.sectors[1]!.id });
    expect(moved.status).toBe(200);
    const after = await messagesOf(conversationId);
    expect(after.at(-1)).toEqual({ author: 'USER', content: `Protocolo de Vendas: ${conv.ticketNumber}`, tags: ['ticket'] });
    expect(after.filter((m) => m.tags.includes('ticket'))).toHaveLength(2);
  });

  it('says nothing for a sector that does not announce', async () => {
    await t.database.db.sector.update({ where: { id: acme.sectors[0]!.id }, data: { ticketAnnounce: false } });
    const res = await inbound(t, channel.id, token, { phone: '11955550002', id: 'tk-3', content: 'Oi' });
    expect((await messagesOf(res.body.data.conversation_uuid)).map((m) => m.author)).toEqual(['CONTACT']);
  });
});
