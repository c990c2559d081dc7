import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme', { users: { agent: ['agent'], supervisor: ['supervisor'] } });
  await t.tenant('Other', { users: { agent: ['agent'] } });
  tokens.agent = await t.login('agent@acme.test');
  tokens.supervisor = await t.login('supervisor@acme.test');
  tokens.outsider = await t.login('agent@other.test');
});
afterAll(() => t.close());
const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });
const create = (body: Record<string, unknown>, who = 'agent') => t.http.post('/api/v1/contacts').set(auth(who)).send(body);

describe('contacts', () => {
  it('creates a contact with the phone normalised for the tenant country and the email lowercased', async () => {
    const res = await create({
      name: 'Maria',
      phone1: '(11) 91234-0001',
      organization: 'Padaria',
      email: 'Maria@Exemplo.COM',
      fields: { plano: 'ouro' },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'Maria',
      phone1: '+5511912340001',
      phone_number: '+5511912340001',
      organization: { name: 'Padaria' },
      email: 'maria@exemplo.com',
      fields: { plano: 'ouro' },
      dnd_list: [],
      last_conversations_count: 0,
    });
  });

  it("refuses missing required fields, invalid phones and e-mails, oversize custom fields, with the spec's messages", async () => {
    const missing = await create({ phone1: '11912340002' });
    expect(missing.status).toBe(400);
    expect(missing.body.fields.map((f: { path: string }) => f.path).sort()).toEqual(['name', 'organization']);
    const phone = await create({ name: 'X', phone1: '123', organization: 'O' });
    expect(phone.status).toBe(400);
    expect(phone.body.fields).toEqual([{ path: 'phone1', message: 'Número de telefone inválido', code: 'phone_invalid' }]);
    const email = await create({ name: 'X', phone1: '11912340003', organization: 'O', email: 'not-an-email' });
    expect(email.status).toBe(400);
    expect(email.body.error_message).toContain('Please insert a valid e-mail');
    const big = await create({ name: 'X', phone1: '11912340004', organization: 'O', fields: { note: 'x'.repeat(2001) } });
    expect(big.status).toBe(400);
    expect(big.body.error_message).toContain('Máximo de 2000 caracteres');
    expect((await create({ name: 'X', phone1: '11912340005', organization: 'O', customer_id: 'abc' })).status).toBe(400);
    expect((await create({ name: 'X', phone1: '11912340006', organization: 'O', unknown: 1 })).status).toBe(400);
    expect(await t.database.db.contact.count({ where: { name: 'X' } })).toBe(0);
  });

  it('refuses a phone another contact already has (409)', async () => {
    const dup = await create({ name: 'Copy', phone1: '+55 11 91234-0001', organization: 'O' });
    expect(dup.status).toBe(409);
  });

  it('edits a contact, keeping phone1 read-only', async () => {
    const { body } = await create({ name: 'João', phone1: '11912340010', organization: 'Souza' });
    const id = body.data.uuid as string;
    const edit = await t.http
      .patch(`/api/v1/contacts/${id}`)
      .set(auth('agent'))
      .send({ name: 'João Souza', phone1: '+5511912340010', city: 'São Paulo', phone2: '11 3333-4444' });
    expect(edit.status).toBe(200);
    expect(edit.body.data).toMatchObject({ name: 'João Souza', city: 'São Paulo', phone2: '+551133334444' });
    const locked = await t.http.patch(`/api/v1/contacts/${id}`).set(auth('agent')).send({ phone1: '11912340099' });
    expect(locked.status).toBe(400);
    expect(locked.body.fields).toEqual([{ path: 'phone1', message: 'Telefone 1 não pode ser editado', code: 'phone_1_locked' }]);
    expect((await t.http.patch(`/api/v1/contacts/${id}`).set(auth('agent')).send({ name: '' })).status).toBe(400);
  });

  it('lists with paging and the 3-character filters', async () => {
    const page = await t.http.get('/api/v1/contacts?_limit=1&_offset=0').set(auth('agent'));
    expect(page.body.pagination).toEqual({ total: 2, limit: 1, offset: 0 });
    const byName = await t.http.get('/api/v1/contacts?name=mar').set(auth('agent'));
    expect(byName.body.data.map((c: { name: string }) => c.name)).toEqual(['Maria']);
    const byPhone = await t.http.get('/api/v1/contacts?phone_number=340010').set(auth('agent'));
    expect(byPhone.body.data.map((c: { name: string }) => c.name)).toEqual(['João Souza']);
    const exact = await t.http.get('/api/v1/contacts?number__equals=(11)%2091234-0001').set(auth('agent'));
    expect(exact.body.pagination.total).toBe(1);
    const short = await t.http.get('/api/v1/contacts?name=ma').set(auth('agent'));
    expect(short.status).toBe(400);
    expect(short.body.error_message).toContain('Should have at least 3 characters');
  });

  it("hides another tenant's contacts (404) and changes nothing", async () => {
    const contact = await t.database.db.contact.findFirstOrThrow({ where: { tenantId: acme.tenantId, name: 'Maria' } });
    expect((await t.http.get(`/api/v1/contacts/${contact.id}`).set(auth('outsider'))).status).toBe(404);
    expect((await t.http.patch(`/api/v1/contacts/${contact.id}`).set(auth('outsider')).send({ name: 'Hacked' })).status).toBe(404);
    expect((await t.http.get(`/api/v1/contacts/${contact.id}/journey`).set(auth('outsider'))).status).toBe(404);
    expect((await t.http.get('/api/v1/contacts').set(auth('outsider'))).body.pagination.total).toBe(0);
    expect((await t.database.db.contact.findUniqueOrThrow({ where: { id: contact.id } })).name).toBe('Maria');
    expect((await t.http.get('/api/v1/contacts/not-a-uuid').set(auth('agent'))).status).toBe(400);
  });

  it('shows the journey of earlier conversations and deletes only contacts without open conversations', async () => {
    const contact = await t.database.db.contact.findFirstOrThrow({ where: { tenantId: acme.tenantId, name: 'Maria' } });
    const channel = await t.database.db.channel.create({
      data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, name: 'API', type: 'custom' },
    });
    const reason = await t.database.db.conversationReason.create({ data: { tenantId: acme.tenantId, name: 'Solved' } });
    const closed = await t.database.db.conversation.create({
      data: {
        tenantId: acme.tenantId,
        workspaceId: acme.workspaceId,
        contactId: contact.id,
        channelId: channel.id,
        sectorId: acme.sectors[0]!.id,
        state: 'closed',
        ticketNumber: 1,
        closedAt: new Date(),
        endReasonId: reason.id,
        endedBy: 'agent',
      },
    });
    const open = await t.database.db.conversation.create({
      data: {
        tenantId: acme.tenantId,
        workspaceId: acme.workspaceId,
        contactId: contact.id,
        channelId: channel.id,
        state: 'waiting',
        ticketNumber: 2,
      },
    });
    const journey = await t.http.get(`/api/v1/contacts/${contact.id}/journey?_limit=5`).set(auth('agent'));
    expect(journey.body.pagination.total).toBe(2);
    const entry = await t.http.get(`/api/v1/contacts/${contact.id}/event/${closed.id}`).set(auth('agent'));
    expect(entry.body.data).toMatchObject({
      event_type: 'chat',
      data: {
        conversation_uuid: closed.id,
        channel_type: 'custom',
        channel_name: expect.any(String),
        queue_name: 'Support',
        outcome: 'Solved',
      },
    });
    expect((await t.http.get(`/api/v1/contacts/${contact.id}/event/${acme.sectors[0]!.id}`).set(auth('agent'))).status).toBe(404);
    expect((await t.http.delete(`/api/v1/contacts/${contact.id}`).set(auth('agent'))).status).toBe(403);
    expect((await t.http.delete(`/api/v1/contacts/${contact.id}`).set(auth('supervisor'))).status).toBe(409);
    await t.database.db.conversation.update({ where: { id: open.id }, data: { state: 'closed', closedAt: new Date() } });
    expect((await t.http.delete(`/api/v1/contacts/${contact.id}`).set(auth('supervisor'))).status).toBe(200);
    expect((await t.http.get(`/api/v1/contacts/${contact.id}`).set(auth('agent'))).status).toBe(404);
    expect(await t.database.db.conversation.count({ where: { contactId: contact.id } })).toBe(2);
  });
});
