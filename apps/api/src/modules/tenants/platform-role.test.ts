import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STANDARD_USERS, startTestApp, TEST_PASSWORD, type TestApp } from '../../testing';

// Tenant_admin is a platform role. Its holders live in the platform tenant, so a
// customer's admin can never hold it, grant it, or reach its holders; the database refuses it anywhere else.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
const token: Record<string, string> = {};
const as = (who: string) => ({ Authorization: `Bearer ${token[who]}` });

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme', { users: { ...STANDARD_USERS, operator: ['admin', 'tenant_admin'] } });
  for (const who of ['admin', 'owner', 'tenants', 'operator']) token[who] = await t.login(`${who}@acme.test`);
});
afterAll(() => t.close());

describe('tenant_admin lives in the platform tenant only', () => {
  it('signs the operator into the platform tenant, which no customer lists or reaches', async () => {
    const platform = await t.database.db.tenant.findFirstOrThrow({ where: { isPlatform: true } });
    const holders = await t.database.db.user.findMany({ where: { roles: { has: 'tenant_admin' } }, select: { tenantId: true } });
    expect(holders.length).toBeGreaterThan(0);
    expect(holders.every((u) => u.tenantId === platform.id)).toBe(true);
    const me = await t.http.get('/api/v1/tenants/me').set(as('tenants'));
    expect(me.body.data.uuid).toBe(platform.id);
    // The operator manages the customers, not the platform through the customers' screens.
    const list = await t.http.get('/api/v1/tenants').set(as('tenants'));
    expect(list.body.data.map((x: { uuid: string }) => x.uuid)).toEqual([acme.tenantId]);
    expect((await t.http.get(`/api/v1/tenants/${acme.tenantId}`).set(as('tenants'))).status).toBe(200);
    for (const who of ['admin', 'owner']) {
      expect((await t.http.get(`/api/v1/tenants/${platform.id}`).set(as(who))).status, who).toBe(404);
      const configure = await t.http.post(`/api/v1/tenants/${platform.id}/configure`).set(as(who)).send({ name: 'Mine now' });
      expect(configure.status, who).toBe(404);
    }
    expect((await t.database.db.tenant.findUniqueOrThrow({ where: { id: platform.id } })).name).toBe(platform.name);
  });

  it("refuses a customer's admin or owner granting it, on create and on edit, and stores nothing", async () => {
    const users = await t.database.db.user.count();
    for (const who of ['admin', 'owner']) {
      const created = await t.http
        .post('/api/v1/users')
        .set(as(who))
        .send({ username: 'Sneaky Operator', email: `sneaky-${who}@acme.test`, password: 'abc12345', roles: ['tenant_admin'] });
      expect(created.status, who).toBe(403);
      expect(created.body).toMatchObject({
        code: 'tenant_admin_role_locked',
        error_message: 'You cannot grant or remove the tenant_admin role',
      });
      const edited = await t.http
        .patch(`/api/v1/users/${acme.users.agent!.id}`)
        .set(as(who))
        .send({ roles: ['agent', 'tenant_admin'] });
      expect(edited.status, who).toBe(403);
    }
    expect(await t.database.db.user.count()).toBe(users);
    expect((await t.database.db.user.findUniqueOrThrow({ where: { id: acme.users.agent!.id } })).roles).toEqual(['agent']);
  });

  it('is refused by the database itself in a customer tenant, whatever writes the row', async () => {
    await expect(
      t.database.db.user.update({ where: { id: acme.users.admin!.id }, data: { roles: ['admin', 'tenant_admin'] } }),
    ).rejects.toThrow(/platform role/);
    await expect(
      t.database.db.user.create({
        data: {
          tenantId: acme.tenantId,
          workspaceId: acme.workspaceId,
          email: 'raw@acme.test',
          username: 'Raw',
          passwordHash: 'x',
          roles: ['tenant_admin'],
        },
      }),
    ).rejects.toThrow(/platform role/);
    const platform = await t.database.db.tenant.findFirstOrThrow({ where: { isPlatform: true } });
    // Moving a holder into a customer tenant is refused too.
    await expect(t.database.db.user.update({ where: { id: acme.users.tenants!.id }, data: { tenantId: acme.tenantId } })).rejects.toThrow(
      /platform role/,
    );
    expect((await t.database.db.user.findUniqueOrThrow({ where: { id: acme.users.tenants!.id } })).tenantId).toBe(platform.id);
  });

  it('lets an operator who administers the platform tenant hand the role to a peer, who then manages the customers', async () => {
    const peer = await t.http
      .post('/api/v1/users')
      .set(as('operator'))
      .send({ username: 'Second Operator', email: 'second@platform.test', password: TEST_PASSWORD, roles: ['tenant_admin'] });
    expect(peer.status).toBe(201);
    const second = await t.login('second@platform.test');
    const list = await t.http.get('/api/v1/tenants').set({ Authorization: `Bearer ${second}` });
    expect(list.body.data.map((x: { uuid: string }) => x.uuid)).toEqual([acme.tenantId]);
  });
});
