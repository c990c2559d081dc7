import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';
import { customChannel, inbound } from './fixtures';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let channel: { id: string };
let token: string;
const tokens: Record<string, string> = {};
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_IP: '1000' });
  acme = await t.tenant('Acme', { users: { agent: ['agent'], agent2: ['agent'], supervisor: ['supervisor'] } });
  ({ channel, token } = await customChannel(t.database.db, acme.tenantId, acme.workspaceId, acme.sectors[0]!.id));
  for (const name of ['agent', 'agent2', 'supervisor']) tokens[name] = await t.login(`${name}@acme.test`);
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.close();
});
const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });

function connect(name: string): Promise<{ socket: Socket; events: [string, unknown][] }> {
  const socket = io(t.url, { path: '/socket', auth: { token: tokens[name] }, transports: ['websocket'] });
  sockets.push(socket);
  const events: [string, unknown][] = [];
  socket.onAny((e, p) => events.push([e, p]));
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve({ socket, events }));
    socket.once('connect_error', reject);
  });
}

describe('queue and lists', () => {
  it('announces the waiting count to every agent of the tenant and lets a supervisor watch a conversation live', async () => {
    const agent = await connect('agent');
    const supervisor = await connect('supervisor');
    const res = await inbound(t, channel.id, token, { phone: '11933330001', id: 'w-1', content: 'Oi' });
    const conversationId = res.body.data.conversation_uuid as string;
    await vi.waitFor(() => expect(agent.events).toContainEqual(['waiting-queue', expect.objectContaining({ quantity_waiting_queue: 1 })]), {
      timeout: 3000,
    });
    const waiting = await t.http.get('/api/v1/conversations/waiting-queue').set(auth('agent'));
    expect(waiting.body.data).toEqual({ quantity_waiting_queue: 1 });
    // /chat/{id}: the supervisor's live view joins the conversation's room.
    const ack = await supervisor.socket.emitWithAck('join', { room: `tenant_${acme.tenantId}_conversation_${conversationId}` });
    expect(ack).toEqual({ ok: true });
    const refused = await agent.socket.emitWithAck('join', { room: `tenant_${acme.tenantId}_conversation_${conversationId}` });
    expect(refused.ok).toBe(false);
    await inbound(t, channel.id, token, { phone: '11933330001', id: 'w-2', content: 'Alguém?' });
    await vi.waitFor(
      () => expect(supervisor.events).toContainEqual(['new-message', expect.objectContaining({ conversation_uuid: conversationId })]),
      { timeout: 3000 },
    );
    expect(agent.events.some(([e]) => e === 'new-message')).toBe(false);
  });

  it('lists conversations: agents see only theirs, supervisors the workspace, with filters and paging', async () => {
    const me = acme.users.agent!;
    const accepted = await t.http.patch('/api/v1/conversations').set(auth('agent')).send({ user_id: me.id });
    expect(accepted.status).toBe(200);
    await inbound(t, channel.id, token, { phone: '11933330002', id: 'w-3' });
    const mine = await t.http.get('/api/v2/conversations').set(auth('agent'));
    expect(mine.body.pagination.total).toBe(1);
    expect(mine.body.data[0].user.uuid).toBe(me.uuid);
    const all = await t.http.get('/api/v2/conversations?_limit=1').set(auth('supervisor'));
    expect(all.body.pagination).toEqual({ total: 2, limit: 1, offset: 0, next_cursor: expect.any(String) });
    expect(all.body.data).toHaveLength(1);
    const waiting = await t.http.get('/api/v2/conversations?state=waiting').set(auth('supervisor'));
    expect(waiting.body.data.map((c: { state: string }) => c.state)).toEqual(['waiting']);
    const both = await t.http.get('/api/v2/conversations?state=waiting,answered').set(auth('supervisor'));
    expect(both.body.pagination.total).toBe(2);
    expect((await t.http.get('/api/v2/conversations?state=bogus').set(auth('supervisor'))).status).toBe(400);
    expect((await t.http.get('/api/v2/conversations?_limit=-1').set(auth('supervisor'))).status).toBe(400);
    expect((await t.http.get(`/api/v2/conversations?user_id=${acme.users.agent2!.id}`).set(auth('agent'))).status).toBe(403);
    const offered = await t.http.get('/api/v1/conversations/offered/me').set(auth('agent'));
    expect(offered.body.data.map((c: { uuid: string }) => c.uuid)).toEqual([accepted.body.data.uuid]);
    // Another agent cannot open it.
    expect((await t.http.get(`/api/v1/conversations/${accepted.body.data.uuid}`).set(auth('agent2'))).status).toBe(404);
  });

  // The list said nothing for a voice note or a file without a caption.
  it('tells the list what the last message carries: a voice note, a file', async () => {
    await inbound(t, channel.id, token, { phone: '11933330077', id: 'w-preview' });
    const conversation = await t.database.db.conversation.findFirstOrThrow({
      where: { tenantId: acme.tenantId, contact: { phoneNumber: { endsWith: '11933330077' } } },
    });
    const lastOf = async () => {
      const res = await t.http.get(`/api/v1/conversations/${conversation.id}`).set(auth('supervisor'));
      expect(res.status).toBe(200);
      return res.body.data.last_message;
    };
    expect(await lastOf()).toMatchObject({ content: expect.any(String), attachment: null });
    const add = (data: { voice?: boolean; annexId?: string; content?: string }, at: number) =>
      t.database.db.message.create({
        data: {
          id: crypto.randomUUID(),
          tenantId: acme.tenantId,
          conversationId: conversation.id,
          author: 'CONTACT',
          tags: [],
          createdAt: new Date(Date.now() + at),
          ...data,
        },
      });
    await add({ voice: true, annexId: crypto.randomUUID() }, 1000);
    expect(await lastOf()).toMatchObject({ content: '', attachment: 'voice' });
    await add({ annexId: crypto.randomUUID(), content: 'boleto.pdf' }, 2000);
    expect(await lastOf()).toMatchObject({ content: 'boleto.pdf', attachment: 'file' });
  });

  it('lists transfer destinations and the day chat history with message counts', async () => {
    const dest = await t.http.get('/api/v1/conversations/transfer_destinations').set(auth('agent'));
    expect(dest.body.data.sectors.map((s: { name: string }) => s.name).sort()).toEqual(['Sales', 'Support']);
    expect(dest.body.data.agents.map((a: { email: string }) => a.email)).toEqual(
      expect.arrayContaining(['agent@acme.test', 'agent2@acme.test']),
    );
    const [open] = (await t.http.get('/api/v1/conversations/offered/me').set(auth('agent'))).body.data;
    await t.http.post(`/api/v1/conversations/${open.uuid}/messages`).set(auth('agent')).send({ content: 'Resolvido!' });
    await t.http.patch(`/api/v1/conversations/${open.uuid}`).set(auth('agent')).send({ state: 'closed' });
    const start = new Date(Date.now() - 3600_000).toISOString();
    const end = new Date(Date.now() + 3600_000).toISOString();
    const day = await t.http.get(`/api/v1/conversations/history?start=${start}&end=${end}`).set(auth('agent'));
    expect(day.status).toBe(200);
    expect(day.body.pagination.total).toBe(1);
    expect(day.body.data[0]).toMatchObject({
      conversation_uuid: open.uuid,
      ended_by: 'agent',
      agent_message: 1,
      contact_message: 2,
      channel_type: 'custom',
    });
    expect((await t.http.get('/api/v1/conversations/history').set(auth('agent'))).status).toBe(400);
    expect((await t.http.get(`/api/v1/conversations/history?start=${end}&end=${start}`).set(auth('agent'))).status).toBe(400);
    expect(
      (await t.http.get(`/api/v1/conversations/history?start=${start}&end=${end}&user_id=${acme.users.agent2!.id}`).set(auth('agent')))
        .status,
    ).toBe(403);
  });

  // A sector filter leaves the kept tally and counts in SQL, where the state is spelled as Postgres stores it.
  it('filters outbound-started conversations by sector, counted in SQL', async () => {
    await inbound(t, channel.id, token, { phone: '11933330088', id: 'w-outbound' });
    const conversation = await t.database.db.conversation.findFirstOrThrow({
      where: { tenantId: acme.tenantId, contact: { phoneNumber: { endsWith: '11933330088' } } },
    });
    await t.database.db.conversation.update({
      where: { id: conversation.id },
      data: { state: 'outbound_started', userId: acme.users.agent!.id },
    });
    const listed = await t.http
      .get(`/api/v2/conversations?state=outbound-started&sector_uuid=${acme.sectors[0]!.id}`)
      .set(auth('supervisor'));
    expect(listed.status).toBe(200);
    expect(listed.body.pagination.total).toBe(1);
    expect(listed.body.data.map((c: { uuid: string }) => c.uuid)).toEqual([conversation.id]);
  });
});
