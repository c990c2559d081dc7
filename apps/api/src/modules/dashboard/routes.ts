import { getDashboardStats, listDashboardConversations, listSectorSla } from '@atende/contract';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { DashboardService } from './service';

/** Admin dashboard and omnichannel panel: supervisor-level roles. */
export function dashboardRoutes(app: FastifyInstance, dashboard: DashboardService): void {
  bind(app, listDashboardConversations, 'dashboard', async ({ session, query }) =>
    dashboard.conversations(session, { state: query.state, sectorUuid: query.sector_uuid }),
  );
  bind(app, getDashboardStats, 'dashboard', async ({ session, query }) => ({ data: await dashboard.stats(session, query.timezone) }));
  bind(app, listSectorSla, 'dashboard.omnichannel', async ({ session }) => ({ data: await dashboard.sectorSla(session) }));
}
