import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../../testing';

// User rules, admin and owner manage users, role changes take effect at the next
// session, and another tenant's id answers 404.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let other: Awaited<ReturnType<TestApp['tenant']>>;
const token: Record<string, string> = {};
const as = (who: string) => ({ Authorization: `Bearer ${token[who]}` });
const valid = { username: 'Maria Souza', email: 'maria@acme.test', password: 'abc12345', roles: ['agent'] };

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme', {
    users: {
      admin: ['admin'],
      owner: ['owner'],
      manager: ['manager'],
      supervisor: ['supervisor'],
      agent: ['agent'],
      operator: ['admin', 'tenant_admin'],
    },
  });
  other = await t.tenant('Other', { users: { admin: ['admin'], agent: ['agent'] } });
  for (const who of ['admin', 'owner', 'manager', 'supervisor', 'agent', 'operator']) token[who] = await t.login(`${who}@acme.test`);
  token.otherAdmin = await t.login('admin@other.test');
});
afterAll(() => t.close());

describe('POST /api/v1/users', () => {
  it('creates a user in the caller workspace who can sign in with the given password', async () => {
    const res = await t.http
      .post('/api/v1/users')
      .set(as('admin'))
      .send({ ...valid, email: ' Maria@Acme.test ' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      username: 'Maria Souza',
      email: 'maria@acme.test',
      roles: [{ name: 'agent' }],
      workspace: { uuid: acme.workspaceId },
    });
    const login = await t.http.post('/api/v1/login').type('form').send({ email: 'maria@acme.test', password: 'abc12345' });
    expect(login.status).toBe(200);
    expect(login.body.data.roles).toEqual(['agent']);
    const list = await t.http.get('/api/v1/users').set(as('admin'));
    expect(list.body.data.map((u: { email: string }) => u.email)).toContain('maria@acme.test');
  });

  it('answers every spec message for bad input and stores nothing', async () => {
    const before = await t.database.db.user.count();
    const cases: [Record<string, unknown>, string][] = [
      [{ username: 'Al' }, 'Name must have at least 3 letters'],
      [{ username: 'A  B' }, 'Name must have at least 3 letters'],
      [{ username: 'Maria 2' }, 'Name must contain only letters and spaces'],
      [{ username: 'Maria_S' }, 'Name must contain only letters and spaces'],
      [{ email: 'not-an-email' }, 'Please insert a valid e-mail'],
      [{ email: '' }, 'Email is required'],
      [{ email: undefined }, 'Email is required'],
      [{ password: undefined }, 'Password is required'],
      [{ password: '' }, 'Password is required'],
      [{ password: 'abc1234' }, 'Password must have at least 8 characters'],
      [{ password: 'abcdefgh' }, 'Password must contain at least one number'],
      [{ password: '12345678' }, 'Password must contain letters'],
      [{ roles: [] }, 'Select at least one role'],
      [{ roles: undefined }, 'Select at least one role'],
    ];
    for (const [patch, message] of cases) {
      const res = await t.http
        .post('/api/v1/users')
        .set(as('admin'))
        .send({ ...valid, email: 'new@acme.test', ...patch });
      expect(res.status, message).toBe(400);
      expect(res.body.code, message).toBe('validation_failed');
      expect(
        res.body.fields.map((f: { message: string }) => f.message),
        JSON.stringify(patch),
      ).toContain(message);
    }
    expect(await t.database.db.user.count()).toBe(before);
  });

  it("answers 'Email already being used' (409) for an email of the tenant, and allows one used only in another tenant", async () => {
    const dup = await t.http
      .post('/api/v1/users')
      .set(as('admin'))
      .send({ ...valid, email: 'AGENT@acme.test' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'user_email_taken', error_message: 'Email already being used' });
    const elsewhere = await t.http
      .post('/api/v1/users')
      .set(as('otherAdmin'))
      .send({ ...valid, email: 'maria@acme.test' });
    expect(elsewhere.status).toBe(201);
  });

  it('gives a removed user’s email back for a new user', async () => {
    const created = await t.http
      .post('/api/v1/users')
      .set(as('admin'))
      .send({ ...valid, email: 'temp@acme.test' });
    expect((await t.http.delete(`/api/v1/users/${created.body.data.uuid}`).set(as('admin'))).status).toBe(200);
    const again = await t.http
      .post('/api/v1/users')
      .set(as('admin'))
      .send({ ...valid, email: 'temp@acme.test' });
    expect(again.status).toBe(201);
  });

  it('is for admin and owner only', async () => {
    for (const who of ['manager', 'supervisor', 'agent']) {
      const res = await t.http
        .post('/api/v1/users')
        .set(as(who))
        .send({ ...valid, email: `by-${who}@acme.test` });
      expect(res.status, who).toBe(403);
    }
    expect(
      (
        await t.http
          .post('/api/v1/users')
          .set(as('owner'))
          .send({ ...valid, email: 'by-owner@acme.test' })
      ).status,
    ).toBe(201);
  });

  it('refuses to let an admin or owner grant tenant_admin (it reaches every tenant), or an admin grant owner', async () => {
    for (const who of ['admin', 'owner']) {
      const res = await t.http
        .post('/api/v1/users')
        .set(as(who))
        .send({ ...valid, email: `ta-${who}@acme.test`, roles: ['agent', 'tenant_admin'] });
      expect(res.status, who).toBe(403);
      expect(res.body.error_message).toBe('You cannot grant or remove the tenant_admin role');
    }
    const owner = await t.http
      .post('/api/v1/users')
      .set(as('admin'))
      .send({ ...valid, email: 'o@acme.test', roles: ['owner'] });
    expect(owner.status).toBe(403);
    // A platform operator (holding tenant_admin) may hand it to a peer.
    expect(
      (
        await t.http
          .post('/api/v1/users')
          .set(as('operator'))
          .send({ ...valid, email: 'peer@acme.test', roles: ['tenant_admin'] })
      ).status,
    ).toBe(201);
  });
});

describe('PATCH /api/v1/users/:id (profile)', () => {
  it('edits name, email and roles with the same rules', async () => {
    const id = acme.users.agent!.id;
    const res = await t.http
      .patch(`/api/v1/users/${id}`)
      .set(as('admin'))
      .send({ username: 'Agente Novo', roles: ['agent', 'supervisor'] });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ username: 'Agente Novo', roles: [{ name: 'agent' }, { name: 'supervisor' }] });
    for (const [patch, message] of [
      [{ username: 'Jo' }, 'Name must have at least 3 letters'],
      [{ username: 'Jo3o' }, 'Name must contain only letters and spaces'],
      [{ email: 'x@' }, 'Please insert a valid e-mail'],
      [{ roles: [] }, 'Select at least one role'],
      [{ roles: ['agent'], state: 'offline' }, 'Change the password, the state or the profile, one at a time'],
    ] as const) {
      const bad = await t.http.patch(`/api/v1/users/${id}`).set(as('admin')).send(patch);
      expect(bad.status, message).toBe(400);
      expect(bad.body.fields.map((f: { message: string }) => f.message)).toContain(message);
    }
    const dup = await t.http.patch(`/api/v1/users/${id}`).set(as('admin')).send({ email: 'manager@acme.test' });
    expect(dup.status).toBe(409);
    expect(dup.body.error_message).toBe('Email already being used');
    // Its own email again is not a duplicate.
    expect((await t.http.patch(`/api/v1/users/${id}`).set(as('admin')).send({ email: 'agent@acme.test' })).status).toBe(200);
    // The role change ended the agent's session: the tests below use a new one.
    expect((await t.http.get('/api/v1/users/me').set(as('agent'))).status).toBe(401);
    token.agent = await t.login('agent@acme.test');
  });

  it('is for admin and owner only, and keeps the state and password uses working', async () => {
    for (const who of ['manager', 'supervisor', 'agent']) {
      const res = await t.http.patch(`/api/v1/users/${acme.users.agent!.id}`).set(as(who)).send({ username: 'Hacked Name' });
      expect(res.status, who).toBe(403);
    }
    // Own password change still goes through the old route shape.
    const pw = await t.http
      .patch(`/api/v1/users/${acme.users.supervisor!.id}`)
      .set(as('supervisor'))
      .send({ password: 'newpass123', old_password: TEST_PASSWORD });
    expect(pw.status).toBe(200);
    const missing = await t.http.patch(`/api/v1/users/${acme.users.supervisor!.id}`).set(as('supervisor')).send({});
    expect(missing.status).toBe(400);
  });

  it('refuses an admin removing their own admin role, editing an owner, or touching tenant_admin', async () => {
    const self = await t.http
      .patch(`/api/v1/users/${acme.users.admin!.id}`)
      .set(as('admin'))
      .send({ roles: ['agent'] });
    expect(self.status).toBe(400);
    expect(self.body.error_message).toBe('You cannot remove your own admin role');
    expect((await t.http.patch(`/api/v1/users/${acme.users.owner!.id}`).set(as('admin')).send({ username: 'Not Owner' })).status).toBe(403);
    // tenant_admin is a platform role: its holders live in the platform tenant, out of a customer admin's reach.
    const strip = await t.http
      .patch(`/api/v1/users/${acme.users.operator!.id}`)
      .set(as('admin'))
      .send({ roles: ['admin'] });
    expect(strip.status).toBe(404);
    expect((await t.database.db.user.findUniqueOrThrow({ where: { id: acme.users.operator!.id } })).roles).toEqual([
      'admin',
      'tenant_admin',
    ]);
    const grant = await t.http
      .patch(`/api/v1/users/${acme.users.agent!.id}`)
      .set(as('admin'))
      .send({ roles: ['agent', 'tenant_admin'] });
    expect(grant.status).toBe(403);
    expect(grant.body.error_message).toBe('You cannot grant or remove the tenant_admin role');
  });

  it("answers 404 for another tenant's user, on edit and delete, and changes nothing", async () => {
    const foreign = other.users.agent!;
    for (const id of [foreign.id, foreign.uuid]) {
      expect((await t.http.patch(`/api/v1/users/${id}`).set(as('admin')).send({ username: 'Stolen Name' })).status).toBe(404);
      expect((await t.http.delete(`/api/v1/users/${id}`).set(as('admin'))).status).toBe(404);
    }
    const row = await t.database.db.user.findUniqueOrThrow({ where: { id: foreign.id } });
    expect(row).toMatchObject({ username: 'Agent', deletedAt: null });
  });
});

describe('DELETE /api/v1/users/:id', () => {
  it('refuses an admin removing themselves', async () => {
    const res = await t.http.delete(`/api/v1/users/${acme.users.admin!.id}`).set(as('admin'));
    expect(res.status).toBe(400);
    expect(res.body.error_message).toBe('You cannot remove yourself');
  });
});

// Role changes "take effect at the next session" (docs/roles.md), made immediate.
describe('role changes take effect at the next session, which the change starts', () => {
  it('ends the live session when the roles change, and the next one has the new roles', async () => {
    const created = await t.http
      .post('/api/v1/users')
      .set(as('admin'))
      .send({ ...valid, username: 'Rita Lima', email: 'rita@acme.test', roles: ['agent'] });
    const oldToken = await t.login('rita@acme.test', valid.password);
    expect((await t.http.get('/api/v1/users').set({ Authorization: `Bearer ${oldToken}` })).status).toBe(403);

    const promoted = await t.http
      .patch(`/api/v1/users/${created.body.data.uuid}`)
      .set(as('admin'))
      .send({ roles: ['agent', 'supervisor'] });
    expect(promoted.status).toBe(200);
    // The live session ended with the change...
    expect((await t.http.get('/api/v1/users').set({ Authorization: `Bearer ${oldToken}` })).status).toBe(401);
    const ended = await t.database.db.userSession.findFirstOrThrow({ where: { userId: created.body.data.id } });
    expect(ended).toMatchObject({ roles: ['agent'], revokedReason: 'roles_changed' });
    // ...and the next one has the new roles.
    const newToken = await t.login('rita@acme.test', valid.password);
    expect((await t.http.get('/api/v1/users').set({ Authorization: `Bearer ${newToken}` })).status).toBe(200);

    // A demotion is the same: the supervisor session ends at once.
    await t.http
      .patch(`/api/v1/users/${created.body.data.uuid}`)
      .set(as('admin'))
      .send({ roles: ['agent'] });
    expect((await t.http.get('/api/v1/users').set({ Authorization: `Bearer ${newToken}` })).status).toBe(401);
    const third = await t.login('rita@acme.test', valid.password);
    expect((await t.http.get('/api/v1/users').set({ Authorization: `Bearer ${third}` })).status).toBe(403);
  });
});
