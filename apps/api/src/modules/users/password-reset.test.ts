import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../../testing';

// An admin sets a new password for a user, which ends the user's sessions and tokens.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let other: Awaited<ReturnType<TestApp['tenant']>>;
const token: Record<string, string> = {};
const as = (who: string) => ({ Authorization: `Bearer ${token[who]}` });

beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_IP: '1000' });
  acme = await t.tenant('Acme', {
    users: { admin: ['admin'], owner: ['owner'], supervisor: ['supervisor'], agent: ['agent'], agent2: ['agent'] },
  });
  other = await t.tenant('Other', { users: { agent: ['agent'] } });
  for (const who of ['admin', 'owner', 'supervisor', 'agent', 'agent2']) token[who] = await t.login(`${who}@acme.test`);
});
afterAll(() => t.close());

describe('POST /api/v1/users/:id/password', () => {
  it("sets the user's password: their sessions and API tokens end, the new password signs in, the old one no longer", async () => {
    const agent = acme.users.agent!;
    const ownToken = await t.http.post('/api/v1/oauth/tokens').set(as('admin')).send({ client_name: 'Kept' });
    // The agent's own session works before.
    expect((await t.http.get('/api/v1/users/me').set(as('agent'))).status).toBe(200);
    const res = await t.http.post(`/api/v1/users/${agent.id}/password`).set(as('admin')).send({ password: 'nova senha 9' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ uuid: agent.uuid, is_logged: false });
    expect((await t.http.get('/api/v1/users/me').set(as('agent'))).status).toBe(401);
    expect((await t.http.post('/api/v1/login').type('form').send({ email: 'agent@acme.test', password: TEST_PASSWORD })).status).toBe(401);
    expect((await t.http.post('/api/v1/login').type('form').send({ email: 'agent@acme.test', password: 'nova senha 9' })).status).toBe(200);
    // The admin's own session and tokens are untouched.
    expect((await t.http.get('/api/v1/users/me').set({ Authorization: `Bearer ${ownToken.body.access_token}` })).status).toBe(200);
    expect((await t.database.db.loginHistory.findMany({ where: { userId: agent.id, event: 'forced_logout' } })).length).toBe(1);
  });

  it('refuses bad passwords, non-admins, the caller itself, an owner by an admin, and other tenants; nothing changes', async () => {
    const target = acme.users.agent2!;
    const before = (await t.database.db.user.findUniqueOrThrow({ where: { id: target.id } })).passwordHash;
    const weak = await t.http.post(`/api/v1/users/${target.id}/password`).set(as('admin')).send({ password: 'short1' });
    expect(weak.status).toBe(400);
    expect(weak.body.fields).toEqual([
      { path: 'password', message: 'Password must have at least 8 characters', code: 'password_too_short' },
    ]);
    expect((await t.http.post(`/api/v1/users/${target.id}/password`).set(as('admin')).send({})).body.fields).toEqual([
      { path: 'password', message: 'Password is required', code: 'password_required' },
    ]);
    for (const who of ['supervisor', 'agent2']) {
      expect((await t.http.post(`/api/v1/users/${target.id}/password`).set(as(who)).send({ password: 'nova senha 9' })).status, who).toBe(
        403,
      );
    }
    const self = await t.http.post(`/api/v1/users/${acme.users.admin!.id}/password`).set(as('admin')).send({ password: 'nova senha 9' });
    expect(self.status).toBe(400);
    expect(self.body.error_message).toBe('Change your own password in your profile, with your current password');
    const owner = await t.http.post(`/api/v1/users/${acme.users.owner!.id}/password`).set(as('admin')).send({ password: 'nova senha 9' });
    expect(owner.status).toBe(403);
    expect(
      (await t.http.post(`/api/v1/users/${other.users.agent!.id}/password`).set(as('admin')).send({ password: 'nova senha 9' })).status,
    ).toBe(404);
    expect((await t.database.db.user.findUniqueOrThrow({ where: { id: target.id } })).passwordHash).toBe(before);
    expect((await t.http.get('/api/v1/users/me').set(as('agent2'))).status).toBe(200);
    // An owner may set an owner's... and an admin's.
    expect(
      (await t.http.post(`/api/v1/users/${acme.users.admin!.id}/password`).set(as('owner')).send({ password: 'nova senha 9' })).status,
    ).toBe(200);
  });
});
