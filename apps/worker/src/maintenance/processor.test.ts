import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTenant } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { runMaintenanceJob } from './processor';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

describe('maintenance: expire-sessions', () => {
  it('deletes sessions expired past the retention and logs off users left with no live session', async () => {
    const tenant = await ensureTenant(t.db, { name: 'M', users: { a: ['agent'], b: ['agent'] }, emailDomain: 'm.test', password: 'x1234567' });
    const a = tenant.users.a!;
    const b = tenant.users.b!;
    const day = 24 * 3600 * 1000;
    await t.db.user.updateMany({ where: { id: { in: [a.id, b.id] } }, data: { isLogged: true, state: 'online' } });
    await t.db.userSession.createMany({
      data: [
        { tenantId: tenant.tenantId, userId: a.id, roles: ['agent'], expiresAt: new Date(Date.now() - 40 * day) },
        { tenantId: tenant.tenantId, userId: a.id, roles: ['agent'], expiresAt: new Date(Date.now() - day) },
        { tenantId: tenant.tenantId, userId: b.id, roles: ['agent'], expiresAt: new Date(Date.now() + day) },
      ],
    });
    const result = await runMaintenanceJob({ db: t.db, sessionRetentionDays: 30 }, { kind: 'expire-sessions' });
    expect(result).toEqual({ deletedSessions: 1, loggedOffUsers: 1 });
    expect(await t.db.userSession.count({ where: { userId: a.id } })).toBe(1);
    expect(await t.db.user.findUniqueOrThrow({ where: { id: a.id } })).toMatchObject({ isLogged: false, state: 'offline', loggedOffBy: 'system' });
    expect(await t.db.user.findUniqueOrThrow({ where: { id: b.id } })).toMatchObject({ isLogged: true });
    // Running it again changes nothing more.
    expect(await runMaintenanceJob({ db: t.db, sessionRetentionDays: 30 }, { kind: 'expire-sessions' })).toEqual({ deletedSessions: 0, loggedOffUsers: 0 });
  });

  it('prunes outbox rows dispatched more than a week ago and never undispatched ones', async () => {
    const tenant = await t.db.tenant.findFirstOrThrow();
    const day = 24 * 3600 * 1000;
    await t.db.outboxJob.createMany({
      data: [
        { tenantId: tenant.id, queue: 'q', payload: {}, dispatchedAt: new Date(Date.now() - 8 * day) },
        { tenantId: tenant.id, queue: 'q', payload: {}, dispatchedAt: new Date(Date.now() - day) },
        { tenantId: tenant.id, queue: 'q', payload: {}, createdAt: new Date(Date.now() - 30 * day) },
      ],
    });
    expect(await runMaintenanceJob({ db: t.db, sessionRetentionDays: 30 }, { kind: 'prune-outbox' })).toEqual({ deletedOutboxRows: 1 });
    expect(await t.db.outboxJob.count()).toBe(2);
    expect(await t.db.outboxJob.count({ where: { dispatchedAt: null } })).toBe(1);
  });

  it('rejects a malformed job payload', async () => {
    await expect(runMaintenanceJob({ db: t.db, sessionRetentionDays: 30 }, { kind: 'nope' })).rejects.toThrow();
  });
});
