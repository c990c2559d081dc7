import { hashPassword } from '@atende/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

// Every query is scoped by the caller's tenant; another
// tenant's user, by integer id or by uuid, answers 404 and nothing is changed.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let globex: Awaited<ReturnType<TestApp['tenant']>>;
const token: Record<string, string> = {};
const as = (who: string) => ({ Authorization: `Bearer ${token[who]}` });

const snapshot = async () => ({
  users: await t.database.db.user.findMany({ orderBy: { id: 'asc' } }),
  sessions: await t.database.db.userSession.findMany({ orderBy: { id: 'asc' } }),
});

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme');
  globex = await t.tenant('Globex');
  for (const who of ['admin', 'owner', 'supervisor', 'agent']) token[who] = await t.login(`${who}@acme.test`);
  // The Globex users are signed in: forcing them offline from Acme must not touch their sessions.
  for (const who of ['agent', 'admin']) token[`globex-${who}`] = await t.login(`${who}@globex.test`);
});
afterAll(() => t.close());

describe("another tenant's users", () => {
  it('answers 404 to PATCH users/:id (force offline and password) and DELETE users/:id, by id and by uuid', async () => {
    const before = await snapshot();
    for (const target of [globex.users.agent!, globex.users.admin!]) {
      for (const id of [String(target.id), target.uuid]) {
        const calls = [
          t.http.patch(`/api/v1/users/${id}`).set(as('supervisor')).send({ state: 'offline' }),
          t.http.patch(`/api/v1/users/${id}`).set(as('owner')).send({ state: 'offline' }),
          t.http.patch(`/api/v1/users/${id}`).set(as('agent')).send({ password: 'newpass123', old_password: 'secret123' }),
          t.http.delete(`/api/v1/users/${id}`).set(as('admin')),
          t.http.delete(`/api/v1/users/${id}`).set(as('owner')),
        ];
        for (const [i, res] of (await Promise.all(calls)).entries()) {
          expect(res.status, `call ${i} on ${id}`).toBe(404);
          expect(res.body).toMatchObject({ code: 'user_not_found', error_message: 'User not found' });
        }
      }
    }
    expect(await snapshot()).toEqual(before);
    expect((await t.http.get('/api/v1/users/me').set(as('globex-agent'))).status).toBe(200);
  });

  it('answers 404 for ids that exist nowhere', async () => {
    for (const id of ['999999999', crypto.randomUUID()]) {
      expect((await t.http.delete(`/api/v1/users/${id}`).set(as('admin'))).status).toBe(404);
      expect((await t.http.patch(`/api/v1/users/${id}`).set(as('supervisor')).send({ state: 'offline' })).status).toBe(404);
    }
  });

  it('never lists them', async () => {
    const res = await t.http.get('/api/v1/users').set(as('admin'));
    expect(res.status).toBe(200);
    const emails: string[] = res.body.data.map((u: { email: string }) => u.email);
    expect(emails.length).toBeGreaterThan(0);
    expect(emails.every((e) => e.endsWith('@acme.test'))).toBe(true);
    expect(res.body.data.every((u: { workspace: { tenant: { uuid: string } } }) => u.workspace.tenant.uuid === acme.tenantId)).toBe(true);
  });

  it('keeps a user with the same email in two tenants apart: the password decides, the session stays in its tenant', async () => {
    // Same email in both tenants, different passwords.
    const shared = 'shared@both.test';
    for (const [tenant, password] of [
      [acme, 'acmepass1'],
      [globex, 'globexpass1'],
    ] as const) {
      await t.database.db.user.create({
        data: {
          tenantId: tenant.tenantId,
          workspaceId: tenant.workspaceId,
          email: shared,
          username: 'Shared',
          passwordHash: await hashPassword(password),
          roles: ['supervisor'],
        },
      });
    }
    const inGlobex = await t.login(shared, 'globexpass1');
    const me = await t.http.get('/api/v1/users/me').set('Authorization', `Bearer ${inGlobex}`);
    expect(me.body.data.workspace.tenant.uuid).toBe(globex.tenantId);
    const list = await t.http.get('/api/v1/users').set('Authorization', `Bearer ${inGlobex}`);
    expect(list.body.data.every((u: { email: string }) => !u.email.endsWith('@acme.test'))).toBe(true);
  });
});
