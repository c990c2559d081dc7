import type { Template } from '@atende/contract';
import { channelsForOutboundStart, type OutboundChannel } from '@atende/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

export interface ContactPage {
  name?: string;
  phone_number?: string;
  limit: number;
  offset: number;
}

/** Query keys of the phonebook; creating a contact invalidates `all`. */
export const phonebookKeys = {
  all: ['contacts'] as const,
  list: (page: ContactPage) => ['contacts', 'list', page] as const,
  startChannels: ['channels', 'outbound-start'] as const,
  startTemplates: (channelUuid: string) => ['templates', 'outbound-start', channelUuid] as const,
};

/** GET /api/v1/contacts with the phonebook's filters and page. */
export function useContacts(page: ContactPage, enabled: boolean) {
  return useQuery({
    queryKey: phonebookKeys.list(page),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () =>
      api.listContacts({ query: { name: page.name, phone_number: page.phone_number, _limit: page.limit, _offset: page.offset } }),
  });
}

/** Channels a conversation can be started on (GET /api/v1/channels). */
export function useStartChannels(enabled: boolean) {
  return useQuery({
    queryKey: phonebookKeys.startChannels,
    enabled,
    staleTime: 30_000,
    queryFn: async (): Promise<OutboundChannel[]> =>
      channelsForOutboundStart((await api.listChannels({ query: { _limit: 0, enabled: true } })).data),
  });
}

/** A channel's approved templates, for a conversation that must start with one. */
export function useStartTemplates(channelUuid: string | null) {
  return useQuery({
    queryKey: phonebookKeys.startTemplates(channelUuid ?? 'none'),
    enabled: channelUuid !== null,
    staleTime: 30_000,
    queryFn: async (): Promise<Template[]> =>
      (await api.listChannelTemplates({ params: { id: channelUuid! }, query: { status: 'approved', _limit: 0 } })).data,
  });
}
