import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { createDb, type Db } from './client';
import { runMigrations } from './migrations';
import { scoped } from './scoped';

// ARCHITECTURE "Facts": migrations are hand-written SQL mirroring schema.prisma; this test applies
// them to an empty database and writes and reads every model with every field set, so drift fails.
const admin = 'postgresql://postgres@127.0.0.1:5432/postgres';
const name = `atende_drift_${randomBytes(5).toString('hex')}`;
const url = `postgresql://postgres@127.0.0.1:5432/${name}`;
let db: Db;

beforeAll(async () => {
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`CREATE DATABASE "${name}"`);
  await c.end();
});
afterAll(async () => {
  await db?.$disconnect();
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await c.end();
});

describe('migrations', () => {
  it('apply to an empty database, then report nothing left to apply', async () => {
    const first = await runMigrations(url);
    expect(first.applied.length).toBeGreaterThan(0);
    const second = await runMigrations(url);
    expect(second.applied).toEqual([]);
    expect(second.alreadyApplied).toEqual(first.applied);
  });

  it('match schema.prisma: every model written and read back with every field set', async () => {
    db = createDb(url);
    const now = new Date('2026-01-02T03:04:05.678Z');
    const tenant = await db.tenant.create({
      data: { name: 'T', config: { features: { a: true } }, isDemo: true },
    });
    const ws = await db.workspace.create({
      data: {
        tenantId: tenant.id, name: 'W', maxConversationPerUser: 3, conversationDeliveryMode: 'fifo',
        archivedConversationBehaviorOnNewMessages: 'keep', integrations: { droz: { token: 'x' } },
      },
    });
    const pause = await db.pause.create({ data: { tenantId: tenant.id, workspaceId: ws.id, description: 'Lunch', deletedAt: now } });
    const user = await db.user.create({
      data: {
        tenantId: tenant.id, workspaceId: ws.id, username: 'U', email: 'u@x.dev', passwordHash: 'h',
        roles: ['agent', 'supervisor'], isLogged: true, loggedOffBy: 'self', state: 'paused',
        currentPauseId: pause.id, loggedAt: now, deletedAt: now,
      },
    });
    const session = await db.userSession.create({
      data: { tenantId: tenant.id, userId: user.id, roles: ['admin'], expiresAt: now, revokedAt: now, revokedReason: 'logout', ip: '1.2.3.4', userAgent: 'ua' },
    });
    const sector = await db.sector.create({
      data: {
        tenantId: tenant.id, workspaceId: ws.id, name: 'S', slaFirstResponseSeconds: 60, slaSessionSeconds: 600,
        ticketAnnounce: true, ticketMessage: 'm', deletedAt: now,
      },
    });
    const login = await db.loginHistory.create({
      data: { tenantId: tenant.id, userId: user.id, event: 'login', ip: '::1', userAgent: 'ua', at: now },
    });

    expect(await db.tenant.findUniqueOrThrow({ where: { id: tenant.id } })).toMatchObject({ config: { features: { a: true } }, isDemo: true });
    expect(await db.workspace.findUniqueOrThrow({ where: { id: ws.id } })).toMatchObject({ conversationDeliveryMode: 'fifo', maxConversationPerUser: 3, integrations: { droz: { token: 'x' } } });
    expect(await db.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({ roles: ['agent', 'supervisor'], state: 'paused', currentPauseId: pause.id, loggedAt: now, deletedAt: now, loggedOffBy: 'self' });
    expect(await db.userSession.findUniqueOrThrow({ where: { id: session.id } })).toMatchObject({ roles: ['admin'], revokedReason: 'logout', ip: '1.2.3.4', expiresAt: now });
    expect(await db.pause.findUniqueOrThrow({ where: { id: pause.id } })).toMatchObject({ description: 'Lunch', deletedAt: now });
    expect(await db.sector.findUniqueOrThrow({ where: { id: sector.id } })).toMatchObject({ slaFirstResponseSeconds: 60, ticketMessage: 'm' });
    expect(await db.loginHistory.findUniqueOrThrow({ where: { id: login.id } })).toMatchObject({ event: 'login', at: now });
  });

  it('confines a scoped client to its tenant', async () => {
    const other = await db.tenant.create({ data: { name: 'Other' } });
    const mine = await db.tenant.findFirstOrThrow({ where: { name: 'T' } });
    const scopedDb = scoped(db, { tenantId: other.id });
    expect(await scopedDb.workspace.findMany()).toEqual([]);
    expect(await scopedDb.tenant.findMany()).toHaveLength(1);
    const ws = await db.workspace.findFirstOrThrow({ where: { tenantId: mine.id } });
    expect(await scopedDb.workspace.findUnique({ where: { id: ws.id } })).toBeNull();
    await expect(scopedDb.workspace.update({ where: { id: ws.id }, data: { name: 'hijack' } })).rejects.toThrow();
    expect((await db.workspace.findUniqueOrThrow({ where: { id: ws.id } })).name).toBe('W');
  });
});
