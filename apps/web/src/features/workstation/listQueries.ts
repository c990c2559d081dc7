import type { Conversation } from '@atende/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { LIVE } from '../../realtime/liveQueries';

// Apart from queries.ts (the workstation's hooks and live updates): the app's entry prefetches these
// at start-up on the agent's screen, so it must not pull the workstation's code.

/** Query keys of the workstation's server state (workstation state). */
export const workstationKeys = {
  offered: ['conversations', 'offered', 'me'] as const,
  waitingQueue: ['conversations', 'waiting-queue'] as const,
  messages: (conversationUuid: string) => ['messages', conversationUuid] as const,
  dayHistory: (userId: number, start: string, limit: number, offset: number) =>
    ['conversations', 'history', userId, start, limit, offset] as const,
  pauses: ['pauses'] as const,
  reasons: ['conversation-reasons'] as const,
  transferDestinations: ['conversations', 'transfer-destinations'] as const,
};

/**
 * Kept current by the realtime events (and reloaded when the socket may have missed some), so not
 * fetched again when the screen mounts right after the start-up prefetch.
 */
const LIVE_STALE_MS = 30_000;

/** What the agent's list shows first: one definition for the hooks and the start-up prefetch. */
export const workstationQueries = {
  /** The agent's active conversations (answered, outbound-started, closing): GET /api/v1/conversations/offered/me. */
  offered: queryOptions({
    queryKey: workstationKeys.offered,
    queryFn: async (): Promise<Conversation[]> => (await api.getOfferedToMe()).data,
    staleTime: LIVE_STALE_MS,
    meta: LIVE,
  }),
  /** How many contacts wait in the queue: GET /api/v1/conversations/waiting-queue, then live. */
  waitingQueue: queryOptions({
    queryKey: workstationKeys.waitingQueue,
    queryFn: async () => (await api.getWaitingQueue()).data.quantity_waiting_queue,
    staleTime: LIVE_STALE_MS,
    meta: LIVE,
  }),
};
