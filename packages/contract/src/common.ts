import { z } from 'zod';
import { fieldMessage } from './field-messages';

export const Uuid = z.uuid();
export const IsoDate = z.iso.datetime({ offset: true });

/** The most rows one page holds; `_limit=0` ("all") gets this many. */
export const PAGE_LIMIT_MAX = 1000;
/** `_limit` / `_offset` paging of every list the spec pages (page sizes 10, 20, 40; default 10). */
export const PageQuery = z.object({
  _limit: z.coerce.number().int().min(0).max(PAGE_LIMIT_MAX).default(10),
  _offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});
export const Pagination = z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int() });

export const dataOf = <T extends z.ZodType>(schema: T) => z.object({ data: schema });
export const pageOf = <T extends z.ZodType>(schema: T) => z.object({ data: z.array(schema), pagination: Pagination });
export const Ok = z.object({ data: z.object({ ok: z.literal(true) }) });

/** Path id that accepts a user's integer id or its uuid. */
export const UserIdParam = z.object({
  id: z.union([z.uuid(), z.string().regex(/^\d{1,9}$/, fieldMessage('id_invalid'))]),
});
export const UuidParam = z.object({ id: z.uuid({ message: fieldMessage('id_invalid') }) });
