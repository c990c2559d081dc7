import { createAutomatedMenu, deleteAutomatedMenu, listAutomatedMenus, updateAutomatedMenu } from '@atende/contract';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import { MenuService } from './service';

/** Automated menus (/api/v1/automated-menus): supervisors read, admins write. */
export function menuRoutes(app: FastifyInstance, ctx: AppContext): void {
  const menus = new MenuService(ctx);

  bind(app, listAutomatedMenus, 'settings.menus.read', async ({ session }) => ({ data: await menus.list(session) }));

  bind(app, createAutomatedMenu, 'settings.menus.write', async ({ session, body }) => ({ data: await menus.create(session, body) }));

  bind(app, updateAutomatedMenu, 'settings.menus.write', async ({ session, params, body }) => ({
    data: await menus.update(session, params.id, body),
  }));

  bind(app, deleteAutomatedMenu, 'settings.menus.write', async ({ session, params }) => ({
    data: { uuid: await menus.remove(session, params.id) },
  }));
}
