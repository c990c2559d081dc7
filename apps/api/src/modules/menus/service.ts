import {
  AppError,
  refuseFieldIssues,
  MenuAnswerSchema,
  type AutomatedMenu,
  type BodyOf,
  type createAutomatedMenu,
  type MenuAnswer,
  type updateAutomatedMenu,
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
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';

const storedAnswers = z.array(MenuAnswerSchema);

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

/** Automated menus: their answers, and the channels that enter them. */
export class MenuService {
  constructor(private readonly ctx: AppContext) {}

  private async present(session: Session, rows: MenuRow[]): Promise<AutomatedMenu[]> {
    const channels = await channelsEnteringMenus(
      this.ctx.db,
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

  private async find(session: Session, id: string): Promise<MenuRow> {
    const row = await findMenu(this.ctx.db, session, id);
    if (!row) throw new AppError('menu_not_found', 'Menu not found');
    return row;
  }

  /** The spec's rules, then every sector and menu an answer points to must exist here (and not be the menu itself). */
  private async check(
    session: Session,
    input: { name: string; message: string; invalid_option_message: string; answers: MenuAnswer[] },
    self: string | null,
  ) {
    const issues = menuIssues(input);
    refuseFieldIssues(issues);
    for (const [i, answer] of input.answers.entries()) {
      const path = `answers.${i}.action`;
      if (answer.action.type === 'transfer_to_sector') {
        const sector = await isLiveSector(this.ctx.db, session, answer.action.sector_uuid!);
        if (!sector) throw new AppError('sector_unknown', 'Sector not found', [{ path, message: 'Sector not found' }]);
      }
      if (answer.action.type === 'go_to_menu') {
        const target = answer.action.menu_uuid!;
        const menu = target !== self && (await isLiveMenu(this.ctx.db, session, target));
        if (!menu) throw new AppError('menu_unknown', 'Menu not found', [{ path, message: 'Menu not found' }]);
      }
    }
  }

  async list(session: Session): Promise<AutomatedMenu[]> {
    const rows = await listMenuRows(this.ctx.db, session);
    return this.present(session, rows);
  }

  async create(session: Session, body: BodyOf<typeof createAutomatedMenu>): Promise<AutomatedMenu> {
    await this.check(session, body, null);
    const row = await insertMenu(this.ctx.db, session, {
      name: body.name.trim(),
      message: body.message.trim(),
      invalidOptionMessage: body.invalid_option_message.trim(),
      answers: clean(body.answers),
      enabled: body.enabled,
    });
    return (await this.present(session, [row]))[0]!;
  }

  async update(session: Session, id: string, body: BodyOf<typeof updateAutomatedMenu>): Promise<AutomatedMenu> {
    const current = await this.find(session, id);
    const next = {
      name: body.name ?? current.name,
      message: body.message ?? current.message,
      invalid_option_message: body.invalid_option_message ?? current.invalidOptionMessage,
      answers: body.answers ?? storedAnswers.catch([]).parse(current.answers),
    };
    await this.check(session, next, current.id);
    if (body.enabled === false && current.enabled) {
      const bound = await countChannelsEnteringMenu(this.ctx.db, session.tenantId, current.id);
      if (bound)
        throw new AppError('menu_in_use_disable', 'Menus used by channels cannot be disabled', [
          { path: 'enabled', message: 'Menus used by channels cannot be disabled' },
        ]);
    }
    const row = await updateMenuFields(this.ctx.db, session.tenantId, current.id, {
      name: next.name.trim(),
      message: next.message.trim(),
      invalidOptionMessage: next.invalid_option_message.trim(),
      answers: clean(next.answers),
      ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
    });
    return (await this.present(session, [row]))[0]!;
  }

  /** Soft-deletes a menu no channel enters and no other menu leads to; returns its id. */
  async remove(session: Session, id: string): Promise<string> {
    const current = await this.find(session, id);
    const bound = await countChannelsEnteringMenu(this.ctx.db, session.tenantId, current.id);
    if (bound) throw new AppError('menu_in_use_delete', 'Menus used by channels cannot be deleted');
    const referring = await otherMenuAnswers(this.ctx.db, session, current.id);
    const from = referring.find((m) =>
      storedAnswers
        .catch([])
        .parse(m.answers)
        .some((a) => a.action.type === 'go_to_menu' && a.action.menu_uuid === current.id),
    );
    if (from) throw new AppError('menu_referenced', `The menu "${from.name}" leads to this menu`, undefined, { menu: from.name });
    await softDeleteMenu(this.ctx.db, session.tenantId, current.id);
    return current.id;
  }
}
