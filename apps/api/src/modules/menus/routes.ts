import {
  AppError,
  createAutomatedMenu,
  deleteAutomatedMenu,
  listAutomatedMenus,
  MenuAnswerSchema,
  updateAutomatedMenu,
  type AutomatedMenu,
  type MenuAnswer,
} from '@atende/contract';
import { menuIssues } from '@atende/core';
import {
  channelsEnteringMenus,
  countChannelsEnteringMenu,
  findMenu,
  insertMenu,
  isLiveMenu,
  isLiveSector,
  listMenuRows,
  otherMenuAnswers,
  softDeleteMenu,
  updateMenuFields,
  type MenuRow,
} from '@atende/db';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';

const storedAnswers = z.array(MenuAnswerSchema);

/** Automated menus (/api/v1/automated-menus): supervisors read, admins write. */
export function menuRoutes(app: FastifyInstance, ctx: AppContext): void {
  async function present(session: Session, rows: MenuRow[]): Promise<AutomatedMenu[]> {
    const channels = await channelsEnteringMenus(
      ctx.db,
      session.tenantId,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({
      uuid: r.id,
      name: r.name,
      message: r.message,
      invalid_option_message: r.invalidOptionMessage,
      answers: storedAnswers.catch([]).parse(r.answers),
      enabled: r.enabled,
      channels: channels.filter((c) => c.entryMenuId === r.id).map((c) => ({ uuid: c.id, name: c.name })),
      created_at: r.createdAt.toISOString(),
    }));
  }

  async function find(session: Session, id: string): Promise<MenuRow> {
    const row = await findMenu(ctx.db, session, id);
    if (!row) throw new AppError('menu_not_found', 'Menu not found');
    return row;
  }

  /** The spec's rules, then every sector and menu an answer points to must exist here (and not be the menu itself). */
  async function check(
    session: Session,
    input: { name: string; message: string; invalid_option_message: string; answers: MenuAnswer[] },
    self: string | null,
  ) {
    const issues = menuIssues(input);
    if (issues.length) throw new AppError('validation_failed', issues[0]!.message, issues);
    for (const [i, answer] of input.answers.entries()) {
      const path = `answers.${i}.action`;
      if (answer.action.type === 'transfer_to_sector') {
        const sector = await isLiveSector(ctx.db, session, answer.action.sector_uuid!);
        if (!sector) throw new AppError('sector_unknown', 'Sector not found', [{ path, message: 'Sector not found' }]);
      }
      if (answer.action.type === 'go_to_menu') {
        const target = answer.action.menu_uuid!;
        const menu = target !== self && (await isLiveMenu(ctx.db, session, target));
        if (!menu) throw new AppError('menu_unknown', 'Menu not found', [{ path, message: 'Menu not found' }]);
      }
    }
  }
  const clean = (answers: MenuAnswer[]) =>
    answers.map((a) => ({
      key: a.key.trim(),
      label: a.label.trim(),
      action: {
        type: a.action.type,
        ...(a.action.type === 'transfer_to_sector' ? { sector_uuid: a.action.sector_uuid } : {}),
        ...(a.action.type === 'go_to_menu' ? { menu_uuid: a.action.menu_uuid } : {}),
        ...(a.action.message?.trim() ? { message: a.action.message.trim() } : {}),
      },
    }));

  bind(app, listAutomatedMenus, 'settings.menus.read', async ({ session }) => {
    const rows = await listMenuRows(ctx.db, session);
    return { data: await present(session, rows) };
  });

  bind(app, createAutomatedMenu, 'settings.menus.write', async ({ session, body }) => {
    await check(session, body, null);
    const row = await insertMenu(ctx.db, session, {
      name: body.name.trim(),
      message: body.message.trim(),
      invalidOptionMessage: body.invalid_option_message.trim(),
      answers: clean(body.answers),
      enabled: body.enabled,
    });
    return { data: (await present(session, [row]))[0]! };
  });

  bind(app, updateAutomatedMenu, 'settings.menus.write', async ({ session, params, body }) => {
    const current = await find(session, params.id);
    const next = {
      name: body.name ?? current.name,
      message: body.message ?? current.message,
      invalid_option_message: body.invalid_option_message ?? current.invalidOptionMessage,
      answers: body.answers ?? storedAnswers.catch([]).parse(current.answers),
    };
    await check(session, next, current.id);
    if (body.enabled === false && current.enabled) {
      const bound = await countChannelsEnteringMenu(ctx.db, session.tenantId, current.id);
      if (bound)
        throw new AppError('menu_in_use_disable', 'Menus used by channels cannot be disabled', [
          { path: 'enabled', message: 'Menus used by channels cannot be disabled' },
        ]);
    }
    const row = await updateMenuFields(ctx.db, session.tenantId, current.id, {
      name: next.name.trim(),
      message: next.message.trim(),
      invalidOptionMessage: next.invalid_option_message.trim(),
      answers: clean(next.answers),
      ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
    });
    return { data: (await present(session, [row]))[0]! };
  });

  bind(app, deleteAutomatedMenu, 'settings.menus.write', async ({ session, params }) => {
    const current = await find(session, params.id);
    const bound = await countChannelsEnteringMenu(ctx.db, session.tenantId, current.id);
    if (bound) throw new AppError('menu_in_use_delete', 'Menus used by channels cannot be deleted');
    const referring = await otherMenuAnswers(ctx.db, session, current.id);
    const from = referring.find((m) =>
      storedAnswers
        .catch([])
        .parse(m.answers)
        .some((a) => a.action.type === 'go_to_menu' && a.action.menu_uuid === current.id),
    );
    if (from) throw new AppError('menu_referenced', `The menu "${from.name}" leads to this menu`, undefined, { menu: from.name });
    await softDeleteMenu(ctx.db, session.tenantId, current.id);
    return { data: { uuid: current.id } };
  });
}
