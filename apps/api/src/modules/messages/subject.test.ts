import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

// An agent's own subject on a reply: an e-mail to the contact starts a new thread under it; nothing
// else takes a subject.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let agent: string;

beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_IP: '1000' });
  acme = await t.tenant('Subjects', { users: { agent: ['agent'] }, features: { internal_note: true } });
  agent = await t.login('agent@subjects.test');
});
afterAll(() => t.close());

/** An answered conversation of the agent on a new channel of `type`. */
async function answered(type: string, config: object) {
  const db = t.database.db;
  const channel = await db.channel.create({ data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, name: type, type, config } });
  const contact = await db.contact.create({ data: { tenantId: acme.tenantId, name: 'Ana', email: 'ana@cliente.test' } });
  const conversation = await db.conversation.create({
    data: {
      tenantId: acme.tenantId,
      workspaceId: acme.workspaceId,
      channelId: channel.id,
      contactId: contact.id,
      ticketNumber: Math.floor(Math.random() * 1_000_000),
      state: 'answered',
      contactInteracted: true,
      userId: acme.users.agent!.id,
    },
  });
  return conversation.id;
}
const send = (conversationId: string, body: object) =>
  t.http.post(`/api/v1/conversations/${conversationId}/messages`).set('Authorization', `Bearer ${agent}`).send(body);

describe('a subject of the agent’s own', () => {
  it('is kept on an e-mail reply, which the worker then sends as a new thread', async () => {
    const id = await answered('email', { smtp_host: 'mail.loja.test', from_address: 'suporte@loja.test' });
    const res = await send(id, { content: 'Sobre outro assunto', subject: 'Nota fiscal 4521' });
    expect(res.status).toBe(201);
    const stored = await t.database.db.message.findUniqueOrThrow({ where: { id: res.body.data.data[0].uuid } });
    expect(stored.interactiveContent).toEqual({ type: 'email', subject: 'Nota fiscal 4521' });
    // Without one, nothing is stored: the reply goes under the thread's subject.
    const plain = await send(id, { content: 'Na mesma conversa' });
    expect((await t.database.db.message.findUniqueOrThrow({ where: { id: plain.body.data.data[0].uuid } })).interactiveContent).toBeNull();
  });

  it('is refused on a note and on a channel that is no e-mail, and nothing is stored', async () => {
    const email = await answered('email', { smtp_host: 'mail.loja.test', from_address: 'suporte@loja.test' });
    const note = await send(email, { content: 'Nota', internal: true, subject: 'X' });
    expect(note.status).toBe(400);
    expect(note.body.code).toBe('subject_not_allowed');
    const api = await answered('custom', { webhook_url: 'http://127.0.0.1:9/hook' });
    const refused = await send(api, { content: 'Oi', subject: 'X' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('subject_not_allowed');
    expect(await t.database.db.message.count({ where: { conversationId: { in: [email, api] } } })).toBe(0);
    // An empty subject is a bad field, not a thread without a subject.
    const empty = await send(email, { content: 'Oi', subject: '  ' });
    expect(empty.status).toBe(400);
  });
});
