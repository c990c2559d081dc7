import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';
import { customChannel, inbound } from './fixtures';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let support: { channel: { id: string }; token: string };
let sales: { channel: { id: string }; token: string };

beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_IP: '1000' });
  acme = await t.tenant('Acme', { users: { ana: ['agent'], bia: ['agent'], caio: ['agent'], sup: ['supervisor', 'agent'] } });
  const [supportSector, salesSector] = acme.sectors;
  support = await customChannel(t.database.db, acme.tenantId, acme.workspaceId, supportSector!.id, 'support-token-000000');
  sales = await customChannel(t.database.db, acme.tenantId, acme.workspaceId, salesSector!.id, 'sales-token-0000000000');
  // ana and bia work in Support, caio in Sales.
  await t.database.db.userSector.createMany({
    data: [
      { userId: acme.users.ana!.id, sectorId: supportSector!.id, tenantId: acme.tenantId },
      { userId: acme.users.bia!.id, sectorId: supportSector!.id, tenantId: acme.tenantId },
      { userId: acme.users.caio!.id, sectorId: salesSector!.id, tenantId: acme.tenantId },
    ],
  });
  await t.database.db.workspace.update({
    where: { id: acme.workspaceId },
    data: { conversationDeliveryMode: 'fifo', maxConversationPerUser: 2 },
  });
});
afterAll(() => t.close());

const holder = async (conversationId: string) =>
  (await t.database.db.conversation.findUniqueOrThrow({ where: { id: conversationId } })).userId;

describe('automatic distribution (fifo)', () => {
  it('offers each sector queue to its own online agents, within capacity, and keeps the rest waiting', async () => {
    for (const name of ['ana', 'bia', 'caio']) await t.login(`${name}@acme.test`);
    const convs: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await inbound(t, support.channel.id, support.token, { phone: `1192222000${i}`, id: `s-${i}` });
      convs.push(res.body.data.conversation_uuid);
    }
    const holders = await Promise.all(convs.map(holder));
    const supportAgents = [acme.users.ana!.id, acme.users.bia!.id];
    // Two agents with two slots each: four assigned, in Support only; the fifth waits.
    expect(holders.filter((h) => h !== null)).toHaveLength(4);
    expect(holders.filter((h) => h !== null).every((h) => supportAgents.includes(h!))).toBe(true);
    expect(holders[4]).toBeNull();
    expect(holders.filter((h) => h === acme.users.ana!.id)).toHaveLength(2);
    const sale = await inbound(t, sales.channel.id, sales.token, { phone: '11922229999', id: 'sale-1' });
    expect(await holder(sale.body.data.conversation_uuid)).toBe(acme.users.caio!.id);
    // Every assignment is recorded: offered, associate-user, answered.
    const events = await t.database.db.conversationEvent.findMany({ where: { conversationId: convs[0] }, orderBy: { at: 'asc' } });
    expect(events.map((e) => e.type)).toEqual(['enter-queue', 'offered', 'associate-user', 'answered']);
  });

  it('gives the waiting conversation to an agent as soon as a slot frees up', async () => {
    const waiting = await t.database.db.conversation.findFirstOrThrow({ where: { tenantId: acme.tenantId, state: 'waiting' } });
    const busy = await t.database.db.conversation.findFirstOrThrow({
      where: { tenantId: acme.tenantId, userId: acme.users.bia!.id, state: 'answered' },
    });
    const token = await t.login('bia@acme.test');
    const done = await t.http.patch(`/api/v1/conversations/${busy.id}`).set('Authorization', `Bearer ${token}`).send({ state: 'closed' });
    expect(done.status).toBe(200);
    expect(await holder(waiting.id)).toBe(acme.users.bia!.id);
  });

  it('does not offer conversations to paused or signed-out agents', async () => {
    const token = await t.login('caio@acme.test');
    await t.http.patch('/api/v1/users/me').set('Authorization', `Bearer ${token}`).send({ current_pause_uuid: acme.pauses[0]!.id });
    const res = await inbound(t, sales.channel.id, sales.token, { phone: '11922228888', id: 'sale-2' });
    expect(await holder(res.body.data.conversation_uuid)).toBeNull();
    // Unpausing hands it over.
    await t.http.patch('/api/v1/users/me').set('Authorization', `Bearer ${token}`).send({ current_pause_uuid: null });
    expect(await holder(res.body.data.conversation_uuid)).toBe(acme.users.caio!.id);
  });
});
