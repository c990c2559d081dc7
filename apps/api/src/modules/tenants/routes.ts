import { configureTenant, createTenant, getMyTenant, getMyWorkspace, getTenant, listTenants, updateMyWorkspace } from '@atende/contract';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { TenantService } from './service';

export function tenantRoutes(app: FastifyInstance, tenants: TenantService): void {
  bind(app, getMyTenant, 'signed_in', async ({ session }) => ({ data: await tenants.mine(session) }));
  bind(app, listTenants, 'tenants', async ({ session }) => ({ data: await tenants.list(session) }));
  bind(app, createTenant, 'tenants.configure', async ({ session, body }) => ({ data: await tenants.create(session, body) }));
  bind(app, getTenant, 'signed_in', async ({ session, params }) => ({ data: await tenants.get(session, params.id) }));
  bind(app, configureTenant, 'tenants.configure', async ({ session, params, body }) => ({
    data: await tenants.configure(session, params.id, body),
  }));
  bind(app, getMyWorkspace, 'signed_in', async ({ session }) => ({ data: await tenants.myWorkspace(session) }));
  bind(app, updateMyWorkspace, 'settings.workspace.write', async ({ session, body }) => ({
    data: await tenants.updateMyWorkspace(session, body),
  }));
}
