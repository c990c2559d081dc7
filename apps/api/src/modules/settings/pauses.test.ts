import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

let t: TestApp;
let other: Awaited<ReturnType<TestApp['tenant']>>;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp();
  await t.tenant('Acme', { users: { agent: ['agent'], supervisor: ['supervisor'], admin: ['admin'] } });
  other = await t.tenant('Other', { users: { admin: ['admin'] } });
  for (const name of ['agent', 'supervisor', 'admin']) tokens[name] = await t.login(`${name}@acme.test`);
  tokens.outsider = await t.login('admin@other.test');
});
afterAll(() => t.close());
const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });
const listed = async (who = 'agent') =>
  (await t.http.get('/api/v1/pauses').set(auth(who))).body.data.map((p: { description: string }) => p.description);

describe('pauses', () => {
  let id: string;

  it('a supervisor creates and renames a pause; agents list it', async () => {
    const res = await t.http.post('/api/v1/pauses').set(auth('supervisor')).send({ description: ' Training ' });
    expect(res.status).toBe(201);
    id = res.body.data.uuid;
    expect(res.body.data).toEqual({ uuid: id, description: 'Training' });
    expect(await listed()).toEqual(['Coffee', 'Lunch', 'Training']);
    const renamed = await t.http.patch(`/api/v1/pauses/${id}`).set(auth('admin')).send({ description: 'Team training' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toEqual({ uuid: id, description: 'Team training' });
  });

  it('refuses an empty, too long or repeated description with its message', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{}, 400, 'This field is required'],
      [{ description: '  ' }, 400, 'This field is required'],
      [{ description: 'x'.repeat(121) }, 400, '120 characters maximum'],
      [{ description: 'LUNCH' }, 409, 'A pause with this description already exists'],
    ];
    for (const [body, status, message] of cases) {
      const res = await t.http.post('/api/v1/pauses').set(auth('admin')).send(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.fields, JSON.stringify(body)).toContainEqual(expect.objectContaining({ path: 'description', message }));
    }
    expect((await t.http.patch(`/api/v1/pauses/${id}`).set(auth('admin')).send({ description: 'coffee' })).status).toBe(409);
    expect(await listed()).toEqual(['Coffee', 'Lunch', 'Team training']);
  });

  it('refuses writes to agents', async () => {
    expect((await t.http.post('/api/v1/pauses').set(auth('agent')).send({ description: 'Nap' })).status).toBe(403);
    expect((await t.http.patch(`/api/v1/pauses/${id}`).set(auth('agent')).send({ description: 'Nap' })).status).toBe(403);
    expect((await t.http.delete(`/api/v1/pauses/${id}`).set(auth('agent'))).status).toBe(403);
  });

  it("answers 404 for another tenant's pause", async () => {
    const theirs = other.pauses[0]!.id;
    expect((await t.http.patch(`/api/v1/pauses/${theirs}`).set(auth('admin')).send({ description: 'Mine' })).status).toBe(404);
    expect((await t.http.delete(`/api/v1/pauses/${theirs}`).set(auth('admin'))).status).toBe(404);
    expect((await t.http.delete(`/api/v1/pauses/${id}`).set(auth('outsider'))).status).toBe(404);
    expect(await t.database.db.pause.findUniqueOrThrow({ where: { id: theirs } })).toMatchObject({ deletedAt: null });
  });

  it('an agent on a deleted pause stays on it, reads themselves without error and goes back online', async () => {
    const pause = (await t.http.patch('/api/v1/users/me').set(auth('agent')).send({ current_pause_uuid: id })).body.data;
    expect(pause).toMatchObject({ state: 'paused', current_pause: { uuid: id } });
    expect((await t.http.delete(`/api/v1/pauses/${id}`).set(auth('supervisor'))).status).toBe(200);
    expect(await listed()).toEqual(['Coffee', 'Lunch']);
    const me = await t.http.get('/api/v1/users/me').set(auth('agent'));
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ state: 'paused', current_pause: { uuid: id, description: 'Team training' } });
    // Nobody can choose it again, nor edit it.
    expect((await t.http.patch('/api/v1/users/me').set(auth('supervisor')).send({ current_pause_uuid: id })).status).toBe(404);
    expect((await t.http.patch(`/api/v1/pauses/${id}`).set(auth('admin')).send({ description: 'Again' })).status).toBe(404);
    const online = await t.http.patch('/api/v1/users/me').set(auth('agent')).send({ current_pause_uuid: null });
    expect(online.status).toBe(200);
    expect(online.body.data).toMatchObject({ state: 'online', current_pause: null });
  });
});
