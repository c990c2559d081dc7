import { rooms } from '@atende/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api } from '../../api/client';
import { LIVE } from '../../realtime/liveQueries';
import { useRoom, useServerEvent } from '../../realtime/RealtimeProvider';
import { useMe } from '../../session/session';

export const dashboardKeys = {
  all: ['dashboard'] as const,
  conversations: ['dashboard', 'conversations'] as const,
  stats: (timezone: string) => ['dashboard', 'stats', timezone] as const,
  sectors: ['dashboard', 'sectors'] as const,
};

/** The browser's IANA zone: "today" on the dashboard is the viewer's day. */
export const viewerTimezone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** How long a burst of conversation events is gathered before the figures are fetched again. */
const REFRESH_DEBOUNCE_MS = 750;

/**
 * Joins tenant_{uuid}_metrics and refetches every dashboard query when a conversation starts or
 * changes there (bursts collapse into one refetch); a 30 s poll keeps SLA ages moving between events.
 */
export function useDashboardLive(): void {
  const me = useMe().data;
  const queryClient = useQueryClient();
  useRoom(me ? rooms.metrics(me.workspace.tenant.uuid) : null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const schedule = () => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      void queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
    }, REFRESH_DEBOUNCE_MS);
  };
  useServerEvent('new-conversation', schedule);
  useServerEvent('update-conversation', schedule);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
}

const POLL_MS = 30_000;

export const useDashboardConversations = () =>
  useQuery({
    queryKey: dashboardKeys.conversations,
    queryFn: async () => api.listDashboardConversations({ query: {} }),
    refetchInterval: POLL_MS,
    meta: LIVE,
  });

export const useDashboardStats = () => {
  const timezone = viewerTimezone();
  return useQuery({
    queryKey: dashboardKeys.stats(timezone),
    queryFn: async () => (await api.getDashboardStats({ query: { timezone } })).data,
    refetchInterval: POLL_MS,
    meta: LIVE,
  });
};

export const useSectorSla = () =>
  useQuery({
    queryKey: dashboardKeys.sectors,
    queryFn: async () => (await api.listSectorSla({})).data,
    refetchInterval: POLL_MS,
    meta: LIVE,
  });
