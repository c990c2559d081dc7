import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let conversationId: string;
let channelId: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme', { users: { agent: ['agent'], agent2: ['agent'], admin: ['admin'] } });
  await t.tenant('Other', { users: { admin: ['admin'] } });
  for (const name of ['agent', 'agent2', 'admin']) tokens[name] = await t.login(`${name}@acme.test`);
  tokens.outsider = await t.login('admin@other.test');
  const db = t.database.db;
  const contact = await db.contact.create({ data: { tenantId: acme.tenantId, name: 'C', phoneNumber: '+5511900000001' } });
  const channel = await db.channel.create({
    data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, name: 'API', type: 'custom' },
  });
  channelId = channel.id;
  const conv = await db.conversation.create({
    data: {
      tenantId: acme.tenantId,
      workspaceId: acme.workspaceId,
      contactId: contact.id,
      channelId: channel.id,
      userId: acme.users.agent!.id,
      state: 'answered',
      ticketNumber: 1,
    },
  });
  conversationId = conv.id;
});
afterAll(() => t.close());
const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });

describe('conversation fields', () => {
  it('lets an admin define fields and the assigned agent add and edit values', async () => {
    const def = await t.http.post('/api/v1/conversations/fields').set(auth('admin')).send({ name: 'Order number' });
    expect(def.status).toBe(201);
    expect((await t.http.post('/api/v1/conversations/fields').set(auth('admin')).send({ name: 'order NUMBER' })).status).toBe(409);
    expect((await t.http.post('/api/v1/conversations/fields').set(auth('agent')).send({ name: 'Nope' })).status).toBe(403);
    const list = await t.http.get('/api/v1/conversations/fields').set(auth('agent'));
    expect(list.body.data).toEqual([{ uuid: def.body.data.uuid, name: 'Order number' }]);
    const set = await t.http
      .post(`/api/v1/conversations/${conversationId}/fields`)
      .set(auth('agent'))
      .send({ field_uuid: def.body.data.uuid, field_value: 'A-123' });
    expect(set.body.data).toEqual([{ field_uuid: def.body.data.uuid, name: 'Order number', field_value: 'A-123' }]);
    const edit = await t.http
      .post(`/api/v1/conversations/${conversationId}/fields`)
      .set(auth('agent'))
      .send({ field_uuid: def.body.data.uuid, field_value: 'A-124' });
    expect(edit.body.data[0].field_value).toBe('A-124');
    expect((await t.http.get(`/api/v1/conversations/${conversationId}/fields`).set(auth('agent'))).body.data).toHaveLength(1);
  });

  it("refuses an empty value, another agent's conversation, another tenant's ids and unknown fields", async () => {
    const [def] = (await t.http.get('/api/v1/conversations/fields').set(auth('agent'))).body.data;
    const empty = await t.http
      .post(`/api/v1/conversations/${conversationId}/fields`)
      .set(auth('agent'))
      .send({ field_uuid: def.uuid, field_value: ' ' });
    expect(empty.status).toBe(400);
    expect(empty.body.error_message).toContain('Valor é obrigatório');
    expect(
      (
        await t.http
          .post(`/api/v1/conversations/${conversationId}/fields`)
          .set(auth('agent2'))
          .send({ field_uuid: def.uuid, field_value: 'x' })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.http
          .post(`/api/v1/conversations/${conversationId}/fields`)
          .set(auth('outsider'))
          .send({ field_uuid: def.uuid, field_value: 'x' })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.http
          .post(`/api/v1/conversations/${conversationId}/fields`)
          .set(auth('agent'))
          .send({ field_uuid: acme.sectors[0]!.id, field_value: 'x' })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.http
          .post(`/api/v1/conversations/${conversationId}/fields`)
          .set(auth('agent'))
          .send({ field_uuid: def.uuid, field_value: 'x'.repeat(2001) })
      ).status,
    ).toBe(400);
    expect((await t.http.get(`/api/v1/conversations/${conversationId}/fields`).set(auth('agent'))).body.data[0].field_value).toBe('A-124');
  });
});

describe('canned responses for a channel', () => {
  it("returns the workspace's responses for the sector, with category, ordered by keyword", async () => {
    const db = t.database.db;
    const category = await db.cannedResponseCategory.create({
      data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, name: 'Greetings' },
    });
    await db.cannedResponse.createMany({
      data: [
        {
          tenantId: acme.tenantId,
          workspaceId: acme.workspaceId,
          keyword: 'ola',
          message: 'Olá, sou {{user_name}}',
          categoryId: category.id,
          sectorIds: [],
        },
        {
          tenantId: acme.tenantId,
          workspaceId: acme.workspaceId,
          keyword: 'boleto',
          message: 'Segue o boleto',
          sectorIds: [acme.sectors[1]!.id],
        },
        { tenantId: acme.tenantId, workspaceId: acme.workspaceId, keyword: 'apagada', message: 'x', sectorIds: [], deletedAt: new Date() },
      ],
    });
    const support = await t.http
      .get(`/api/v1/channels/${channelId}/canned_responses?sector_uuid=${acme.sectors[0]!.id}`)
      .set(auth('agent'));
    expect(support.body.data.map((c: { keyword: string }) => c.keyword)).toEqual(['ola']);
    expect(support.body.data[0].category).toMatchObject({ name: 'Greetings' });
    const all = await t.http.get(`/api/v1/channels/${channelId}/canned_responses`).set(auth('agent'));
    expect(all.body.data.map((c: { keyword: string }) => c.keyword)).toEqual(['boleto', 'ola']);
    expect((await t.http.get(`/api/v1/channels/${channelId}/canned_responses`).set(auth('outsider'))).status).toBe(404);
    expect((await t.http.get(`/api/v1/channels/${channelId}/canned_responses?sector_uuid=bad`).set(auth('agent'))).status).toBe(400);
  });
});
