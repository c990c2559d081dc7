import type { Prisma } from '../generated/prisma/client';
import type { WorkspaceScope } from './workspace';

type Client = Pick<Prisma.TransactionClient, 'automatedMenu' | 'channel'>;

export type MenuRow = Prisma.AutomatedMenuGetPayload<object>;

export interface MenuFields {
  name: string;
  message: string;
  invalidOptionMessage: string;
  answers: Prisma.InputJsonValue;
}

/** The workspace's live menu, or null. */
export function findMenu(db: Client, ws: WorkspaceScope, id: string): Promise<MenuRow | null> {
  return db.automatedMenu.findFirst({ where: { id, tenantId: ws.tenantId, workspaceId: ws.workspaceId, deletedAt: null } });
}

/** The workspace's live menus by name. */
export function listMenuRows(db: Client, ws: WorkspaceScope): Promise<MenuRow[]> {
  return db.automatedMenu.findMany({
    where: { tenantId: ws.tenantId, workspaceId: ws.workspaceId, deletedAt: null },
    orderBy: { name: 'asc' },
  });
}

/** Whether the menu exists in the workspace and is not deleted. */
export async function isLiveMenu(db: Client, ws: WorkspaceScope, id: string): Promise<boolean> {
  return (await db.automatedMenu.count({ where: { id, tenantId: ws.tenantId, workspaceId: ws.workspaceId, deletedAt: null } })) > 0;
}

/** The names and answers of the workspace's other live menus (to find one leading to `exceptId`). */
export function otherMenuAnswers(db: Client, ws: WorkspaceScope, exceptId: string): Promise<{ name: string; answers: Prisma.JsonValue }[]> {
  return db.automatedMenu.findMany({
    where: { tenantId: ws.tenantId, workspaceId: ws.workspaceId, deletedAt: null, id: { not: exceptId } },
    select: { name: true, answers: true },
  });
}

/** The live channels that open with one of these menus. */
export function channelsEnteringMenus(
  db: Client,
  tenantId: string,
  menuIds: readonly string[],
): Promise<{ id: string; name: string; entryMenuId: string | null }[]> {
  if (menuIds.length === 0) return Promise.resolve([]);
  return db.channel.findMany({
    where: { tenantId, entryMenuId: { in: [...menuIds] }, deletedAt: null },
    select: { id: true, name: true, entryMenuId: true },
  });
}

/** How many live channels open with the menu. */
export function countChannelsEnteringMenu(db: Client, tenantId: string, menuId: string): Promise<number> {
  return db.channel.count({ where: { tenantId, entryMenuId: menuId, deletedAt: null } });
}

export function insertMenu(db: Client, ws: WorkspaceScope, fields: MenuFields & { enabled: boolean }): Promise<MenuRow> {
  return db.automatedMenu.create({ data: { tenantId: ws.tenantId, workspaceId: ws.workspaceId, ...fields } });
}

export function updateMenuFields(db: Client, tenantId: string, id: string, fields: MenuFields & { enabled?: boolean }): Promise<MenuRow> {
  return db.automatedMenu.update({ where: { id, tenantId }, data: fields });
}

/** Deletes (softly) and disables the menu. */
export async function softDeleteMenu(db: Client, tenantId: string, id: string): Promise<void> {
  await db.automatedMenu.update({ where: { id, tenantId }, data: { deletedAt: new Date(), enabled: false } });
}

/** An enabled, live menu of the tenant (what a channel or a menu answer may lead to), if any. */
export function enabledMenu(db: Client, tenantId: string, menuId: string) {
  return db.automatedMenu.findFirst({ where: { id: menuId, tenantId, enabled: true, deletedAt: null } });
}

/** A live menu of the tenant, enabled or not (the one a conversation is already in). */
export function liveMenu(db: Client, tenantId: string, menuId: string) {
  return db.automatedMenu.findFirst({ where: { id: menuId, tenantId, deletedAt: null } });
}
