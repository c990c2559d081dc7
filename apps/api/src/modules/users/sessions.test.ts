import { verifyPassword } from '@atende/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connected, nextEvent, startTestApp, type TestApp } from '../../testing';

// (logout, "A supervisor can end an agent's session", disconnection events).
// (profile password), as sessions the api keeps.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const meStatus = async (token: string) => (await t.http.get('/api/v1/users/me').set(bearer(token))).status;
const liveSessions = (userId: number) => t.database.db.userSession.count({ where: { userId, revokedAt: null } });

beforeAll(async () => {
  t = await startTestApp({ LOGIN_FREE_ATTEMPTS_PER_PAIR: '3' });
  acme = await t.tenant('Acme', {
    users: {
      agent: ['agent'],
      agent2: ['agent'],
      agent3: ['agent'],
      agent4: ['agent'],
      pw: ['agent'],
      pw2: ['agent'],
      pw3: ['agent'],
      supervisor: ['supervisor'],
      admin: ['admin'],
    },
  });
});
afterAll(() => t.close());

describe('POST /api/v1/logout', () => {
  it('revokes only the session it is called with; the user stays logged in where a browser is connected', async () => {
    const laptop = await t.login('agent@acme.test');
    const phone = await t.login('agent@acme.test');
    const phoneBrowser = await connected(t.socket(phone));
    expect((await t.http.post('/api/v1/logout').set(bearer(laptop)).type('form').send({})).status).toBe(200);
    expect(await meStatus(laptop)).toBe(401);
    expect(await meStatus(phone)).toBe(200);
    const row = await t.database.db.user.findUniqueOrThrow({ where: { id: acme.users.agent!.id } });
    expect(row.isLogged).toBe(true);
    const revoked = await t.database.db.userSession.findMany({ where: { userId: acme.users.agent!.id, revokedAt: { not: null } } });
    expect(revoked.map((s) => s.revokedReason)).toEqual(['logout']);
    phoneBrowser.disconnect();
  });
});

describe('PATCH /api/v1/users/:id {password, old_password}', () => {
  it('refuses a weak new password, a missing current password, and bodies that mix or lack what to change', async () => {
    const token = await t.login('pw@acme.test');
    const id = acme.users.pw!.id;
    const cases: [Record<string, unknown>, string][] = [
      [{ password: 'short1', old_password: 'secret123' }, 'at least 8'],
      [{ password: 'longenough', old_password: 'secret123' }, 'number'],
      [{ password: '1234567890', old_password: 'secret123' }, 'letters'],
      [{ password: 'newpass123' }, 'Current password is required'],
      [{ password: 'newpass123', old_password: '' }, 'Current password is required'],
      [{ password: 'a1'.repeat(200), old_password: 'secret123' }, 'at most'],
      [{ password: 'newpass123', old_password: 'secret123', state: 'offline' }, 'not both'],
      [{ state: 'online' }, 'Invalid'],
      [{}, 'Missing parameters'],
    ];
    for (const [body, message] of cases) {
      const res = await t.http.patch(`/api/v1/users/${id}`).set(bearer(token)).send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.error_message).toContain(message);
    }
    await t.login('pw@acme.test');
  });

  it("answers 400 'Wrong current password' (code wrong_current_password) and changes nothing", async () => {
    const token = await t.login('pw@acme.test');
    const before = await t.database.db.user.findUniqueOrThrow({ where: { id: acme.users.pw!.id } });
    const res = await t.http
      .patch(`/api/v1/users/${acme.users.pw!.id}`)
      .set(bearer(token))
      .send({ password: 'newpass123', old_password: 'not-it-1' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'wrong_current_password', error_message: 'Wrong current password' });
    const after = await t.database.db.user.findUniqueOrThrow({ where: { id: acme.users.pw!.id } });
    expect(after.passwordHash).toBe(before.passwordHash);
    expect(await meStatus(token)).toBe(200);
  });

  it('counts wrong current passwords against the sign-in limit: a borrowed session cannot guess it', async () => {
    const token = await t.login('pw3@acme.test');
    const change = (old: string) =>
      t.http.patch(`/api/v1/users/${acme.users.pw3!.id}`).set(bearer(token)).send({ password: 'newpass123', old_password: old });
    for (const guess of ['guess-1', 'guess-2', 'guess-3']) expect((await change(guess)).status).toBe(400);
    const blocked = await change('secret123');
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('login_rate_limited');
    const row = await t.database.db.user.findUniqueOrThrow({ where: { id: acme.users.pw3!.id } });
    expect(await verifyPassword(row.passwordHash, 'secret123')).toBe(true);
  });

  it('changes the password, keeps the current session and ends the others (and their sockets)', async () => {
    const current = await t.login('pw2@acme.test');
    const other = await t.login('pw2@acme.test');
    const otherSocket = t.socket(other);
    await connected(otherSocket);
    const dropped = new Promise<string>((resolve) => otherSocket.once('disconnect', resolve));
    const res = await t.http
      .patch(`/api/v1/users/${acme.users.pw2!.uuid}`)
      .set(bearer(current))
      .send({ password: 'newpass123', old_password: 'secret123' });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain('argon2');
    expect(await dropped).toBe('io server disconnect');
    expect(await meStatus(current)).toBe(200);
    expect(await meStatus(other)).toBe(401);
    expect(await liveSessions(acme.users.pw2!.id)).toBe(1);
    expect((await t.http.post('/api/v1/login').type('form').send({ email: 'pw2@acme.test', password: 'secret123' })).status).toBe(401);
    await t.login('pw2@acme.test', 'newpass123');
  });
});

describe('PATCH /api/v1/users/:id {state: offline} (supervisor ends a session)', () => {
  it('revokes every session of the target, marks them logged off by the supervisor, tells their socket, then drops it', async () => {
    const supervisor = await t.login('supervisor@acme.test');
    const first = await t.login('agent2@acme.test');
    const second = await t.login('agent2@acme.test');
    const socket = t.socket(first);
    await connected(socket);
    const events: string[] = [];
    socket.on('update-user', () => events.push('update-user'));
    const told = nextEvent(socket, 'update-user', (p) => p.user.is_logged === false);
    const dropped = new Promise<void>((resolve) =>
      socket.once('disconnect', (reason) => {
        events.push(`disconnect:${reason}`);
        resolve();
      }),
    );

    const res = await t.http.patch(`/api/v1/users/${acme.users.agent2!.id}`).set(bearer(supervisor)).send({ state: 'offline' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ is_logged: false, logged_off_by: 'supervisor', state: 'offline' });
    const payload = await told;
    expect(payload).toMatchObject({
      tenant_uuid: acme.tenantId,
      user: { uuid: acme.users.agent2!.uuid, is_logged: false, logged_off_by: 'supervisor' },
    });
    await dropped;
    // The event came before the disconnection (the browser shows 'You were disconnected by a supervisor').
    expect(events).toEqual(['update-user', 'disconnect:io server disconnect']);
    expect(await meStatus(first)).toBe(401);
    expect(await meStatus(second)).toBe(401);
    expect(await liveSessions(acme.users.agent2!.id)).toBe(0);
    const row = await t.database.db.user.findUniqueOrThrow({ where: { id: acme.users.agent2!.id } });
    expect(row).toMatchObject({ isLogged: false, loggedOffBy: 'supervisor', state: 'offline' });
    // The supervisor is untouched.
    expect(await meStatus(supervisor)).toBe(200);
  });

  it('lets the agent sign in again afterwards', async () => {
    const token = await t.login('agent2@acme.test');
    const me = await t.http.get('/api/v1/users/me').set(bearer(token));
    expect(me.body.data).toMatchObject({ is_logged: true, logged_off_by: null, state: 'online' });
  });

  it('refuses an agent forcing a colleague offline, and the colleague keeps working', async () => {
    const agent = await t.login('agent3@acme.test');
    const colleague = await t.login('agent4@acme.test');
    const res = await t.http.patch(`/api/v1/users/${acme.users.agent4!.id}`).set(bearer(agent)).send({ state: 'offline' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
    expect(await meStatus(colleague)).toBe(200);
    expect(await liveSessions(acme.users.agent4!.id)).toBe(1);
  });
});

describe('DELETE /api/v1/users/:id', () => {
  it("ends the removed user's sessions and drops their socket", async () => {
    const admin = await t.login('admin@acme.test');
    const victim = await t.login('agent3@acme.test');
    const socket = t.socket(victim);
    await connected(socket);
    const told = nextEvent(socket, 'update-user', (p) => p.user.is_logged === false);
    const dropped = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    expect((await t.http.delete(`/api/v1/users/${acme.users.agent3!.id}`).set(bearer(admin))).status).toBe(200);
    await told;
    expect(await dropped).toBe('io server disconnect');
    expect(await meStatus(victim)).toBe(401);
    expect(await liveSessions(acme.users.agent3!.id)).toBe(0);
    expect((await t.http.post('/api/v1/login').type('form').send({ email: 'agent3@acme.test', password: 'secret123' })).status).toBe(401);
    // Gone for the api: a second delete, or any call naming them, answers 404.
    expect((await t.http.delete(`/api/v1/users/${acme.users.agent3!.id}`).set(bearer(admin))).status).toBe(404);
  });

  it('refuses deleting yourself', async () => {
    const admin = await t.login('admin@acme.test');
    const res = await t.http.delete(`/api/v1/users/${acme.users.admin!.uuid}`).set(bearer(admin));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'own_user_kept', error_message: expect.any(String) });
    expect(await meStatus(admin)).toBe(200);
    expect((await t.database.db.user.findUniqueOrThrow({ where: { id: acme.users.admin!.id } })).deletedAt).toBeNull();
  });
});
