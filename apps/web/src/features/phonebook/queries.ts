import type { Conversation } from '@atende/contract';
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
  startChannels: (contactUuid: string) => ['conversations', 'start-channels', contactUuid] as const,
};

/** GET /api/v1/contacts with the phonebook's filters and page (spec 000 §7). */
export function useContacts(page: ContactPage, enabled: boolean) {
  return useQuery({
    queryKey: phonebookKeys.list(page),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () =>
      api.listContacts({ query: { name: page.name, phone_number: page.phone_number, _limit: page.limit, _offset: page.offset } }),
  });
}

/** How far back the agent's own conversations are read to find the channels they work on. */
const OWN_CONVERSATIONS_SCANNED = 100;
const CONTACT_CONVERSATIONS_SCANNED = 40;

/**
 * Channels a conversation with the contact can be started on. The api has no channel list an agent
 * may call, so they are the channels seen in the contact's conversations and in the agent's own
 * (GET /api/v1/contacts/{id}/conversations and GET /api/v2/conversations, which also hold the active
 * ones), filtered by the spec 000 §5 rules.
 */
export function useStartChannels(contactUuid: string | null) {
  return useQuery({
    queryKey: phonebookKeys.startChannels(contactUuid ?? 'none'),
    enabled: contactUuid !== null,
    staleTime: 30_000,
    queryFn: async (): Promise<OutboundChannel[]> => {
      const [ofContact, own] = await Promise.all([
        api.listContactConversations({ params: { id: contactUuid! }, query: { _limit: CONTACT_CONVERSATIONS_SCANNED } }),
        api.listConversations({ query: { _limit: OWN_CONVERSATIONS_SCANNED } }),
      ]);
      const channelOf = (c: Conversation): OutboundChannel => c.channel;
      return channelsForOutboundStart([...ofContact.data, ...own.data].map(channelOf));
    },
  });
}
