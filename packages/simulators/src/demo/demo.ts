import { type Db, ALL_FEATURES_ON, ensureTenant, type CreatedTenant } from '@atende/db';
import { seedDemoConversations } from './demo-conversations';

import type { Role } from '@atende/contract';
import demo from '../../../../prisma/demo-users.json' with { type: 'json' };

/** Demo logins: <local>@demo.atende.dev / atende123 (README's demo logins, `pnpm start`; prisma/demo-users.json). */
export const DEMO_PASSWORD = demo.password;
export const DEMO_DOMAIN = demo.domain;
export const DEMO_USERS = demo.users as Record<string, Role[]>;

export type DemoSeedResult = { seeded: true; tenant: CreatedTenant; channelId: string } | { seeded: false; reason: string };

/**
 * Seeds the demo tenant. Idempotent; refuses to touch a database that holds any tenant that is
 * not the demo one, so it can never mix demo users into real data.
 */
export async function seedDemo(db: Db): Promise<DemoSeedResult> {
  const foreign = await db.tenant.count({ where: { isDemo: false, isPlatform: false } });
  if (foreign > 0)
    return {
      seeded: false,
      reason: `the database holds ${foreign} non-demo tenant(s); demo data is only seeded into an empty or demo database`,
    };
  const tenant = await ensureTenant(db, {
    name: 'Demo',
    isDemo: true,
    features: ALL_FEATURES_ON,
    workspaceName: 'Atendimento',
    users: DEMO_USERS,
    emailDomain: DEMO_DOMAIN,
    password: DEMO_PASSWORD,
    pauses: ['Lunch', 'Coffee break', 'Training'],
    sectors: ['Support', 'Sales', 'Billing'],
  });
  const { channelId } = await seedDemoConversations(db, tenant);
  return { seeded: true, tenant, channelId };
}
