import {
  AppError,
  type BodyOf,
  type CannedCategory,
  type CannedResponse,
  type CannedResponseBody,
  type createCannedCategory,
  type createCannedResponse,
  type listCannedResponses,
  type QueryOf,
  type updateCannedCategory,
  type updateCannedResponse,
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
import type { AppContext } from '../../context';
import { pageWindow } from '../../paging';
import type { Session } from '../session/session';
import { alreadyUsed } from './unique';

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

const presentCategory = (c: { id: string; name: string; description: string | null }): CannedCategory => ({
  uuid: c.id,
  name: c.name,
  description: c.description,
});

/**
 * Canned responses and their categories (flag canned_responses): a keyword, and a category label,
 * no other live one has; a response's category, annex and sectors belong to the workspace.
 */
export class CannedService {
  constructor(private readonly ctx: AppContext) {}

  // --- categories ---
  private async findCategory(session: Session, id: string) {
    const row = await findCannedCategory(this.ctx.db, session, id);
    if (!row)
      throw new AppError('canned_category_not_found', 'Category not found', [{ path: 'category_uuid', message: 'Category not found' }]);
    return row;
  }

  private async categoryNameFree(session: Session, name: string, except?: string): Promise<void> {
    const taken = await cannedCategoryNameTaken(this.ctx.db, session, name, except);
    if (taken) throw alreadyUsed('canned_category_name_taken', 'name', 'A category with this label already exists');
  }

  async listCategories(session: Session): Promise<CannedCategory[]> {
    const rows = await listCannedCategoryRows(this.ctx.db, session);
    return rows.map(presentCategory);
  }

  async createCategory(session: Session, body: BodyOf<typeof createCannedCategory>): Promise<CannedCategory> {
    await this.categoryNameFree(session, body.name);
    const row = await insertCannedCategory(this.ctx.db, session, { name: body.name, description: body.description?.trim() || null });
    return presentCategory(row);
  }

  async updateCategory(session: Session, id: string, body: BodyOf<typeof updateCannedCategory>): Promise<CannedCategory> {
    const category = await this.findCategory(session, id);
    if (body.name !== undefined) await this.categoryNameFree(session, body.name, category.id);
    const row = await updateCannedCategoryFields(this.ctx.db, session.tenantId, category.id, {
      name: body.name,
      description: body.description === undefined ? undefined : body.description?.trim() || null,
    });
    return presentCategory(row);
  }

  async removeCategory(session: Session, id: string): Promise<void> {
    const category = await this.findCategory(session, id);
    await softDeleteCannedCategory(this.ctx.db, session.tenantId, category.id);
  }

  // --- responses ---
  private async findCanned(session: Session, id: string) {
    const row = await findCannedResponse(this.ctx.db, session, id);
    if (!row) throw new AppError('canned_response_not_found', 'Canned response not found');
    return row;
  }

  private async keywordFree(session: Session, keyword: string, except?: string): Promise<void> {
    const taken = await cannedKeywordTaken(this.ctx.db, session, keyword, except);
    if (taken) throw alreadyUsed('canned_keyword_taken', 'keyword', 'A canned response with this keyword already exists');
  }

  /** The references of a body, each checked to belong to the caller's workspace (else 404 on that field). */
  private async references(session: Session, body: Partial<CannedResponseBody>) {
    const data: { categoryId?: string | null; annexId?: string | null; sectorIds?: string[] } = {};
    if (body.category_uuid !== undefined)
      data.categoryId = body.category_uuid === null ? null : (await this.findCategory(session, body.category_uuid)).id;
    if (body.annex_uuid !== undefined) {
      const file =
        body.annex_uuid === null
          ? null
          : (await isStoredFileOfTenant(this.ctx.db, session.tenantId, body.annex_uuid))
            ? { id: body.annex_uuid }
            : null;
      if (body.annex_uuid !== null && !file)
        throw new AppError('file_not_found', 'File not found', [{ path: 'annex_uuid', message: 'File not found' }]);
      data.annexId = file?.id ?? null;
    }
    if (body.sector_uuids !== undefined) {
      const wanted = [...new Set(body.sector_uuids)];
      const found = await countLiveSectors(this.ctx.db, session, wanted);
      if (found !== wanted.length)
        throw new AppError('sector_not_found', 'Sector not found', [{ path: 'sector_uuids', message: 'Sector not found' }]);
      data.sectorIds = wanted;
    }
    return data;
  }

  async listResponses(
    session: Session,
    query: QueryOf<typeof listCannedResponses>,
  ): Promise<{ data: CannedResponse[]; pagination: { total: number; limit: number; offset: number } }> {
    const { rows, total } = await listCannedResponsePage(
      this.ctx.db,
      session,
      { keywordContains: query.keyword__contains, categoryId: query.category_uuid },
      pageWindow(query),
    );
    return {
      data: await presentCannedResponses(this.ctx.db, session.tenantId, rows),
      pagination: { total, limit: query._limit, offset: query._offset },
    };
  }

  async createResponse(session: Session, body: BodyOf<typeof createCannedResponse>): Promise<CannedResponse> {
    await this.keywordFree(session, body.keyword);
    const refs = await this.references(session, {
      category_uuid: body.category_uuid ?? null,
      annex_uuid: body.annex_uuid ?? null,
      sector_uuids: body.sector_uuids ?? [],
    });
    const row = await insertCannedResponse(this.ctx.db, session, { keyword: body.keyword, message: body.message, ...refs });
    const [presented] = await presentCannedResponses(this.ctx.db, session.tenantId, [row]);
    return presented!;
  }

  async updateResponse(session: Session, id: string, body: BodyOf<typeof updateCannedResponse>): Promise<CannedResponse> {
    const canned = await this.findCanned(session, id);
    if (body.keyword !== undefined) await this.keywordFree(session, body.keyword, canned.id);
    const refs = await this.references(session, body);
    const row = await updateCannedResponseFields(this.ctx.db, session.tenantId, canned.id, {
      keyword: body.keyword,
      message: body.message,
      ...refs,
    });
    const [presented] = await presentCannedResponses(this.ctx.db, session.tenantId, [row]);
    return presented!;
  }

  async removeResponse(session: Session, id: string): Promise<void> {
    const canned = await this.findCanned(session, id);
    await softDeleteCannedResponse(this.ctx.db, session.tenantId, canned.id);
  }
}
