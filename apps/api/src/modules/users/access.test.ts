import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refused, startTestApp, type TestApp } from '../../testing';

// Role coverage, enforced by the api: admin or owner may do everything; manager
// covers agent, campaign_manager, supervisor and manager; supervisor covers agent and supervisor; an
// agent-only user passes no privileged check. Refusals are 403 with code forbidden.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
const token: Record<string, string> = {};
const ROLES = ['agent', 'supervisor', 'manager', 'admin', 'owner', 'campaigns', 'tenants'] as const;

const as = (who: string) => ({ Authorization: `Bearer ${token[who]}` });

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme', {
    users: {
      agent: ['agent'],
      agent2: ['agent'],
      supervisor: ['supervisor'],
      manager: ['manager'],
      admin: ['admin'],
      owner: ['owner'],
      campaigns: ['campaign_manager'],
      tenants: ['tenant_admin'],
      doomed1: ['agent'],
      doomed2: ['agent'],
      promoted: ['agent'],
      demoted: ['supervisor'],
    },
  });
  for (const who of ROLES) token[who] = await t.login(`${who}@acme.test`);
});
afterAll(() => t.close());

function expectForbidden(
  res: { status: number; body: { code?: string; error_message?: string } },
  label: string,
  codes: string[] = ['forbidden'],
) {
  expect(res.status, label).toBe(403);
  expect(res.body, label).toMatchObject({ error_message: expect.any(String) });
  expect(codes, label).toContain(res.body.code);
}

describe('GET /api/v1/users (supervisor and above)', () => {
  it('answers the users of the workspace to supervisor, manager, admin and owner', async () => {
    for (const who of ['supervisor', 'manager', 'admin', 'owner']) {
      const res = await t.http.get('/api/v1/users').query({ role: 'agent' }).set(as(who));
      expect(res.status, who).toBe(200);
      expect(res.body.data.map((u: { email: string }) => u.email)).toEqual(expect.arrayContaining(['agent@acme.test', 'agent2@acme.test']));
      expect(res.body.data.every((u: { roles: { name: string }[] }) => u.roles.some((r) => r.name === 'agent'))).toBe(true);
    }
  });

  it('refuses agent, campaign_manager and tenant_admin', async () => {
    for (const who of ['agent', 'campaigns', 'tenants']) expectForbidden(await t.http.get('/api/v1/users').set(as(who)), who);
  });
});

describe('DELETE /api/v1/users/:id (admin)', () => {
  it('refuses everybody below admin and removes nothing', async () => {
    for (const who of ['agent', 'supervisor', 'manager', 'campaigns', 'tenants']) {
      expectForbidden(await t.http.delete(`/api/v1/users/${acme.users.doomed1!.id}`).set(as(who)), who);
    }
    const row = await t.database.db.user.findUniqueOrThrow({ where: { id: acme.users.doomed1!.id } });
    expect(row.deletedAt).toBeNull();
  });

  it('lets admin and owner remove a user', async () => {
    expect((await t.http.delete(`/api/v1/users/${acme.users.doomed1!.id}`).set(as('admin'))).status).toBe(200);
    expect((await t.http.delete(`/api/v1/users/${acme.users.doomed2!.uuid}`).set(as('owner'))).status).toBe(200);
    const rows = await t.database.db.user.findMany({ where: { id: { in: [acme.users.doomed1!.id, acme.users.doomed2!.id] } } });
    expect(rows.every((r) => r.deletedAt !== null)).toBe(true);
  });

  it('keeps an owner safe from an admin', async () => {
    expectForbidden(await t.http.delete(`/api/v1/users/${acme.users.owner!.id}`).set(as('admin')), 'admin removing owner', [
      'owner_remove_owner_only',
    ]);
  });
});

describe('PATCH /api/v1/users/:id {state: offline} (supervisor and above, over roles they cover)', () => {
  it('refuses an agent, a campaign manager and a tenant admin, and the target stays signed in', async () => {
    for (const who of ['campaigns', 'tenants']) {
      expectForbidden(await t.http.patch(`/api/v1/users/${acme.users.agent!.id}`).set(as(who)).send({ state: 'offline' }), who);
    }
    expectForbidden(await t.http.patch(`/api/v1/users/${acme.users.supervisor!.id}`).set(as('agent')).send({ state: 'offline' }), 'agent');
    const supervisor = await t.database.db.user.findUniqueOrThrow({ where: { id: acme.users.supervisor!.id } });
    expect(supervisor.isLogged).toBe(true);
    expect((await t.http.get('/api/v1/users/me').set(as('supervisor'))).status).toBe(200);
  });

  it('refuses a supervisor ending the session of a manager or an admin (roles a supervisor does not cover)', async () => {
    for (const target of ['manager', 'admin', 'owner']) {
      expectForbidden(
        await t.http.patch(`/api/v1/users/${acme.users[target]!.uuid}`).set(as('supervisor')).send({ state: 'offline' }),
        target,
      );
      expect((await t.http.get('/api/v1/users/me').set(as(target))).status, target).toBe(200);
    }
  });
});

describe('PATCH /api/v1/users/:id {password} (only your own)', () => {
  it("refuses changing another user's password, whatever the role", async () => {
    for (const who of ['admin', 'owner', 'manager']) {
      const res = await t.http
        .patch(`/api/v1/users/${acme.users.agent!.id}`)
        .set(as(who))
        .send({ password: 'newpass123', old_password: 'secret123' });
      expectForbidden(res, who, ['password_own_only', 'forbidden']);
    }
    await t.login('agent@acme.test');
  });
});

// Role changes take effect at the next session, made immediate: the change ends the user's open sessions, so the next session is the only one left.
describe('a role change ends the open sessions, the next one has the new roles', () => {
  it("ends a promoted agent's old session (http and socket) and gives the next one the supervisor calls", async () => {
    const before = await t.login('promoted@acme.test');
    await t.database.db.user.update({ where: { id: acme.users.promoted!.id }, data: { roles: ['supervisor'] } });
    const old = await t.http.get('/api/v1/users').set('Authorization', `Bearer ${before}`);
    expect(old.status, 'old session').toBe(401);
    expect(old.body.code).toBe('session_ended');
    await expect(refused(t.socket(before))).resolves.toBeInstanceOf(Error);
    const after = await t.login('promoted@acme.test');
    expect((await t.http.get('/api/v1/users').set('Authorization', `Bearer ${after}`)).status).toBe(200);
  });

  it("ends a demoted supervisor's old session at once, and the next one is an agent's", async () => {
    const before = await t.login('demoted@acme.test');
    await t.database.db.user.update({ where: { id: acme.users.demoted!.id }, data: { roles: ['agent'] } });
    expect((await t.http.get('/api/v1/users').set('Authorization', `Bearer ${before}`)).status).toBe(401);
    const after = await t.login('demoted@acme.test');
    expectForbidden(await t.http.get('/api/v1/users').set('Authorization', `Bearer ${after}`), 'new session');
  });
});
