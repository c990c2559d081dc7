import {
  AppError,
  TenantConfigSchema,
  type BodyOf,
  type createTenant,
  type Tenant as TenantDto,
  type Workspace as WorkspaceDto,
} from '@atende/contract';
import { announceCampaign, stopCampaigns } from '@atende/conversations';
import { roleCovers } from '@atende/core';
import {
  createTenantWithAdmin,
  hashPassword,
  listTenantRows,
  setTenantNameAndConfig,
  tenantById,
  updateWorkspaceSettings,
  withTransaction,
  workspaceIntegrationsIfAny,
  workspaceWithTenant,
  type Prisma,
  type WorkspaceWithTenantRow as WorkspaceRow,
} from '@atende/db';
import type { AppContext } from '../../context';
import { tenantConfigOf, type Session } from '../session/session';

type TenantRow = { id: string; name: string; config: unknown };

export const presentTenant = (t: TenantRow): TenantDto => ({ uuid: t.id, name: t.name, config: tenantConfigOf(t.config) });

const presentWorkspace = (w: WorkspaceRow): WorkspaceDto => ({
  uuid: w.id,
  name: w.name,
  tenant: { uuid: w.tenant.id, name: w.tenant.name },
  max_conversation_per_user: w.maxConversationPerUser,
  conversation_delivery_mode: w.conversationDeliveryMode,
  archived_conversation_behavior_on_new_messages:
    w.archivedConversationBehaviorOnNewMessages === 'keep_archived' ? 'keep_archived' : 'unarchive',
  // The sealed tokens of droz and Zapier never leave the server (GET /api/v1/workspaces/me/integrations tells whether they are set).
  integrations: Object.fromEntries(
    Object.entries((w.integrations ?? {}) as Record<string, unknown>).filter(([k]) => k !== 'sealed_tokens'),
  ),
});

/** Integrations with their own checked endpoint (PUT /api/v1/workspaces/me/integrations): not writable here. */
const MANAGED_INTEGRATIONS = ['droz', 'zapier', 'voice_phone', 'sealed_tokens'];

/** Holds the tenant_admin role itself: the one role whose reach crosses tenants ("tenants section"). */
const managesEveryTenant = (session: Session): boolean => session.roles.includes('tenant_admin');

export type TenantConfigPatch = {
  name?: string;
  features?: Partial<Record<string, boolean>>;
  flags?: Record<string, boolean | string | number>;
  default_country_code?: string;
  agent?: { max_slots: number };
  first_steps_completed?: boolean;
};

export class TenantService {
  constructor(private readonly ctx: AppContext) {}

  async mine(session: Session) {
    const tenant = await tenantById(this.ctx.db, session.tenantId);
    if (!tenant) throw new AppError('tenant_not_found', 'Tenant not found');
    return presentTenant(tenant);
  }

  /**
   * tenant_admin manages every tenant; everybody else sees only their own, others answer 404. The
   * role itself is required: admin and owner cover every check inside their tenant,
   * but an admin of one tenant is nobody in another.
   */
  private async visible(session: Session, id: string) {
    const tenant = await tenantById(this.ctx.db, id);
    // The platform tenant is nobody's customer: only its own users see it.
    const reachable = tenant && (tenant.id === session.tenantId || (managesEveryTenant(session) && !tenant.isPlatform));
    if (!tenant || !reachable) throw new AppError('tenant_not_found', 'Tenant not found');
    return tenant;
  }

  async get(session: Session, id: string) {
    return presentTenant(await this.visible(session, id));
  }

  async list(session: Session) {
    const tenants = await listTenantRows(this.ctx.db, managesEveryTenant(session) ? null : session.tenantId);
    return tenants.map(presentTenant);
  }

  async configure(session: Session, id: string, patch: TenantConfigPatch) {
    const tenant = await this.visible(session, id);
    const own = tenant.id === session.tenantId && roleCovers(session.roles, 'admin');
    if (!own && !managesEveryTenant(session)) throw new AppError('forbidden', 'You do not have permission to do this');
    // The plan (feature flags, agent slots) is the platform's to set, not the customer's.
    if (!managesEveryTenant(session) && (patch.features !== undefined || patch.agent !== undefined)) {
      throw new AppError('plan_locked', "The plan's features and agent slots are changed by the platform's administrators");
    }
    const current = tenantConfigOf(tenant.config);
    const next = TenantConfigSchema.parse({
      ...current,
      features: { ...current.features, ...patch.features },
      flags: { ...current.flags, ...patch.flags },
      default_country_code: patch.default_country_code ?? current.default_country_code,
      agent: patch.agent ?? current.agent,
      first_steps_completed: patch.first_steps_completed ?? current.first_steps_completed,
    });
    // Switching campaigns off stops what runs behind the flag, in the same write.
    const campaignsOff = current.features.outbound_campaign === true && next.features.outbound_campaign !== true;
    const { updated, stopped } = await withTransaction(this.ctx.db, async (tx) => ({
      updated: await setTenantNameAndConfig(tx, tenant.id, patch.name ?? tenant.name, next),
      stopped: campaignsOff ? await stopCampaigns(tx, { tenantId: tenant.id }) : [],
    }));
    for (const id of stopped) await announceCampaign(this.ctx, id);
    return presentTenant(updated);
  }

  /**
   * A new customer from the tenants screen (tenant_admin only): the tenant with its
   * plan, a workspace, a first sector and pause so the desk works at once, and its first admin, in one
   * transaction (a failure leaves nothing half made).
   */
  async create(session: Session, body: BodyOf<typeof createTenant>) {
    if (!managesEveryTenant(session)) throw new AppError('forbidden', 'You do not have permission to do this');
    const config = TenantConfigSchema.parse({
      features: body.features ?? {},
      default_country_code: body.default_country_code ?? '+55',
      agent: body.agent ?? { max_slots: 10 },
    });
    const passwordHash = await hashPassword(body.admin.password);
    const tenant = await createTenantWithAdmin(this.ctx.db, {
      name: body.name,
      config,
      admin: { email: body.admin.email, username: body.admin.username, passwordHash },
    });
    return presentTenant(tenant);
  }

  async myWorkspace(session: Session) {
    const ws = await workspaceWithTenant(this.ctx.db, session);
    if (!ws) throw new AppError('workspace_not_found', 'Workspace not found');
    return presentWorkspace(ws);
  }

  async updateMyWorkspace(
    session: Session,
    patch: {
      name?: string;
      max_conversation_per_user?: number;
      conversation_delivery_mode?: 'on_demand' | 'round_robin' | 'fifo';
      archived_conversation_behavior_on_new_messages?: 'unarchive' | 'keep_archived';
      integrations?: Record<string, unknown>;
    },
  ) {
    if (patch.integrations && !roleCovers(session.roles, 'admin')) {
      throw new AppError('integrations_admin_only', 'Only admins can change integrations');
    }
    const managed = Object.keys(patch.integrations ?? {}).find((k) => MANAGED_INTEGRATIONS.includes(k));
    if (managed) {
      const message = `Change ${managed} through /api/v1/workspaces/me/integrations`;
      throw new AppError(
        'tenant_integration_managed',
        message,
        [{ path: `integrations.${managed}`, message, code: 'tenant_integration_managed', params: { integration: managed } }],
        { integration: managed },
      );
    }
    const current = await workspaceIntegrationsIfAny(this.ctx.db, session);
    if (!current) throw new AppError('workspace_not_found', 'Workspace not found');
    const ws = await updateWorkspaceSettings(this.ctx.db, session, {
      name: patch.name,
      maxConversationPerUser: patch.max_conversation_per_user,
      conversationDeliveryMode: patch.conversation_delivery_mode,
      archivedConversationBehaviorOnNewMessages: patch.archived_conversation_behavior_on_new_messages,
      integrations: patch.integrations
        ? ({ ...(current.integrations as object), ...patch.integrations } as Prisma.InputJsonValue)
        : undefined,
    });
    return presentWorkspace(ws);
  }
}
