import {
  AppError,
  createCannedCategory,
  createCannedResponse,
  deleteCannedCategory,
  deleteCannedResponse,
  listCannedCategories,
  listCannedResponses,
  updateCannedCategory,
  updateCannedResponse,
  type CannedCategory,
  type CannedResponse,
  type CannedResponseBody,
} from '@atende/contract';
import { scoped, type Prisma, type ScopedDb } from '@atende/db';
import type { FastifyInstance } from 'fastify';
import { bind, type Access } from '../../bind';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { alreadyUsed, softDeleted } from './unique';
import { pageWindow } from '../../paging';

type CannedRow = Prisma.CannedResponseGetPayload<object>;

/** Canned responses as the admin list and the composer read them: category (unless deleted) and annex resolved. */
export async function presentCannedResponses(db: ScopedDb, rows: CannedRow[]): Promise<CannedResponse[]> {
  const ids = <K extends 'categoryId' | 'annexId'>(key: K) => [...new Set(rows.map((r) => r[key]).filter((v): v is string => v !== null))];
  const [categories, annexes] = await Promise.all([
    db.cannedResponseCategory.findMany({ where: { id: { in: ids('categoryId') }, deletedAt: null } }),
    db.storedFile.findMany({ where: { id: { in: ids('annexId') } } }),
  ]);
  return rows.map((r) => {
    const category = categories.find((c) => c.id === r.categoryId);
    const annex = annexes.find((a) => a.id === r.annexId);
    return {
      uuid: r.id,
      keyword: r.keyword,
      message: r.message,
      category: category ? { uuid: category.id, name: category.name, description: category.description } : null,
      annex: annex ? { uuid: annex.id, original_filename: annex.originalFilename, uri: `/api/v1/storage/files/${annex.id}` } : null,
      sector_uuids: r.sectorIds,
    };
  });
}

/**
 * Canned responses and their categories (spec 002 §3, §5, §7; flag canned_responses). Spec 002 §2
 * guards the screen only by the flag inside the settings area, so supervisors and up manage them;
 * agents read them through GET /api/v1/channels/{id}/canned_responses.
 */
export function cannedRoutes(app: FastifyInstance, ctx: AppContext): void {
  const access: Access = 'settings.canned_responses';
  const db = (session: Session) => scoped(ctx.db, session);
  const inWorkspace = (session: Session) => ({ workspaceId: session.workspaceId, deletedAt: null });
  const presentCategory = (c: { id: string; name: string; description: string | null }): CannedCategory => ({
    uuid: c.id,
    name: c.name,
    description: c.description,
  });

  // --- categories ---
  async function findCategory(session: Session, id: string) {
    const row = await db(session).cannedResponseCategory.findFirst({ where: { ...inWorkspace(session), id } });
    if (!row) throw new AppError('not_found', 'Category not found', [{ path: 'category_uuid', message: 'Category not found' }]);
    return row;
  }
  async function categoryNameFree(session: Session, name: string, except?: string) {
    const taken = await db(session).cannedResponseCategory.findFirst({
      where: { ...inWorkspace(session), name: { equals: name, mode: 'insensitive' }, ...(except ? { NOT: { id: except } } : {}) },
    });
    if (taken) throw alreadyUsed('name', 'A category with this label already exists');
  }
  bind(app, listCannedCategories, access, async ({ session }) => {
    const rows = await db(session).cannedResponseCategory.findMany({
      where: inWorkspace(session),
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
    });
    return { data: rows.map(presentCategory) };
  });
  bind(app, createCannedCategory, access, async ({ session, body }) => {
    await categoryNameFree(session, body.name);
    const row = await db(session).cannedResponseCategory.create({
      data: {
        tenantId: session.tenantId,
        workspaceId: session.workspaceId,
        name: body.name,
        description: body.description?.trim() || null,
      },
    });
    return { data: presentCategory(row) };
  });
  bind(app, updateCannedCategory, access, async ({ session, params, body }) => {
    const category = await findCategory(session, params.id);
    if (body.name !== undefined) await categoryNameFree(session, body.name, category.id);
    const row = await db(session).cannedResponseCategory.update({
      where: { id: category.id },
      data: { name: body.name, description: body.description === undefined ? undefined : body.description?.trim() || null },
    });
    return { data: presentCategory(row) };
  });
  bind(app, deleteCannedCategory, access, async ({ session, params }) => {
    const category = await findCategory(session, params.id);
    await ctx.db.$transaction([
      ctx.db.cannedResponse.updateMany({ where: { tenantId: session.tenantId, categoryId: category.id }, data: { categoryId: null } }),
      ctx.db.cannedResponseCategory.update({ where: { id: category.id, tenantId: session.tenantId }, data: softDeleted() }),
    ]);
    return { data: { ok: true as const } };
  });

  // --- responses ---
  async function findCanned(session: Session, id: string) {
    const row = await db(session).cannedResponse.findFirst({ where: { ...inWorkspace(session), id } });
    if (!row) throw new AppError('not_found', 'Canned response not found');
    return row;
  }
  async function keywordFree(session: Session, keyword: string, except?: string) {
    const taken = await db(session).cannedResponse.findFirst({
      where: { ...inWorkspace(session), keyword: { equals: keyword, mode: 'insensitive' }, ...(except ? { NOT: { id: except } } : {}) },
    });
    if (taken) throw alreadyUsed('keyword', 'A canned response with this keyword already exists');
  }
  /** The references of a body, each checked to belong to the caller's workspace (else 404 on that field). */
  async function references(session: Session, body: Partial<CannedResponseBody>) {
    const data: { categoryId?: string | null; annexId?: string | null; sectorIds?: string[] } = {};
    if (body.category_uuid !== undefined)
      data.categoryId = body.category_uuid === null ? null : (await findCategory(session, body.category_uuid)).id;
    if (body.annex_uuid !== undefined) {
      const file =
        body.annex_uuid === null ? null : await db(session).storedFile.findFirst({ where: { id: body.annex_uuid }, select: { id: true } });
      if (body.annex_uuid !== null && !file)
        throw new AppError('not_found', 'File not found', [{ path: 'annex_uuid', message: 'File not found' }]);
      data.annexId = file?.id ?? null;
    }
    if (body.sector_uuids !== undefined) {
      const wanted = [...new Set(body.sector_uuids)];
      const found = await db(session).sector.count({ where: { workspaceId: session.workspaceId, deletedAt: null, id: { in: wanted } } });
      if (found !== wanted.length)
        throw new AppError('not_found', 'Sector not found', [{ path: 'sector_uuids', message: 'Sector not found' }]);
      data.sectorIds = wanted;
    }
    return data;
  }

  bind(app, listCannedResponses, access, async ({ session, query }) => {
    const where: Prisma.CannedResponseWhereInput = {
      ...inWorkspace(session),
      ...(query.keyword__contains ? { keyword: { contains: query.keyword__contains, mode: 'insensitive' as const } } : {}),
      ...(query.category_uuid ? { categoryId: query.category_uuid } : {}),
    };
    const [rows, total] = await Promise.all([
      db(session).cannedResponse.findMany({
        where,
        orderBy: [{ keyword: 'asc' }, { id: 'asc' }],
        ...pageWindow(query),
      }),
      db(session).cannedResponse.count({ where }),
    ]);
    return { data: await presentCannedResponses(db(session), rows), pagination: { total, limit: query._limit, offset: query._offset } };
  });
  bind(app, createCannedResponse, access, async ({ session, body }) => {
    await keywordFree(session, body.keyword);
    const refs = await references(session, {
      category_uuid: body.category_uuid ?? null,
      annex_uuid: body.annex_uuid ?? null,
      sector_uuids: body.sector_uuids ?? [],
    });
    const row = await db(session).cannedResponse.create({
      data: { tenantId: session.tenantId, workspaceId: session.workspaceId, keyword: body.keyword, message: body.message, ...refs },
    });
    const [presented] = await presentCannedResponses(db(session), [row]);
    return { data: presented! };
  });
  bind(app, updateCannedResponse, access, async ({ session, params, body }) => {
    const canned = await findCanned(session, params.id);
    if (body.keyword !== undefined) await keywordFree(session, body.keyword, canned.id);
    const refs = await references(session, body);
    const row = await db(session).cannedResponse.update({
      where: { id: canned.id },
      data: { keyword: body.keyword, message: body.message, ...refs },
    });
    const [presented] = await presentCannedResponses(db(session), [row]);
    return { data: presented! };
  });
  bind(app, deleteCannedResponse, access, async ({ session, params }) => {
    const canned = await findCanned(session, params.id);
    await db(session).cannedResponse.update({ where: { id: canned.id }, data: softDeleted() });
    return { data: { ok: true as const } };
  });
}
