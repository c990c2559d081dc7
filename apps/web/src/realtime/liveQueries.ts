import type { QueryClient } from '@tanstack/react-query';

/** What a query may say about itself in `meta`. */
type AtendeQueryMeta = {
  /**
   * Reloaded when realtime events were missed: kept current by them (patched or invalidated), or
   * listed as reloaded on reopen (the agent's data).
   */
  live?: boolean;
};

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: AtendeQueryMeta;
  }
}

/** `meta` of a query the realtime events keep current: it is reloaded when events were missed. */
export const LIVE = { live: true } satisfies AtendeQueryMeta;

/**
 * The socket connected without recovering a session: the first time (the start-up calls were
 * answered before it listened), or again after the api restarted or the tab was away longer than
 * recovery allows. The events sent meanwhile are lost, so every query they keep current is reloaded
 * (on reopen, the agent's data, conversations, queue and pause information). Shown
 * ones refetch now (one still loading starts again), the others when next shown.
 */
export function reloadLiveQueries(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (query) => query.meta?.live === true });
}
