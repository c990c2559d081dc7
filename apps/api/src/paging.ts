import { PAGE_LIMIT_MAX } from '@atende/contract';

/**
 * The rows a list page reads. `_limit=0` asks for "all" (the wizard's supporting lists):
 * it gets the most a page may hold, so no list ever answers unbounded.
 */
export const pageWindow = (query: { _limit: number; _offset: number }) => ({
  take: query._limit > 0 ? query._limit : PAGE_LIMIT_MAX,
  skip: query._offset,
});
