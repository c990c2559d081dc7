import { getDashboardStats, listDashboardConversations, listSectorSla } from '@atende/contract';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { DashboardService } from './service';

/** Admin dashboard and omnichannel panel (spec 002 §2, §3): supervisor-level roles (spec 002 §6). */
export function dashboardRoutes(app: FastifyInstance, dashboard: DashboardService): void {
  bind(app, listDashboardConversations, 'dashboard', async ({ session, query }) =>
    dashboard.conversations(session, { state: query.state, sectorUuid: query.sector_uuid }),
  );
  bind(app, getDashboardStats, 'dashboard', async ({ session, query }) => ({ data: await dashboard.stats(session, query.timezone) }));
  bind(app, listSectorSla, 'dashboard.omnichannel', async ({ session }) => ({ data: await dashboard.sectorSla(session) }));
}
