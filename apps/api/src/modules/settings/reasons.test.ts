import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

let t: TestApp;
let other: Awaited<ReturnType<TestApp['tenant']>>;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp();
  await t.tenant('Acme', { users: { agent: ['agent'], supervisor: ['supervisor'], manager: ['manager'], admin: ['admin'] } });
  other = await t.tenant('Other', { users: { admin: ['admin'] } });
  for (const name of ['agent', 'supervisor', 'manager', 'admin']) tokens[name] = await t.login(`${name}@acme.test`);
  tokens.outsider = await t.login('admin@other.test');
});
afterAll(() => t.close());
const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });
const listed = async () =>
  (await t.http.get('/api/v1/conversation/reasons').set(auth('agent'))).body.data.map((r: { name: string }) => r.name);

describe('conversation reasons (admin only)', () => {
  let id: string;

  it('an admin creates, renames and deletes a reason; agents list the live ones', async () => {
    const res = await t.http.post('/api/v1/conversation/reasons').set(auth('admin')).send({ name: 'Resolved' });
    expect(res.status).toBe(201);
    id = res.body.data.uuid;
    expect(res.body.data).toEqual({ uuid: id, name: 'Resolved' });
    await t.http.post('/api/v1/conversation/reasons').set(auth('admin')).send({ name: 'Spam' });
    expect(await listed()).toEqual(['Resolved', 'Spam']);
    expect((await t.http.patch(`/api/v1/conversation/reasons/${id}`).set(auth('admin')).send({ name: 'Solved' })).body.data).toEqual({
      uuid: id,
      name: 'Solved',
    });
    expect((await t.http.delete(`/api/v1/conversation/reasons/${id}`).set(auth('admin'))).status).toBe(200);
    expect(await listed()).toEqual(['Spam']);
    expect(await t.database.db.conversationReason.findUniqueOrThrow({ where: { id } })).toMatchObject({ name: 'Solved' });
    expect((await t.http.patch(`/api/v1/conversation/reasons/${id}`).set(auth('admin')).send({ name: 'Back' })).status).toBe(404);
  });

  it('refuses an empty, too long or repeated name with its message', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{}, 400, 'This field is required'],
      [{ name: ' ' }, 400, 'This field is required'],
      [{ name: 'x'.repeat(121) }, 400, '120 characters maximum'],
      [{ name: 'spam' }, 409, 'A conversation reason with this name already exists'],
    ];
    for (const [body, status, message] of cases) {
      const res = await t.http.post('/api/v1/conversation/reasons').set(auth('admin')).send(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.fields, JSON.stringify(body)).toContainEqual(expect.objectContaining({ path: 'name', message }));
    }
  });

  it('refuses writes to everyone below admin', async () => {
    const spam = (await t.http.get('/api/v1/conversation/reasons').set(auth('admin'))).body.data[0].uuid;
    for (const who of ['agent', 'supervisor', 'manager']) {
      expect((await t.http.post('/api/v1/conversation/reasons').set(auth(who)).send({ name: 'X' })).status, who).toBe(403);
      expect((await t.http.patch(`/api/v1/conversation/reasons/${spam}`).set(auth(who)).send({ name: 'X' })).status, who).toBe(403);
      expect((await t.http.delete(`/api/v1/conversation/reasons/${spam}`).set(auth(who))).status, who).toBe(403);
    }
  });

  it("answers 404 for another tenant's reason", async () => {
    const theirs = await t.database.db.conversationReason.create({ data: { tenantId: other.tenantId, name: 'Theirs' } });
    expect((await t.http.patch(`/api/v1/conversation/reasons/${theirs.id}`).set(auth('admin')).send({ name: 'Mine' })).status).toBe(404);
    expect((await t.http.delete(`/api/v1/conversation/reasons/${theirs.id}`).set(auth('admin'))).status).toBe(404);
    expect(await t.database.db.conversationReason.findUniqueOrThrow({ where: { id: theirs.id } })).toMatchObject({
      name: 'Theirs',
      deletedAt: null,
    });
    // The same name is free in another tenant.
    expect((await t.http.post('/api/v1/conversation/reasons').set(auth('outsider')).send({ name: 'Spam' })).status).toBe(201);
  });
});
