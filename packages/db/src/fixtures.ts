import { FEATURE_FLAGS, type FeatureFlag, type Role, type TenantConfig } from '@atende/contract';
import type { Db } from './client';
import { hashPassword } from './password';

export const ALL_FEATURES_ON = Object.fromEntries(FEATURE_FLAGS.map((f) => [f, true])) as Record<FeatureFlag, boolean>;

export interface TenantSpec {
  name: string;
  isDemo?: boolean;
  features?: Partial<Record<FeatureFlag, boolean>>;
  workspaceName?: string;
  /** email local part -> roles; every user gets `password`. */
  users: Record<string, Role[]>;
  emailDomain: string;
  password: string;
  pauses?: string[];
  sectors?: string[];
}

export interface CreatedTenant {
  tenantId: string;
  workspaceId: string;
  users: Record<string, { id: number; uuid: string; email: string }>;
  pauses: { id: string; description: string }[];
  sectors: { id: string; name: string }[];
}

/**
 * Creates (or completes, when it exists by name) a tenant with its workspace, users, pauses and
 * sectors. Used by the demo seed and by tests; running it twice changes nothing.
 */
export async function ensureTenant(db: Db, spec: TenantSpec): Promise<CreatedTenant> {
  const config: TenantConfig = {
    features: spec.features ?? {},
    flags: {},
    default_country_code: '+55',
    agent: { max_slots: 10 },
    first_steps_completed: false,
  };
  const tenant =
    (await db.tenant.findFirst({ where: { name: spec.name, isDemo: spec.isDemo ?? false } })) ??
    (await db.tenant.create({ data: { name: spec.name, isDemo: spec.isDemo ?? false, config } }));
  const workspace =
    (await db.workspace.findFirst({ where: { tenantId: tenant.id } })) ??
    (await db.workspace.create({ data: { tenantId: tenant.id, name: spec.workspaceName ?? 'Atendimento' } }));
  const passwordHash = await hashPassword(spec.password);
  const users: CreatedTenant['users'] = {};
  for (const [local, roles] of Object.entries(spec.users)) {
    const email = `${local}@${spec.emailDomain}`.toLowerCase();
    const username = local.charAt(0).toUpperCase() + local.slice(1).replace(/\d+$/, (n) => ` ${n}`);
    const user = await db.user.upsert({
      where: { tenantId_email: { tenantId: tenant.id, email } },
      create: { tenantId: tenant.id, workspaceId: workspace.id, email, username, passwordHash, roles },
      update: {},
    });
    users[local] = { id: user.id, uuid: user.uuid, email };
  }
  const pauses = [];
  for (const description of spec.pauses ?? []) {
    const p =
      (await db.pause.findFirst({ where: { tenantId: tenant.id, description } })) ??
      (await db.pause.create({ data: { tenantId: tenant.id, workspaceId: workspace.id, description } }));
    pauses.push({ id: p.id, description: p.description });
  }
  const sectors = [];
  for (const name of spec.sectors ?? []) {
    const s =
      (await db.sector.findFirst({ where: { tenantId: tenant.id, name } })) ??
      (await db.sector.create({ data: { tenantId: tenant.id, workspaceId: workspace.id, name, slaFirstResponseSeconds: 120, slaSessionSeconds: 1800 } }));
    sectors.push({ id: s.id, name: s.name });
  }
  return { tenantId: tenant.id, workspaceId: workspace.id, users, pauses, sectors };
}
