import { rooms, type Campaign, type ServerEventPayload } from '@atende/contract';
import { isTemplateChannel } from '@atende/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { LIVE } from '../../realtime/liveQueries';
import { useRoom, useServerEvent } from '../../realtime/RealtimeProvider';
import { useMe } from '../../session/session';

export interface CampaignFilters {
  only_my_campaigns: boolean;
  state?: Campaign['state'];
  name?: string;
  limit: number;
  offset: number;
}

export const campaignKeys = {
  all: ['campaigns'] as const,
  list: (f: CampaignFilters) => ['campaigns', 'list', f] as const,
  one: (id: string) => ['campaigns', 'one', id] as const,
  subscribers: (id: string, states: string[], limit: number, offset: number) =>
    ['campaigns', 'subscribers', id, states, limit, offset] as const,
  lookups: ['campaigns', 'lookups'] as const,
  templates: (channel: string) => ['campaigns', 'templates', channel] as const,
};

export function useCampaigns(f: CampaignFilters) {
  return useQuery({
    queryKey: campaignKeys.list(f),
    placeholderData: keepPreviousData,
    meta: LIVE,
    queryFn: () =>
      api.listCampaigns({
        query: { only_my_campaigns: f.only_my_campaigns, state: f.state, name: f.name || undefined, _limit: f.limit, _offset: f.offset },
      }),
  });
}

export function useCampaign(id: string) {
  return useQuery({ queryKey: campaignKeys.one(id), queryFn: async () => (await api.getCampaign({ params: { id } })).data, meta: LIVE });
}

/** Channels (360dialog, {hash}, WhatsApp Web, custom), sectors and DND lists for the wizard. */
export function useWizardLookups() {
  return useQuery({
    queryKey: campaignKeys.lookups,
    staleTime: 30_000,
    queryFn: async () => {
      const [channels, sectors, lists, bots, entrypoints] = await Promise.all([
        api.listChannels({ query: { _limit: 0, _offset: 0 } }),
        api.listSectors({ query: { _limit: 0, _offset: 0 } }),
        api.listDndLists({ query: { _limit: 0 } }),
        // Without bots_interface there are no bots to hand over to (the action stays disabled).
        api.listBots({}).catch(() => ({ data: [] })),
        api.listCampaignEntrypoints({}),
      ]);
      return {
        channels: channels.data.filter((c) => isTemplateChannel(c.type)),
        sectors: sectors.data,
        lists: lists.data,
        bots: bots.data,
        entrypoints: entrypoints.data,
      };
    },
  });
}

/** A channel's approved templates (the only ones a campaign may use). */
export function useApprovedTemplates(channel: string) {
  return useQuery({
    queryKey: campaignKeys.templates(channel),
    enabled: channel !== '',
    queryFn: async () => (await api.listChannelTemplates({ params: { id: channel }, query: { status: 'approved', _limit: 0 } })).data,
  });
}

/** The last update-campaign-tasks of a campaign's import (rows done / total), as heard live. */
export type ImportProgress = ServerEventPayload<'update-campaign-tasks'>;
// Outside campaignKeys.all: a refresh of the campaigns must not drop what only the socket knows.
const importProgressKey = (id: string) => ['campaign-import-progress', id] as const;

/**
 * update-campaign and update-campaign-tasks from campaigns_{tenant}: lists and screens follow live.
 * Import progress arrives about twice a second: it only patches the cache; the lists refetch once,
 * when the import is done (its rows appear together, in one transaction).
 */
export function useLiveCampaigns(): void {
  const me = useMe().data;
  const queryClient = useQueryClient();
  useRoom(me ? rooms.campaigns(me.workspace.tenant.uuid) : null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: campaignKeys.all });
  useServerEvent('update-campaign', ({ campaign }) => {
    queryClient.setQueryData(campaignKeys.one(campaign.uuid), campaign);
    refresh();
  });
  useServerEvent('update-campaign-tasks', (event) => {
    queryClient.setQueryData(importProgressKey(event.campaign_uuid), event);
    if (event.status === 'done') return refresh();
    queryClient.setQueryData<Campaign>(campaignKeys.one(event.campaign_uuid), (c) => (c ? { ...c, import_status: event.status } : c));
  });
}

/** What useLiveCampaigns heard of this campaign's import, or null (nothing since the page opened). */
export function useImportProgress(id: string): ImportProgress | null {
  const { data } = useQuery<ImportProgress | null>({
    queryKey: importProgressKey(id),
    queryFn: () => null,
    enabled: false,
    staleTime: Infinity,
  });
  return data ?? null;
}
