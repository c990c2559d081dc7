import type { Db } from './client';
import { ALL_FEATURES_ON, ensureTenant, type CreatedTenant } from './fixtures';

export const DEMO_PASSWORD = 'atende123';
export const DEMO_DOMAIN = 'demo.atende.dev';
/** Demo logins: <local>@demo.atende.dev / atende123 (README, `pnpm start`). */
export const DEMO_USERS = {
  agent: ['agent'],
  agent2: ['agent'],
  supervisor: ['supervisor'],
  manager: ['manager'],
  admin: ['admin'],
  owner: ['owner'],
  campaigns: ['campaign_manager'],
  tenants: ['tenant_admin'],
} as const;

export type DemoSeedResult = { seeded: true; tenant: CreatedTenant } | { seeded: false; reason: string };

/**
 * Seeds the demo tenant. Idempotent; refuses to touch a database that holds any tenant that is
 * not the demo one, so it can never mix demo users into real data.
 */
export async function seedDemo(db: Db): Promise<DemoSeedResult> {
  const foreign = await db.tenant.count({ where: { isDemo: false } });
  if (foreign > 0) return { seeded: false, reason: `the database holds ${foreign} non-demo tenant(s); demo data is only seeded into an empty or demo database` };
  const tenant = await ensureTenant(db, {
    name: 'Demo',
    isDemo: true,
    features: ALL_FEATURES_ON,
    workspaceName: 'Atendimento',
    users: Object.fromEntries(Object.entries(DEMO_USERS).map(([k, v]) => [k, [...v]])),
    emailDomain: DEMO_DOMAIN,
    password: DEMO_PASSWORD,
    pauses: ['Lunch', 'Coffee break', 'Training'],
    sectors: ['Support', 'Sales', 'Billing'],
  });
  return { seeded: true, tenant };
}
