import { searchCanned } from '@atende/core';
import type { CannedResponseSchema, Conversation } from '@atende/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { z } from 'zod';
import { api } from '../../../api/client';
import { CANNED_LIMIT, CANNED_TRIGGER, cannedQuery } from './cannedTrigger';

export type CannedResponse = z.infer<typeof CannedResponseSchema>;

export const cannedKeys = {
  forChannel: (channelUuid: string, sectorUuid: string | null) => ['canned-responses', channelUuid, sectorUuid ?? 'any'] as const,
};

/** Canned responses change rarely: fetched once per channel and sector, then read from the cache. */
const CANNED_STALE_MS = 5 * 60_000;

/**
 * The canned responses matching what is typed after the trigger (flag canned_responses):
 * GET /api/v1/channels/{channel}/canned_responses?sector_uuid=, searched with the shared rule.
 */
export function useCannedSuggestions(conversation: Conversation, text: string, enabled: boolean): CannedResponse[] {
  const channelUuid = conversation.channel.uuid;
  const sectorUuid = conversation.sector?.uuid ?? null;
  const query = enabled ? cannedQuery(text) : null;
  const responses = useQuery({
    queryKey: cannedKeys.forChannel(channelUuid, sectorUuid),
    queryFn: async () =>
      (await api.listChannelCannedResponses({ params: { id: channelUuid }, query: { sector_uuid: sectorUuid ?? undefined } })).data,
    // Fetched as soon as the trigger is typed, so suggestions are ready by the next key.
    enabled: enabled && text.startsWith(CANNED_TRIGGER),
    staleTime: CANNED_STALE_MS,
  });
  return useMemo(
    () => (query === null || !responses.data ? [] : searchCanned(query, responses.data, CANNED_LIMIT)),
    [query, responses.data],
  );
}
