import { rooms, type Template, type TemplateCategory } from '@atende/contract';
import { isTemplateChannel } from '@atende/core';
import { keepPreviousData, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { api } from '../../api/client';
import { LIVE } from '../../realtime/liveQueries';
import { useRoom, useServerEvent } from '../../realtime/RealtimeProvider';
import { useMe } from '../../session/session';

/** The template list reloads itself every 300000 ms. */
export const TEMPLATE_LIST_REFRESH_MS = 300_000;

export interface TemplateFilters {
  channel_uuid?: string;
  category?: TemplateCategory;
  name__contains?: string;
  limit: number;
  offset: number;
}

export const templateKeys = {
  all: ['templates'] as const,
  list: (filters: TemplateFilters) => ['templates', 'list', filters] as const,
  channels: ['channels', 'templates'] as const,
};

type TemplatePage = { data: Template[]; pagination: { total: number; limit: number; offset: number } };

export function useTemplates(filters: TemplateFilters) {
  return useQuery({
    queryKey: templateKeys.list(filters),
    placeholderData: keepPreviousData,
    refetchInterval: TEMPLATE_LIST_REFRESH_MS,
    meta: LIVE,
    queryFn: (): Promise<TemplatePage> =>
      api.listTemplates({
        query: {
          channel_uuid: filters.channel_uuid,
          category: filters.category,
          name__contains: filters.name__contains || undefined,
          _limit: filters.limit,
          _offset: filters.offset,
        },
      }),
  });
}

/** Channels templates can be made on (360dialog, {hash}, WhatsApp Web and custom). */
export function useTemplateChannels() {
  return useQuery({
    queryKey: templateKeys.channels,
    staleTime: 60_000,
    queryFn: async () => (await api.listChannels({ query: { _limit: 0 } })).data.filter((c) => isTemplateChannel(c.type)),
  });
}

/**
 * A template changed (created, edited, deleted, or its status at the provider): every cached list
 * page shows it at once, through the campaigns_{tenant} room's 'update-template' event.
 */
export function useLiveTemplates(): void {
  const me = useMe().data;
  const queryClient = useQueryClient();
  useRoom(me ? rooms.campaigns(me.workspace.tenant.uuid) : null);
  useServerEvent('update-template', ({ template }) => {
    if (template.config.status === 'DELETED') {
      void queryClient.invalidateQueries({ queryKey: templateKeys.all });
      return;
    }
    let known = false;
    queryClient.setQueriesData<TemplatePage>({ queryKey: [...templateKeys.all, 'list'] satisfies QueryKey }, (page) => {
      if (!page?.data.some((t) => t.uuid === template.uuid)) return page;
      known = true;
      return { ...page, data: page.data.map((t) => (t.uuid === template.uuid ? template : t)) };
    });
    // A template not on screen (new, or on another page) changes pages and totals: reload them.
    if (!known) void queryClient.invalidateQueries({ queryKey: templateKeys.all });
  });
}
