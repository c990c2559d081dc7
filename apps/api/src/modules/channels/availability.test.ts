import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

// Channels admin screen: each channel's availability (Offline, Paused, Active, Online).
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let admin = '';

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme', { users: { ana: ['agent'], bruno: ['agent'], admin: ['admin'] } });
  admin = await t.login('admin@acme.test');
});
afterAll(() => t.close());

describe('channel availability', () => {
  it('follows the channel switch and the presence of the agents who serve its entry sector', async () => {
    const db = t.database.db;
    const [support, sales] = acme.sectors;
    const channel = (name: string, entrySectorId: string | null, enabled = true) =>
      db.channel.create({
        data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, name, type: 'livechat', enabled, entrySectorId },
      });
    const off = await channel('Off', sales!.id, false);
    const toSales = await channel('Sales chat', sales!.id);
    const toSupport = await channel('Support chat', support!.id);
    const anyone = await channel('Workspace chat', null);
    const availability = async () => {
      const res = await t.http.get('/api/v1/channels?_limit=0').set({ Authorization: `Bearer ${admin}` });
      expect(res.status).toBe(200);
      return Object.fromEntries((res.body.data as { uuid: string; availability: string }[]).map((c) => [c.uuid, c.availability]));
    };
    const ana = await db.user.findFirstOrThrow({ where: { tenantId: acme.tenantId, email: 'ana@acme.test' } });
    const bruno = await db.user.findFirstOrThrow({ where: { tenantId: acme.tenantId, email: 'bruno@acme.test' } });
    // Ana serves Sales only; Bruno serves every sector (no sectors of his own).
    await db.userSector.create({ data: { tenantId: acme.tenantId, userId: ana.id, sectorId: sales!.id } });
    const presence = (user: number, isLogged: boolean, state: 'online' | 'paused' | 'offline') =>
      db.user.update({ where: { id: user }, data: { isLogged, state } });
    await presence(ana.id, false, 'offline');
    await presence(bruno.id, false, 'offline');
    expect(await availability()).toMatchObject({
      [off.id]: 'offline',
      [toSales.id]: 'active',
      [toSupport.id]: 'active',
      [anyone.id]: 'active',
    });

    await presence(ana.id, true, 'paused');
    expect(await availability()).toMatchObject({
      [off.id]: 'offline',
      [toSales.id]: 'paused',
      [toSupport.id]: 'active',
      [anyone.id]: 'paused',
    });

    await presence(ana.id, true, 'online');
    expect(await availability()).toMatchObject({
      [off.id]: 'offline',
      [toSales.id]: 'online',
      [toSupport.id]: 'active',
      [anyone.id]: 'online',
    });

    await presence(bruno.id, true, 'online');
    expect(await availability()).toMatchObject({
      [off.id]: 'offline',
      [toSales.id]: 'online',
      [toSupport.id]: 'online',
      [anyone.id]: 'online',
    });

    // A signed-in admin without the agent role answers nobody's chats.
    await presence(ana.id, false, 'offline');
    await presence(bruno.id, false, 'offline');
    const boss = await db.user.findFirstOrThrow({ where: { tenantId: acme.tenantId, email: 'admin@acme.test' } });
    await presence(boss.id, true, 'online');
    expect((await availability())[toSupport.id]).toBe('active');
  });
});
