import type { Prisma, Tenant } from '../generated/prisma/client';
import type { Db } from './client';
import type { WorkspaceScope } from './workspace';

type Tx = Prisma.TransactionClient;

export type WorkspaceWithTenantRow = Prisma.WorkspaceGetPayload<{ include: { tenant: true } }>;

/** The tenant, or null. */
export function tenantById(db: Pick<Tx, 'tenant'>, id: string): Promise<Tenant | null> {
  return db.tenant.findUnique({ where: { id } });
}

/** Every customer tenant (not the platform's) by name, or only `tenantId` when `onlyTenantId` is given. */
export function listTenantRows(db: Pick<Tx, 'tenant'>, onlyTenantId: string | null): Promise<Tenant[]> {
  return db.tenant.findMany({ where: onlyTenantId === null ? { isPlatform: false } : { id: onlyTenantId }, orderBy: { name: 'asc' } });
}

export function setTenantNameAndConfig(db: Pick<Tx, 'tenant'>, id: string, name: string, config: Prisma.InputJsonValue): Promise<Tenant> {
  return db.tenant.update({ where: { id }, data: { name, config } });
}

/**
 * A new customer: the tenant with its plan, a workspace, a first sector and pause so the desk works
 * at once, and its first admin, in one transaction (a failure leaves nothing half made).
 */
export function createTenantWithAdmin(
  db: Db,
  t: { name: string; config: Prisma.InputJsonValue; admin: { email: string; username: string; passwordHash: string } },
): Promise<Tenant> {
  return db.$transaction(async (tx) => {
    const created = await tx.tenant.create({ data: { name: t.name, config: t.config } });
    const workspace = await tx.workspace.create({ data: { tenantId: created.id, name: 'Atendimento' } });
    await tx.sector.create({
      data: { tenantId: created.id, workspaceId: workspace.id, name: 'Atendimento', slaFirstResponseSeconds: 120, slaSessionSeconds: 1800 },
    });
    await tx.pause.create({ data: { tenantId: created.id, workspaceId: workspace.id, description: 'Almoço' } });
    await tx.user.create({
      data: {
        tenantId: created.id,
        workspaceId: workspace.id,
        email: t.admin.email,
        username: t.admin.username,
        passwordHash: t.admin.passwordHash,
        roles: ['admin'],
      },
    });
    return created;
  });
}

/** The workspace with its tenant, or null. */
export function workspaceWithTenant(db: Pick<Tx, 'workspace'>, ws: WorkspaceScope): Promise<WorkspaceWithTenantRow | null> {
  return db.workspace.findFirst({ where: { id: ws.workspaceId, tenantId: ws.tenantId }, include: { tenant: true } });
}

/** The workspace's stored integrations (JSON), or null when there is no such workspace. */
export async function workspaceIntegrationsIfAny(
  db: Pick<Tx, 'workspace'>,
  ws: WorkspaceScope,
): Promise<{ integrations: Prisma.JsonValue } | null> {
  return db.workspace.findFirst({ where: { id: ws.workspaceId, tenantId: ws.tenantId }, select: { integrations: true } });
}

export interface WorkspaceSettings {
  name?: string | undefined;
  maxConversationPerUser?: number | undefined;
  conversationDeliveryMode?: 'on_demand' | 'round_robin' | 'fifo' | undefined;
  archivedConversationBehaviorOnNewMessages?: 'unarchive' | 'keep_archived' | undefined;
  integrations?: Prisma.InputJsonValue | undefined;
}

/** Changes the given settings (undefined: unchanged); the workspace with its tenant. */
export function updateWorkspaceSettings(
  db: Pick<Tx, 'workspace'>,
  ws: WorkspaceScope,
  settings: WorkspaceSettings,
): Promise<WorkspaceWithTenantRow> {
  return db.workspace.update({ where: { id: ws.workspaceId, tenantId: ws.tenantId }, data: settings, include: { tenant: true } });
}
