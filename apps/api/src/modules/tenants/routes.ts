import { configureTenant, getMyTenant, getMyWorkspace, getTenant, listTenants, updateMyWorkspace } from '@atende/contract';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { TenantService } from './service';

export function tenantRoutes(app: FastifyInstance, tenants: TenantService): void {
  bind(app, getMyTenant, {}, async ({ session }) => ({ data: await tenants.mine(session) }));
  bind(app, listTenants, { roles: ['tenant_admin'] }, async ({ session }) => ({ data: await tenants.list(session) }));
  bind(app, getTenant, {}, async ({ session, params }) => ({ data: await tenants.get(session, params.id) }));
  bind(app, configureTenant, { roles: ['tenant_admin', 'admin'], fresh: true }, async ({ session, params, body }) => ({
    data: await tenants.configure(session, params.id, body),
  }));
  bind(app, getMyWorkspace, {}, async ({ session }) => ({ data: await tenants.myWorkspace(session) }));
  bind(app, updateMyWorkspace, { roles: ['manager'] }, async ({ session, body }) => ({
    data: await tenants.updateMyWorkspace(session, body),
  }));
}
