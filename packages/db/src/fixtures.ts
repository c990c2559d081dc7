import { FEATURE_FLAGS, type FeatureFlag, type Role, type TenantConfig } from '@atende/contract';
import type { Db } from './client';
import { hashPassword } from './password';

export const ALL_FEATURES_ON = Object.fromEntries(FEATURE_FLAGS.map((f) => [f, true])) as Record<FeatureFlag, boolean>;

export interface TenantSpec {
  name: string;
  isDemo?: boolean;
  /** The platform operators' tenant (PLATFORM_TENANT_NAME): the only one whose users may hold tenant_admin. */
  isPlatform?: boolean;
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

/** The name of the platform tenant made for operators (tenant_admin) by the seed, the tests and `pnpm db:platform-admin`. */
export const PLATFORM_TENANT_NAME = 'Platform';

/**
 * Creates (or completes, when it exists by name) a tenant with its workspace, users, pauses and
 * sectors. Used by the demo seed and by tests; running it twice changes nothing. tenant_admin is a
 * platform role: users given it in a customer tenant's spec are made in the platform tenant instead
 * (same e-mail and roles), which is where such operators live.
 */
export async function ensureTenant(db: Db, spec: TenantSpec): Promise<CreatedTenant> {
  const operators = spec.isPlatform
    ? {}
    : Object.fromEntries(Object.entries(spec.users).filter(([, roles]) => roles.includes('tenant_admin')));
  if (Object.keys(operators).length > 0) {
    const customers = Object.fromEntries(Object.entries(spec.users).filter(([local]) => !(local in operators)));
    const platform = await ensureTenant(db, {
      name: PLATFORM_TENANT_NAME,
      isPlatform: true,
      isDemo: spec.isDemo,
      users: operators,
      emailDomain: spec.emailDomain,
      password: spec.password,
    });
    const tenant = await ensureTenant(db, { ...spec, users: customers });
    return { ...tenant, users: { ...tenant.users, ...platform.users } };
  }
  const config: TenantConfig = {
    features: spec.features ?? {},
    flags: {},
    default_country_code: '+55',
    agent: { max_slots: 10 },
    first_steps_completed: false,
  };
  const isPlatform = spec.isPlatform ?? false;
  const tenant =
    (await db.tenant.findFirst({ where: { name: spec.name, isDemo: spec.isDemo ?? false, isPlatform } })) ??
    (await db.tenant.create({ data: { name: spec.name, isDemo: spec.isDemo ?? false, isPlatform, config } }));
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
      (await db.sector.create({
        data: { tenantId: tenant.id, workspaceId: workspace.id, name, slaFirstResponseSeconds: 120, slaSessionSeconds: 1800 },
      }));
    sectors.push({ id: s.id, name: s.name });
  }
  return { tenantId: tenant.id, workspaceId: workspace.id, users, pauses, sectors };
}
