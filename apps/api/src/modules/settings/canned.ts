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
import {
  cannedCategoryNameTaken,
  cannedKeywordTaken,
  countLiveSectors,
  findCannedCategory,
  findCannedResponse,
  insertCannedCategory,
  insertCannedResponse,
  isStoredFileOfTenant,
  listCannedCategoryRows,
  listCannedResponsePage,
  liveCannedCategoriesByIds,
  softDeleteCannedCategory,
  softDeleteCannedResponse,
  storedFilesByIds,
  updateCannedCategoryFields,
  updateCannedResponseFields,
  type CannedResponseRow as CannedRow,
  type Db,
} from '@atende/db';
import type { FastifyInstance } from 'fastify';
import { bind, type Access } from '../../bind';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { alreadyUsed } from './unique';
import { pageWindow } from '../../paging';

/** Canned responses as the admin list and the composer read them: category (unless deleted) and annex resolved. */
export async function presentCannedResponses(db: Db, tenantId: string, rows: CannedRow[]): Promise<CannedResponse[]> {
  const ids = <K extends 'categoryId' | 'annexId'>(key: K) => [...new Set(rows.map((r) => r[key]).filter((v): v is string => v !== null))];
  const [categories, annexes] = await Promise.all([
    liveCannedCategoriesByIds(db, tenantId, ids('categoryId')),
    storedFilesByIds(db, tenantId, ids('annexId')),
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
 * Canned responses and their categories (flag canned_responses).
 * guards the screen only by the flag inside the settings area, so supervisors and up manage them;
 * agents read them through GET /api/v1/channels/{id}/canned_responses.
 */
export function cannedRoutes(app: FastifyInstance, ctx: AppContext): void {
  const access: Access = 'settings.canned_responses';
  const presentCategory = (c: { id: string; name: string; description: string | null }): CannedCategory => ({
    uuid: c.id,
    name: c.name,
    description: c.description,
  });

  // --- categories ---
  async function findCategory(session: Session, id: string) {
    const row = await findCannedCategory(ctx.db, session, id);
    if (!row)
      throw new AppError('canned_category_not_found', 'Category not found', [{ path: 'category_uuid', message: 'Category not found' }]);
    return row;
  }
  async function categoryNameFree(session: Session, name: string, except?: string) {
    const taken = await cannedCategoryNameTaken(ctx.db, session, name, except);
    if (taken) throw alreadyUsed('canned_category_name_taken', 'name', 'A category with this label already exists');
  }
  bind(app, listCannedCategories, access, async ({ session }) => {
    const rows = await listCannedCategoryRows(ctx.db, session);
    return { data: rows.map(presentCategory) };
  });
  bind(app, createCannedCategory, access, async ({ session, body }) => {
    await categoryNameFree(session, body.name);
    const row = await insertCannedCategory(ctx.db, session, { name: body.name, description: body.description?.trim() || null });
    return { data: presentCategory(row) };
  });
  bind(app, updateCannedCategory, access, async ({ session, params, body }) => {
    const category = await findCategory(session, params.id);
    if (body.name !== undefined) await categoryNameFree(session, body.name, category.id);
    const row = await updateCannedCategoryFields(ctx.db, session.tenantId, category.id, {
      name: body.name,
      description: body.description === undefined ? undefined : body.description?.trim() || null,
    });
    return { data: presentCategory(row) };
  });
  bind(app, deleteCannedCategory, access, async ({ session, params }) => {
    const category = await findCategory(session, params.id);
    await softDeleteCannedCategory(ctx.db, session.tenantId, category.id);
    return { data: { ok: true as const } };
  });

  // --- responses ---
  async function findCanned(session: Session, id: string) {
    const row = await findCannedResponse(ctx.db, session, id);
    if (!row) throw new AppError('canned_response_not_found', 'Canned response not found');
    return row;
  }
  async function keywordFree(session: Session, keyword: string, except?: string) {
    const taken = await cannedKeywordTaken(ctx.db, session, keyword, except);
    if (taken) throw alreadyUsed('canned_keyword_taken', 'keyword', 'A canned response with this keyword already exists');
  }
  /** The references of a body, each checked to belong to the caller's workspace (else 404 on that field). */
  async function references(session: Session, body: Partial<CannedResponseBody>) {
    const data: { categoryId?: string | null; annexId?: string | null; sectorIds?: string[] } = {};
    if (body.category_uuid !== undefined)
      data.categoryId = body.category_uuid === null ? null : (await findCategory(session, body.category_uuid)).id;
    if (body.annex_uuid !== undefined) {
      const file =
        body.annex_uuid === null
          ? null
          : (await isStoredFileOfTenant(ctx.db, session.tenantId, body.annex_uuid))
            ? { id: body.annex_uuid }
            : null;
      if (body.annex_uuid !== null && !file)
        throw new AppError('file_not_found', 'File not found', [{ path: 'annex_uuid', message: 'File not found' }]);
      data.annexId = file?.id ?? null;
    }
    if (body.sector_uuids !== undefined) {
      const wanted = [...new Set(body.sector_uuids)];
      const found = await countLiveSectors(ctx.db, session, wanted);
      if (found !== wanted.length)
        throw new AppError('sector_not_found', 'Sector not found', [{ path: 'sector_uuids', message: 'Sector not found' }]);
      data.sectorIds = wanted;
    }
    return data;
  }

  bind(app, listCannedResponses, access, async ({ session, query }) => {
    const { rows, total } = await listCannedResponsePage(
      ctx.db,
      session,
      { keywordContains: query.keyword__contains, categoryId: query.category_uuid },
      pageWindow(query),
    );
    return {
      data: await presentCannedResponses(ctx.db, session.tenantId, rows),
      pagination: { total, limit: query._limit, offset: query._offset },
    };
  });
  bind(app, createCannedResponse, access, async ({ session, body }) => {
    await keywordFree(session, body.keyword);
    const refs = await references(session, {
      category_uuid: body.category_uuid ?? null,
      annex_uuid: body.annex_uuid ?? null,
      sector_uuids: body.sector_uuids ?? [],
    });
    const row = await insertCannedResponse(ctx.db, session, { keyword: body.keyword, message: body.message, ...refs });
    const [presented] = await presentCannedResponses(ctx.db, session.tenantId, [row]);
    return { data: presented! };
  });
  bind(app, updateCannedResponse, access, async ({ session, params, body }) => {
    const canned = await findCanned(session, params.id);
    if (body.keyword !== undefined) await keywordFree(session, body.keyword, canned.id);
    const refs = await references(session, body);
    const row = await updateCannedResponseFields(ctx.db, session.tenantId, canned.id, {
      keyword: body.keyword,
      message: body.message,
      ...refs,
    });
    const [presented] = await presentCannedResponses(ctx.db, session.tenantId, [row]);
    return { data: presented! };
  });
  bind(app, deleteCannedResponse, access, async ({ session, params }) => {
    const canned = await findCanned(session, params.id);
    await softDeleteCannedResponse(ctx.db, session.tenantId, canned.id);
    return { data: { ok: true as const } };
  });
}
