import type { Conversation } from '@atende/contract';
import { useQuery } from '@tanstack/react-query';

/** Query key of the agent's active conversations (spec 000 §3 workstation state). */
export const activeChatsKey = ['conversations', 'active'] as const;

/**
 * The agent's active chats. The conversation routes are declared in the contract but not served
 * yet, so nothing fetches: the list stays empty until the conversation engine fills this key.
 */
export function useActiveChats(): Conversation[] {
  return useQuery({ queryKey: activeChatsKey, queryFn: (): Conversation[] => [], enabled: false, initialData: [] }).data;
}
