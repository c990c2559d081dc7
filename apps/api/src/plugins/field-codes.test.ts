import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ON, startTestApp, TEST_PASSWORD, type TestApp } from '../testing';

// A field the request schema refuses with the contract's own message answers that message's code
// (packages/contract/src/field-messages.ts) and the values its text carries, so a client words it
// itself; a refusal in zod's own words keeps the code derived from zod's check. `message` stays English.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let auth: { Authorization: string };

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme', { features: ALL_ON });
  auth = { Authorization: `Bearer ${await t.login('admin@acme.test')}` };
});
afterAll(() => t.close());

describe('fields a request schema refuses', () => {
  it('carry the catalogue code of an enum, a refinement across fields and a text with a value', async () => {
    const state = await t.http.get('/api/v1/campaign').query({ state: 'bogus' }).set(auth);
    expect(state.status).toBe(400);
    expect(state.body).toMatchObject({ code: 'validation_failed', error_message: 'Invalid query: state: Invalid state' });
    expect(state.body.fields).toEqual([{ path: 'state', message: 'Invalid state', code: 'state_invalid' }]);

    const admin = acme.users.admin;
    expect(admin).toBeDefined();
    const both = await t.http
      .patch(`/api/v1/users/${admin?.id}`)
      .set(auth)
      .send({ password: 'nova senha 9', old_password: TEST_PASSWORD, state: 'offline' });
    expect(both.status).toBe(400);
    expect(both.body.fields).toEqual([{ path: 'state', message: 'Change the password or the state, not both', code: 'password_or_state' }]);

    const long = await t.http
      .post('/api/v1/pauses')
      .set(auth)
      .send({ description: 'x'.repeat(121) });
    expect(long.status).toBe(400);
    expect(long.body.fields).toEqual([
      { path: 'description', message: '120 characters maximum', code: 'field_too_long', params: { max: 120 } },
    ]);
    expect(await t.database.db.pause.count({ where: { description: 'x'.repeat(121) } })).toBe(0);
  });

  it('carry the catalogue code when the route checks the schema itself (a voice note as JSON)', async () => {
    const res = await t.http.post('/api/v1/storage/files').set(auth).send({ file: '', encoding: 'base64', content_type: 'audio/ogg' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', error_message: 'file: Required' });
    expect(res.body.fields).toEqual([{ path: 'file', message: 'Required', code: 'required' }]);
  });

  it("keep the code derived from zod's check when the message is zod's own", async () => {
    const res = await t.http
      .get('/api/v1/campaign')
      .query({ name: 'n'.repeat(81) })
      .set(auth);
    expect(res.status).toBe(400);
    expect(res.body.fields).toHaveLength(1);
    expect(res.body.fields[0]).toMatchObject({ path: 'name', code: 'field_too_long', params: { max: 80 } });
    expect(res.body.fields[0].message).not.toBe('80 characters maximum');
  });
});
