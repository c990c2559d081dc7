import type { Conversation } from '@atende/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { useServerEvent } from '../../realtime/RealtimeProvider';

/** Query keys of the workstation's server state (spec 000 §3 workstation state). */
export const workstationKeys = {
  offered: ['conversations', 'offered', 'me'] as const,
  waitingQueue: ['conversations', 'waiting-queue'] as const,
  dayHistory: (userId: number, start: string, limit: number, offset: number) => ['conversations', 'history', userId, start, limit, offset] as const,
  pauses: ['pauses'] as const,
};

/** The agent's active conversations (answered, outbound-started, closing): GET /api/v1/conversations/offered/me. */
export function useActiveChats() {
  return useQuery({ queryKey: workstationKeys.offered, queryFn: async (): Promise<Conversation[]> => (await api.getOfferedToMe()).data });
}

/** How many contacts wait in the queue: GET /api/v1/conversations/waiting-queue, then live. */
export function useWaitingQueue() {
  return useQuery({ queryKey: workstationKeys.waitingQueue, queryFn: async () => (await api.getWaitingQueue()).data.quantity_waiting_queue });
}

/**
 * Keeps the workstation's queries live (spec 000 §4): conversation events reload the agent's list,
 * waiting-queue events carry the new count.
 */
export function useWorkstationLiveUpdates(): void {
  const queryClient = useQueryClient();
  const reloadActive = () => void queryClient.invalidateQueries({ queryKey: workstationKeys.offered });
  useServerEvent('update-conversation', reloadActive);
  useServerEvent('new-conversation', reloadActive);
  useServerEvent('waiting-queue', ({ quantity_waiting_queue }) => queryClient.setQueryData(workstationKeys.waitingQueue, quantity_waiting_queue));
}
