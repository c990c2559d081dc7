import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';
import { customChannel, inbound } from './fixtures';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let channel: { id: string };
let token: string;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_IP: '1000' });
  acme = await t.tenant('Acme', { users: { agent: ['agent'], agent2: ['agent'], supervisor: ['supervisor'] } });
  await t.tenant('Other', { users: { agent: ['agent'] } });
  ({ channel, token } = await customChannel(t.database.db, acme.tenantId, acme.workspaceId, acme.sectors[0]!.id));
  for (const name of ['agent', 'agent2', 'supervisor']) {
    tokens[name] = await t.login(`${name}@acme.test`);
    ids[name] = acme.users[name]!.id;
  }
  tokens.outsider = await t.login('agent@other.test');
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.close();
});

const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });

function socketFor(
  name: string,
): Promise<{ socket: Socket; events: { event: string; payload: { conversation?: { uuid: string }; conversation_uuid?: string } }[] }> {
  const socket = io(t.url, { path: '/socket', auth: { token: tokens[name] }, transports: ['websocket'] });
  sockets.push(socket);
  const events: { event: string; payload: { conversation?: { uuid: string }; conversation_uuid?: string } }[] = [];
  socket.onAny((event, payload) => events.push({ event, payload }));
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve({ socket, events }));
    socket.once('connect_error', reject);
  });
}
/** An event about conversation `uuid`, as the socket received it. */
const updateOf = (uuid: string) => ({
  event: 'update-conversation',
  payload: expect.objectContaining({ conversation: expect.objectContaining({ uuid }) }),
});

/** A new conversation from a contact, accepted by `name`. */
async function acceptedBy(name: string, phone: string): Promise<string> {
  // Each test starts from an empty queue, so the accept below takes this contact's conversation.
  await t.database.db.conversation.updateMany({
    where: { tenantId: acme.tenantId, state: 'waiting' },
    data: { state: 'closed', closedAt: new Date() },
  });
  await inbound(t, channel.id, token, { phone, id: `m-${phone}`, content: 'Preciso de ajuda' });
  const res = await t.http.patch('/api/v1/conversations').set(auth(name)).send({ user_id: ids[name] });
  expect(res.status).toBe(200);
  return res.body.data.uuid as string;
}

describe('conversation actions', () => {
  it('returns to queue, prioritises and finishes with a reason, with history events', async () => {
    const id = await acceptedBy('agent', '11966660001');
    const back = await t.http.patch(`/api/v1/conversations/${id}`).set(auth('agent')).send({ state: 'waiting' });
    expect(back.status).toBe(200);
    expect(back.body.data).toMatchObject({ state: 'waiting', user: null });
    expect(back.body.data.history.at(-1)).toMatchObject({ event: 'enter-queue', detail: { event: 'update-conversation' } });
    // The agent no longer holds it: acting again is refused.
    expect((await t.http.patch(`/api/v1/conversations/${id}`).set(auth('agent')).send({ state: 'waiting' })).status).toBe(403);
    const top = await t.http.put(`/api/v1/conversations/${id}`).set(auth('supervisor')).send({ priority: 'top' });
    expect(top.status).toBe(200);
    expect(top.body.data.history.at(-1)).toMatchObject({ event: 'new-priority' });
    // Prioritised first: the next accept takes it.
    await inbound(t, channel.id, token, { phone: '11966660009', id: 'later' });
    const taken = await t.http.patch('/api/v1/conversations').set(auth('agent')).send({ user_id: ids.agent });
    expect(taken.body.data.uuid).toBe(id);
    const reason = await t.database.db.conversationReason.create({ data: { tenantId: acme.tenantId, name: 'Solved' } });
    const done = await t.http
      .patch(`/api/v1/conversations/${id}`)
      .set(auth('agent'))
      .send({ state: 'closed', conversation_reason_uuid: reason.id });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ state: 'closed', ended_by: 'agent', conversation_reason_uuid: reason.id });
    expect(done.body.data.history.at(-1)).toMatchObject({ event: 'closed', detail: { ended_by: 'agent', end_reason: { name: 'Solved' } } });
    expect((await t.http.patch(`/api/v1/conversations/${id}`).set(auth('agent')).send({ state: 'closed' })).status).toBe(409);
  });

  it('an agent prioritises a conversation they hold: it returns to the top of the queue in one call', async () => {
    await acceptedBy('agent2', '11966660011');
    const older = (
      await t.database.db.conversation.findFirstOrThrow({
        where: { tenantId: acme.tenantId, userId: ids.agent2 },
        orderBy: { createdAt: 'desc' },
      })
    ).id;
    await t.http.patch(`/api/v1/conversations/${older}`).set(auth('agent2')).send({ state: 'waiting' }).expect(200);
    const id = await (async () => {
      await inbound(t, channel.id, token, { phone: '11966660012', id: 'm-prio-2', content: 'Oi' });
      // The older one waits first; the agent takes the next in line (the older), then the new one.
      const first = await t.http.patch('/api/v1/conversations').set(auth('agent')).send({ user_id: ids.agent });
      expect(first.body.data.uuid).toBe(older);
      return older;
    })();
    const res = await t.http.patch(`/api/v1/conversations/${id}`).set(auth('agent')).send({ state: 'waiting', priority: 'top' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ state: 'waiting', user: null });
    expect(
      res.body.data.history
        .map((h: { event: string }) => h.event)
        .slice(-2)
        .sort(),
    ).toEqual(['enter-queue', 'new-priority']);
    // Ahead of the conversation that waited before it.
    const next = await t.http.patch('/api/v1/conversations').set(auth('agent2')).send({ user_id: ids.agent2 });
    expect(next.body.data.uuid).toBe(id);
    // Priority alone on a conversation being answered is still refused, and changes nothing.
    const refused = await t.http.patch(`/api/v1/conversations/${id}`).set(auth('agent2')).send({ priority: 'top' });
    expect(refused.status).toBe(409);
    expect((await t.http.get(`/api/v1/conversations/${id}`).set(auth('agent2'))).body.data.state).toBe('answered');
    await t.http.patch(`/api/v1/conversations/${id}`).set(auth('agent2')).send({ state: 'closed' }).expect(200);
    await t.database.db.conversation.updateMany({
      where: { tenantId: acme.tenantId, state: { in: ['waiting', 'answered'] } },
      data: { state: 'closed', closedAt: new Date() },
    });
  });

  it('a supervisor finishing with current_role supervisor is recorded as such', async () => {
    const id = await acceptedBy('agent', '11966660002');
    const done = await t.http
      .patch(`/api/v1/conversations/${id}`)
      .set(auth('supervisor'))
      .send({ state: 'closed', current_role: 'supervisor' });
    expect(done.body.data.ended_by).toBe('supervisor');
  });

  it('transfers to another agent, who hears about it live; the former holder is told too', async () => {
    const id = await acceptedBy('agent', '11966660003');
    const a1 = await socketFor('agent');
    const a2 = await socketFor('agent2');
    const res = await t.http
      .patch(`/api/v1/conversations/${id}`)
      .set(auth('agent'))
      .send({ sector_uuid: acme.sectors[1]!.id, user_uuid: acme.users.agent2!.uuid });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      state: 'answered',
      user: { uuid: acme.users.agent2!.uuid },
      sector: { uuid: acme.sectors[1]!.id },
    });
    expect(res.body.data.history.some((h: { event: string }) => h.event === 'transfer')).toBe(true);
    await vi.waitFor(() => expect(a2.events).toContainEqual(updateOf(id)), { timeout: 3000 });
    await vi.waitFor(() => expect(a1.events).toContainEqual(updateOf(id)), { timeout: 3000 });
    // Now agent2 holds it; agent can no longer send in it.
    const send = await t.http.post(`/api/v1/conversations/${id}/messages`).set(auth('agent')).send({ content: 'hi' });
    expect(send.status).toBe(403);
  });

  it('transfers to a sector queue, and refuses transfer before the contact interacted', async () => {
    const id = await acceptedBy('agent', '11966660004');
    const res = await t.http
      .patch(`/api/v1/conversations/${id}`)
      .set(auth('agent'))
      .send({ sector_uuid: acme.sectors[1]!.id, user_uuid: null });
    expect(res.body.data).toMatchObject({ state: 'waiting', user: null });
    expect(res.body.data.history.at(-1)).toMatchObject({ event: 'enter-queue', detail: { event: 'transferring-conversation' } });
    const contact = await t.database.db.contact.create({ data: { tenantId: acme.tenantId, name: 'Out', phoneNumber: '+5511966660005' } });
    const started = await t.http
      .post(`/api/v1/contacts/${contact.id}/conversations`)
      .set(auth('agent'))
      .send({ channel_uuid: channel.id, initial_message: 'Olá!' });
    expect(started.status).toBe(201);
    expect(started.body.data).toMatchObject({ state: 'outbound-started', type: 'outbound' });
    const refused = await t.http
      .patch(`/api/v1/conversations/${started.body.data.uuid}`)
      .set(auth('agent'))
      .send({ sector_uuid: acme.sectors[0]!.id });
    expect(refused.status).toBe(409);
    expect(refused.body.error_message).toBe('You can only transfer after the client has interacted');
    expect(
      (await t.http.patch(`/api/v1/conversations/${started.body.data.uuid}`).set(auth('agent')).send({ state: 'waiting' })).status,
    ).toBe(409);
    // The agent's first message was queued for delivery in the same transaction.
    expect(await t.database.db.outboxJob.count({ where: { tenantId: acme.tenantId, queue: 'channel-delivery' } })).toBeGreaterThan(0);
    const noMessage = await t.http
      .post(`/api/v1/contacts/${contact.id}/conversations`)
      .set(auth('agent'))
      .send({ channel_uuid: channel.id });
    expect(noMessage.status).toBe(400);
    // The contact answers: the conversation becomes a normal answered one and can be transferred.
    await t.database.db.contactIdentity.create({
      data: { tenantId: acme.tenantId, channelId: channel.id, identifier: '+5511966660005', contactId: contact.id },
    });
    const reply = await inbound(t, channel.id, token, { phone: '11966660005', id: 'out-reply' });
    expect(reply.body.data.conversation_uuid).toBe(started.body.data.uuid);
    const answered = await t.http.get(`/api/v1/conversations/${started.body.data.uuid}`).set(auth('agent'));
    expect(answered.body.data).toMatchObject({ state: 'answered', contact_interacted: true });
  });

  // An agent starts a conversation by e-mail, with a subject.
  it('starts an e-mail conversation with its subject, to the contact’s address, and refuses one without either', async () => {
    const db = t.database.db;
    const mail = await db.channel.create({
      data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, name: 'E-mail', type: 'email', entrySectorId: acme.sectors[0]!.id },
    });
    const start = (contactId: string, body: Record<string, unknown>) =>
      t.http
        .post(`/api/v1/contacts/${contactId}/conversations`)
        .set(auth('agent'))
        .send({ channel_uuid: mail.id, ...body });
    const noAddress = await db.contact.create({ data: { tenantId: acme.tenantId, name: 'Sem e-mail', phoneNumber: '+5511966660055' } });
    const refused = await start(noAddress.id, { initial_message: 'Olá', subject: 'Proposta' });
    expect(refused.status).toBe(400);
    expect(refused.body.error_message).toBe('This contact has no e-mail address');
    const contact = await db.contact.create({ data: { tenantId: acme.tenantId, name: 'Bia', email: 'Bia@Cliente.test' } });
    const noSubject = await start(contact.id, { initial_message: 'Olá' });
    expect(noSubject.status).toBe(400);
    expect(noSubject.body.fields).toEqual([{ path: 'subject', message: 'Subject is required', code: 'subject_required' }]);
    // Another contact already writing from that address on this channel keeps it.
    const other = await db.contact.create({ data: { tenantId: acme.tenantId, name: 'Outra Bia' } });
    const taken = await db.contactIdentity.create({
      data: { tenantId: acme.tenantId, channelId: mail.id, identifier: 'bia@cliente.test', contactId: other.id },
    });
    expect((await start(contact.id, { initial_message: 'Olá', subject: 'Proposta' })).status).toBe(409);
    await db.contactIdentity.delete({ where: { id: taken.id } });
    expect(await db.conversation.count({ where: { contactId: contact.id } })).toBe(0);

    const started = await start(contact.id, { initial_message: 'Temos uma proposta.', subject: '  Proposta de renovação ' });
    expect(started.status).toBe(201);
    const first = await db.message.findFirstOrThrow({ where: { conversationId: started.body.data.uuid } });
    expect(first).toMatchObject({
      content: 'Temos uma proposta.',
      status: 'sending',
      interactiveContent: { type: 'email', subject: 'Proposta de renovação' },
    });
    expect(await db.contactIdentity.findFirst({ where: { channelId: mail.id, contactId: contact.id } })).toMatchObject({
      identifier: 'bia@cliente.test',
    });
    // It counted towards the agent's open conversations: closed, so the later tests find them free.
    await db.conversation.update({ where: { id: started.body.data.uuid }, data: { state: 'closed', closedAt: new Date() } });
  });

  it('archives and unarchives; a new contact message unarchives per workspace setting', async () => {
    const id = await acceptedBy('agent', '11966660006');
    const arch = await t.http.patch(`/api/v1/conversations/${id}`).set(auth('agent')).send({ archived: true });
    expect(arch.body.data.archived).toBe(true);
    await inbound(t, channel.id, token, { phone: '11966660006', id: 'after-archive' });
    const row = await t.database.db.conversation.findUniqueOrThrow({ where: { id } });
    expect(row.archived).toBe(false);
  });

  it("answers 404 for another tenant's conversation and 400 for bad bodies, changing nothing", async () => {
    const id = await acceptedBy('agent', '11966660007');
    expect((await t.http.patch(`/api/v1/conversations/${id}`).set(auth('outsider')).send({ state: 'closed' })).status).toBe(404);
    expect((await t.http.get(`/api/v1/conversations/${id}`).set(auth('outsider'))).status).toBe(404);
    expect((await t.http.get(`/api/v1/conversations/${id}/messages`).set(auth('outsider'))).status).toBe(404);
    expect((await t.http.patch(`/api/v1/conversations/${id}`).set(auth('agent')).send({ state: 'nope' })).status).toBe(400);
    expect((await t.http.patch(`/api/v1/conversations/${id}`).set(auth('agent')).send({})).status).toBe(400);
    expect((await t.http.patch('/api/v1/conversations/not-a-uuid').set(auth('agent')).send({ state: 'closed' })).status).toBe(400);
    expect(
      (
        await t.http
          .patch(`/api/v1/conversations/${id}`)
          .set(auth('agent'))
          .send({ state: 'closed', conversation_reason_uuid: '0b7c1e6a-554b-4e9a-992b-1c6f4f2a1100' })
      ).status,
    ).toBe(404);
    expect((await t.database.db.conversation.findUniqueOrThrow({ where: { id } })).state).toBe('answered');
  });
});

describe('messages', () => {
  it('sends idempotently by uuid, also in parallel, and only the holder receives new-message', async () => {
    const id = await acceptedBy('agent', '11955550001');
    const a1 = await socketFor('agent');
    const a2 = await socketFor('agent2');
    const uuid = '6a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d';
    const sends = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.http.post(`/api/v1/conversations/${id}/messages`).set(auth('agent')).send({ uuid, content: 'Olá, como posso ajudar?' }),
      ),
    );
    expect(sends.every((r) => r.status === 201)).toBe(true);
    expect(sends[0]!.body.data.data[0]).toMatchObject({
      uuid,
      message: 'Olá, como posso ajudar?',
      author: 'USER',
      state: 'pending',
      status: 'sending',
    });
    expect(await t.database.db.message.count({ where: { id: uuid } })).toBe(1);
    expect(await t.database.db.outboxJob.count({ where: { payload: { path: ['message_uuid'], equals: uuid } } })).toBe(1);
    await vi.waitFor(
      () => expect(a1.events).toContainEqual({ event: 'new-message', payload: expect.objectContaining({ conversation_uuid: id }) }),
      { timeout: 3000 },
    );
    expect(a2.events.some((e) => e.payload.conversation_uuid === id || e.payload.conversation?.uuid === id)).toBe(false);
  });

  // The send answers (and announces) from the values it wrote; they must be what is stored.
  it('answers a send with the message as stored: annex, reply, author and delivery status', async () => {
    const id = await acceptedBy('agent', '11955550009');
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
    const file = (
      await t.http.post('/api/v1/storage/files').set(auth('agent')).attach('file', png, { filename: 'foto.png', contentType: 'image/png' })
    ).body.data.data;
    const contactMessage = (await t.http.get(`/api/v1/conversations/${id}/messages`).set(auth('agent'))).body.data.find(
      (m: { author: string }) => m.author === 'CONTACT',
    );
    const sent = await t.http
      .post(`/api/v1/conversations/${id}/messages`)
      .set(auth('agent'))
      .send({ content: ' Segue a foto ', annex_uuid: file.uuid, reply_to_uuid: contactMessage.uuid });
    expect(sent.status).toBe(201);
    const answered = sent.body.data.data[0];
    expect(answered).toMatchObject({
      message: 'Segue a foto',
      author: 'USER',
      state: 'pending',
      status: 'sending',
      reply_to_uuid: contactMessage.uuid,
      user_id: ids.agent,
      annex: { uuid: file.uuid, content_type: 'image/png', original_filename: 'foto.png', uri: `/api/v1/storage/files/${file.uuid}` },
      user: { uuid: acme.users.agent!.uuid },
    });
    const listed = (await t.http.get(`/api/v1/conversations/${id}/messages`).set(auth('agent'))).body.data.find(
      (m: { uuid: string }) => m.uuid === answered.uuid,
    );
    expect(listed).toEqual(answered);
    const conv = await t.database.db.conversation.findUniqueOrThrow({ where: { id } });
    expect(conv.lastMessageAt?.toISOString()).toBe(answered.when);
    await t.http.patch(`/api/v1/conversations/${id}`).set(auth('agent')).send({ state: 'closed' }).expect(200);
  });

  it('internal notes are tagged and never queued for the contact; replies to notes must be notes', async () => {
    const id = await acceptedBy('agent', '11955550002');
    const note = await t.http
      .post(`/api/v1/conversations/${id}/messages`)
      .set(auth('agent'))
      .send({ content: 'cliente VIP', internal: true });
    expect(note.body.data.data[0]).toMatchObject({ internal: true, tags: ['internal-message'], status: null });
    expect(
      await t.database.db.outboxJob.count({ where: { payload: { path: ['message_uuid'], equals: note.body.data.data[0].uuid } } }),
    ).toBe(0);
    const reply = await t.http
      .post(`/api/v1/conversations/${id}/messages`)
      .set(auth('agent'))
      .send({ content: 'x', reply_to_uuid: note.body.data.data[0].uuid });
    expect(reply.status).toBe(400);
    expect(reply.body.error_message).toBe('Notas só podem ser respondidas com uma nota');
  });

  it('lists with before-paging, marks contact messages read and recomputes unread', async () => {
    const id = await acceptedBy('agent', '11955550003');
    for (let i = 0; i < 3; i++) await inbound(t, channel.id, token, { phone: '11955550003', id: `more-${i}`, content: `msg ${i}` });
    const page = await t.http.get(`/api/v1/conversations/${id}/messages?_limit=2`).set(auth('agent'));
    expect(page.body.data).toHaveLength(2);
    expect(page.body.has_more).toBe(true);
    const earlier = await t.http.get(`/api/v1/conversations/${id}/messages?_limit=10&before=${page.body.data[0].uuid}`).set(auth('agent'));
    expect(earlier.body.data).toHaveLength(2);
    const all = [...earlier.body.data, ...page.body.data]
      .filter((m: { author: string }) => m.author === 'CONTACT')
      .map((m: { uuid: string }) => m.uuid);
    const read = await t.http.put(`/api/v1/conversations/${id}/messages`).set(auth('agent')).send({ status: 'read', messages_uuids: all });
    expect(read.body.data).toEqual({ updated: 4, unread_contact_messages: 0 });
    const one = await t.http.get(`/api/v1/messages/${all[0]}`).set(auth('agent'));
    expect(one.body.data.state).toBe('read');
  });

  it('reaches back to a message with until, in one page (message links)', async () => {
    const id = await acceptedBy('agent', '11955550023');
    for (let i = 0; i < 8; i++) await inbound(t, channel.id, token, { phone: '11955550023', id: `until-${i}`, content: `u ${i}` });
    const all = (await t.http.get(`/api/v1/conversations/${id}/messages?_limit=200`).set(auth('agent'))).body.data as {
      uuid: string;
      message: string;
    }[];
    const target = all.find((m) => m.message === 'u 1')!;
    const latest = (await t.http.get(`/api/v1/conversations/${id}/messages?_limit=2`).set(auth('agent'))).body;
    const reached = await t.http
      .get(`/api/v1/conversations/${id}/messages?_limit=2&before=${latest.data[0].uuid}&until=${target.uuid}`)
      .set(auth('agent'));
    expect(reached.status).toBe(200);
    // Everything from the target up to the page already shown, with no gap, oldest first.
    const index = all.findIndex((m) => m.uuid === target.uuid);
    expect(reached.body.data.map((m: { uuid: string }) => m.uuid)).toEqual(all.slice(index, -2).map((m) => m.uuid));
    expect(reached.body.has_more).toBe(index > 0);
    // Without before: from the target to the newest. A target inside the first page changes nothing.
    const fromNewest = await t.http.get(`/api/v1/conversations/${id}/messages?_limit=2&until=${target.uuid}`).set(auth('agent'));
    expect(fromNewest.body.data).toHaveLength(all.length - index);
    const near = await t.http.get(`/api/v1/conversations/${id}/messages?_limit=5&until=${all.at(-1)!.uuid}`).set(auth('agent'));
    expect(near.body.data).toHaveLength(5);
    // A message of another conversation, an unknown one, or not a uuid.
    const other = await acceptedBy('agent', '11955550024');
    const foreign = await t.http.get(`/api/v1/conversations/${other}/messages?until=${target.uuid}`).set(auth('agent'));
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'message_not_found', error_message: 'Message not found' });
    expect(
      (await t.http.get(`/api/v1/conversations/${id}/messages?until=00000000-0000-4000-8000-000000000000`).set(auth('agent'))).status,
    ).toBe(404);
    const bad = await t.http.get(`/api/v1/conversations/${id}/messages?until=nope`).set(auth('agent'));
    expect(bad.status).toBe(400);
    expect(bad.body.error_message).toBeTruthy();
  });

  it('reading the newest messages reads the earlier unread ones too, never later ones', async () => {
    const id = await acceptedBy('agent', '11955550013');
    for (let i = 0; i < 4; i++) await inbound(t, channel.id, token, { phone: '11955550013', id: `upto-${i}`, content: `m ${i}` });
    const page = await t.http.get(`/api/v1/conversations/${id}/messages?_limit=2`).set(auth('agent'));
    const newest = page.body.data.filter((m: { author: string }) => m.author === 'CONTACT').map((m: { uuid: string }) => m.uuid);
    expect(newest).toHaveLength(2);
    const read = await t.http
      .put(`/api/v1/conversations/${id}/messages`)
      .set(auth('agent'))
      .send({ status: 'read', messages_uuids: newest });
    expect(read.body.data).toEqual({ updated: 5, unread_contact_messages: 0 });
    // A message that came after what was read stays unread when an older one is marked again.
    await inbound(t, channel.id, token, { phone: '11955550013', id: 'upto-late', content: 'late' });
    const again = await t.http
      .put(`/api/v1/conversations/${id}/messages`)
      .set(auth('agent'))
      .send({ status: 'read', messages_uuids: [newest[0]] });
    expect(again.body.data).toEqual({ updated: 0, unread_contact_messages: 1 });
    // Finished, so the agent's capacity is as the later tests expect.
    await t.http.patch(`/api/v1/conversations/${id}`).set(auth('agent')).send({ state: 'closed' }).expect(200);
  });

  it('refuses empty, oversize and misplaced messages', async () => {
    const id = await acceptedBy('agent', '11955550004');
    expect((await t.http.post(`/api/v1/conversations/${id}/messages`).set(auth('agent')).send({ content: '   ' })).status).toBe(400);
    expect(
      (
        await t.http
          .post(`/api/v1/conversations/${id}/messages`)
          .set(auth('agent'))
          .send({ content: 'x'.repeat(5000) })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.http
          .post(`/api/v1/conversations/${id}/messages`)
          .set(auth('agent'))
          .send({ content: 'x', annex_uuid: '0b7c1e6a-554b-4e9a-992b-1c6f4f2a1100' })
      ).status,
    ).toBe(404);
    expect((await t.http.post(`/api/v1/conversations/${id}/messages`).set(auth('agent2')).send({ content: 'x' })).status).toBe(403);
  });
});

describe('customer journey access', () => {
  it("an agent serving a contact reads the contact's finished conversations, and nobody else's", async () => {
    const old = await acceptedBy('agent', '11966660021');
    await t.http.post(`/api/v1/conversations/${old}/messages`).set(auth('agent')).send({ content: 'Resolvido!' }).expect(201);
    await t.http.patch(`/api/v1/conversations/${old}`).set(auth('agent')).send({ state: 'closed' }).expect(200);
    // agent2 does not serve this contact yet: the old conversation does not exist for them.
    expect((await t.http.get(`/api/v1/conversations/${old}`).set(auth('agent2'))).status).toBe(404);
    expect((await t.http.get(`/api/v1/conversations/${old}/messages`).set(auth('agent2'))).status).toBe(404);
    // The contact writes again (a new message id): a new conversation, accepted by agent2.
    await inbound(t, channel.id, token, { phone: '11966660021', id: 'm-journey-2', content: 'Voltei' });
    const taken = await t.http.patch('/api/v1/conversations').set(auth('agent2')).send({ user_id: ids.agent2 });
    expect(taken.status).toBe(200);
    const current = taken.body.data.uuid as string;
    expect(current).not.toBe(old);
    const conv = await t.http.get(`/api/v1/conversations/${old}`).set(auth('agent2'));
    expect(conv.status).toBe(200);
    expect(conv.body.data.state).toBe('closed');
    const msgs = await t.http.get(`/api/v1/conversations/${old}/messages`).set(auth('agent2'));
    expect(msgs.status).toBe(200);
    expect(msgs.body.data.map((m: { message: string }) => m.message)).toContain('Resolvido!');
    // Reading is not acting: no marking, no sending in the colleague's conversation.
    const contactMessage = msgs.body.data.find((m: { author: string }) => m.author === 'CONTACT');
    expect(
      (
        await t.http
          .put(`/api/v1/conversations/${old}/messages`)
          .set(auth('agent2'))
          .send({ status: 'read', messages_uuids: [contactMessage.uuid] })
      ).status,
    ).toBe(403);
    expect(
      (await t.http.post(`/api/v1/conversations/${old}/messages`).set(auth('agent2')).send({ content: 'x' })).status,
    ).toBeGreaterThanOrEqual(400);
    // The active conversation of a colleague stays hidden, and another tenant never sees any of it.
    expect((await t.http.get(`/api/v1/conversations/${current}`).set(auth('agent'))).status).toBe(404);
    expect((await t.http.get(`/api/v1/conversations/${old}`).set(auth('outsider'))).status).toBe(404);
    await t.http.patch(`/api/v1/conversations/${current}`).set(auth('agent2')).send({ state: 'closed' }).expect(200);
  });
});

describe('presence', () => {
  it('pausing with back_to_queue returns active chats; logout returns them too', async () => {
    const id = await acceptedBy('agent2', '11944440001');
    const pause = acme.pauses[0]!;
    const paused = await t.http.patch('/api/v1/users/me').set(auth('agent2')).send({ current_pause_uuid: pause.id, back_to_queue: true });
    expect(paused.status).toBe(200);
    const row = await t.database.db.conversation.findUniqueOrThrow({
      where: { id },
      include: { events: { orderBy: { at: 'desc' }, take: 1 } },
    });
    expect(row).toMatchObject({ state: 'waiting', userId: null });
    // The history names whose chat it was and the pause (old_user, user_info.current_pause).
    expect(row.events[0]).toMatchObject({
      type: 'enter-queue',
      detail: { event: 'pause', old_user: { id: ids.agent2 }, user_info: { current_pause: { description: pause.description } } },
    });
    // Returned chats "are reassigned on return": ending the pause hands it back.
    await t.http.patch('/api/v1/users/me').set(auth('agent2')).send({ current_pause_uuid: null }).expect(200);
    const back = await t.database.db.conversation.findUniqueOrThrow({
      where: { id },
      include: { events: { orderBy: { at: 'desc' }, take: 1 } },
    });
    expect(back).toMatchObject({ state: 'answered', userId: ids.agent2 });
    expect(back.events[0]).toMatchObject({ type: 'associate-user', detail: { done_by: 'pause_return' } });
    await t.http.post('/api/v1/logout').set(auth('agent2')).type('form').send({});
    const after = await t.database.db.conversation.findUniqueOrThrow({
      where: { id },
      include: { events: { orderBy: { at: 'desc' }, take: 1 } },
    });
    expect(after).toMatchObject({ state: 'waiting', userId: null });
    expect(after.events[0]).toMatchObject({ detail: { event: 'logoff' } });
  });

  it('does not hand back a returned chat somebody else took during the pause', async () => {
    tokens.agent2 = await t.login('agent2@acme.test');
    const id = await acceptedBy('agent2', '11944440003');
    await t.http
      .patch('/api/v1/users/me')
      .set(auth('agent2'))
      .send({ current_pause_uuid: acme.pauses[0]!.id, back_to_queue: true })
      .expect(200);
    const taken = await t.http.patch('/api/v1/conversations').set(auth('agent')).send({ user_id: ids.agent });
    expect(taken.status).toBe(200);
    expect(taken.body.data.uuid).toBe(id);
    await t.http.patch('/api/v1/users/me').set(auth('agent2')).send({ current_pause_uuid: null }).expect(200);
    expect(await t.database.db.conversation.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'answered', userId: ids.agent });
    await t.http.patch(`/api/v1/conversations/${id}`).set(auth('agent')).send({ state: 'closed' }).expect(200);
    // As the previous test left it: agent2 signed out.
    await t.http.post('/api/v1/logout').set(auth('agent2')).type('form').send({});
  });

  it('round_robin hands new conversations to online agents automatically', async () => {
    await t.database.db.workspace.update({ where: { id: acme.workspaceId }, data: { conversationDeliveryMode: 'round_robin' } });
    const res = await inbound(t, channel.id, token, { phone: '11944440002', id: 'rr-1' });
    const conv = await t.database.db.conversation.findUniqueOrThrow({ where: { id: res.body.data.conversation_uuid } });
    expect(conv.state).toBe('answered');
    expect([ids.agent]).toContain(conv.userId);
    await t.database.db.workspace.update({ where: { id: acme.workspaceId }, data: { conversationDeliveryMode: 'on_demand' } });
  });
});
