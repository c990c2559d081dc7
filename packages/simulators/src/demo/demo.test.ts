import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LivechatAppearanceSchema } from '@atende/contract';
import { seedDemo } from './demo';
import { DEMO_LIVECHAT_CHANNEL_ID } from './demo-livechat';
import { verifyPassword } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

// One tenant "Demo" with every feature flag on and a user per role, idempotent, and never
// seeded into a database that holds non-demo data.
describe('demo seed', () => {
  it('creates the demo tenant with every role, and running it again changes nothing', async () => {
    const first = await seedDemo(t.db);
    expect(first.seeded).toBe(true);
    const counts = async () => ({
      tenants: await t.db.tenant.count(),
      users: await t.db.user.count(),
      conversations: await t.db.conversation.count(),
      channels: await t.db.channel.count(),
    });
    const before = await counts();
    // The demo tenant, and the platform tenant where the tenant_admin operator lives.
    expect(before.tenants).toBe(2);
    expect(before.users).toBe(8);
    const again = await seedDemo(t.db);
    expect(again.seeded).toBe(true);
    expect(await counts()).toEqual(before);
    const admin = await t.db.user.findFirstOrThrow({ where: { email: 'admin@demo.atende.dev' } });
    expect(admin.roles).toEqual(['admin']);
    expect(await verifyPassword(admin.passwordHash, 'atende123')).toBe(true);
    const tenant = await t.db.tenant.findFirstOrThrow({ where: { isPlatform: false } });
    const operator = await t.db.user.findFirstOrThrow({ where: { email: 'tenants@demo.atende.dev' }, include: { tenant: true } });
    expect(operator.tenant).toMatchObject({ isPlatform: true, isDemo: true });
    expect(Object.values((tenant.config as { features: Record<string, boolean> }).features).every(Boolean)).toBe(true);
    const roles = (await t.db.user.findMany()).flatMap((u) => u.roles).sort();
    expect(roles).toEqual(['admin', 'agent', 'agent', 'campaign_manager', 'manager', 'owner', 'supervisor', 'tenant_admin']);
    // The livechat channel "Site" with an appearance (docs/channels.md, Livechat widget).
    const site = await t.db.channel.findUniqueOrThrow({ where: { id: DEMO_LIVECHAT_CHANNEL_ID } });
    expect(site).toMatchObject({ name: 'Site', type: 'livechat', enabled: true });
    expect(LivechatAppearanceSchema.safeParse(site.config).success).toBe(true);
  });

  it('refuses to seed a database that holds a non-demo tenant', async () => {
    await t.db.tenant.create({ data: { name: 'Real customer' } });
    const before = await t.db.user.count();
    const result = await seedDemo(t.db);
    expect(result.seeded).toBe(false);
    expect(await t.db.user.count()).toBe(before);
  });
});
