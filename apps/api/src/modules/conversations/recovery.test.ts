import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connected, nextEvent, startTestApp, type TestApp, type TestSocket } from '../../testing';
import { customChannel, inbound } from './fixtures';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let channel: { id: string };
let channelToken: string;
const open: TestSocket[] = [];

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme', { users: { agent: ['agent'] } });
  ({ channel, token: channelToken } = await customChannel(t.database.db, acme.tenantId, acme.workspaceId, acme.sectors[0]!.id));
});
afterAll(async () => {
  for (const s of open) s.disconnect();
  await t.close();
});

describe('conversation events across a brief disconnection', () => {
  // The connection cycles disconnected, connecting, connected; a contact's message that
  // arrives meanwhile reaches the agent when the socket comes back, without a reload. The conversation
  // is archived, so the message also unarchives it: a plain message sends only
  // new-message, this one sends update-conversation too.
  it("hands the agent's recovered socket the new-message and update-conversation it missed", async () => {
    const token = await t.login('agent@acme.test');
    const socket = t.socket(token);
    open.push(socket);
    await connected(socket);

    expect((await inbound(t, channel.id, channelToken, { phone: '11977770001', id: 'recovery-1', content: 'Oi' })).status).toBe(202);
    // Accepting sends the agent update-conversation: recovery resumes from the offset of the last event received.
    const taken = nextEvent(socket, 'update-conversation', (p) => p.conversation.state === 'answered');
    const accepted = await t.http
      .patch('/api/v1/conversations')
      .set('Authorization', `Bearer ${token}`)
      .send({ user_id: acme.users.agent!.id });
    expect(accepted.status).toBe(200);
    const id = accepted.body.data.uuid as string;
    expect((await taken).conversation.uuid).toBe(id);
    const archived = nextEvent(socket, 'update-conversation', (p) => p.conversation.uuid === id && p.conversation.archived);
    expect((await t.http.put(`/api/v1/conversations/${id}`).set('Authorization', `Bearer ${token}`).send({ archived: true })).status).toBe(
      200,
    );
    await archived;
    expect(socket.recovered).toBe(false);

    // The transport drops; wait until the server has seen it (it then keeps the socket's session for recovery).
    const onServer = t.io.of('/').sockets.get(socket.id!);
    const gone = new Promise<string>((resolve) => onServer!.once('disconnect', resolve));
    socket.io.engine.close();
    expect(await gone).toBe('transport close');
    expect(socket.connected).toBe(false);

    const missedMessage = nextEvent(
      socket,
      'new-message',
      (p) => p.conversation_uuid === id && p.message.message === 'Ainda está aí?',
      10_000,
    );
    const missedUpdate = nextEvent(socket, 'update-conversation', (p) => p.conversation.uuid === id && !p.conversation.archived, 10_000);
    // The contact writes while the agent's socket is away.
    const res = await inbound(t, channel.id, channelToken, { phone: '11977770001', id: 'recovery-2', content: 'Ainda está aí?' });
    expect(res.status).toBe(202);
    expect(res.body.data.conversation_uuid).toBe(id);
    await t.redis.ping();

    await connected(socket);
    expect(socket.recovered).toBe(true);
    const [message, update] = await Promise.all([missedMessage, missedUpdate]);
    expect(message).toMatchObject({ tenant_uuid: acme.tenantId, message: { author: 'CONTACT', conversation_uuid: id } });
    expect(update.conversation).toMatchObject({
      state: 'answered',
      archived: false,
      user: { uuid: acme.users.agent!.uuid },
      unread_contact_messages: 2,
    });
    expect(update.conversation.last_message).toMatchObject({ content: 'Ainda está aí?', author: 'CONTACT' });
    expect(update.conversation.history.at(-1)).toMatchObject({ event: 'unarchived' });
  });
});
