import type { Conversation, Message } from '@atende/contract';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { api } from '../../api/client';
import { phrase } from '../../i18n/phrase';
import { LIVE } from '../../realtime/liveQueries';
import { useServerEvent } from '../../realtime/RealtimeProvider';
import { useMe, useWorkspace } from '../../session/session';
import { toastInfo } from '../../ui/toasts';
import { applyConversationEvent, isStaleCopy, type WorkstationNotice } from './conversationEvents';
import { applyAck, applySendAnswer, mergeLatestPage, upsertMessages, type MessagePage } from './messageCache';
import { notifyUnfocused } from './notify';
import { announcesWaiting } from './waitingNotice';
import { workstationKeys, workstationQueries } from './listQueries';

export { workstationKeys } from './listQueries';

/** The agent's active conversations (answered, outbound-started, closing), live. */
export function useActiveChats() {
  return useQuery(workstationQueries.offered);
}

/** How many contacts wait in the queue, live. */
export function useWaitingQueue() {
  return useQuery(workstationQueries.waitingQueue);
}

export const MESSAGE_PAGE_SIZE = 50;

/**
 * A conversation's latest messages; earlier ones are prepended by "load earlier". A reload merges
 * into what is shown (by uuid) instead of replacing it.
 */
export function useMessages(conversationUuid: string | null) {
  return useQuery({
    queryKey: workstationKeys.messages(conversationUuid ?? 'none'),
    enabled: conversationUuid !== null,
    queryFn: async ({ client, queryKey }): Promise<MessagePage> => {
      const res = await api.listMessages({ params: { id: conversationUuid! }, query: { _limit: MESSAGE_PAGE_SIZE } });
      const latest = { messages: res.data, hasMore: res.has_more };
      const shown = client.getQueryData<MessagePage>(queryKey);
      return shown ? mergeLatestPage(shown, latest) : latest;
    },
    staleTime: Infinity,
    meta: LIVE,
  });
}

/** Patches one conversation inside the agent's list (unread count, last message, a local state). */
export function patchListedConversation(queryClient: QueryClient, uuid: string, patch: (c: Conversation) => Conversation): void {
  queryClient.setQueryData<Conversation[]>(workstationKeys.offered, (list) => list?.map((c) => (c.uuid === uuid ? patch(c) : c)));
}

/** The conversation selected in the workstation, kept in the URL (?conversation=uuid) so a reload keeps it. */
export const ACTIVE_PARAM = 'conversation';

const NOTICES: Record<WorkstationNotice, string> = {
  'transferred-away': phrase('One of your sessions was transferred to another agent'),
  'transferred-to-me': phrase('A session was transferred to you'),
  'distributed-to-me': phrase('A conversation was assigned to you by the automatic distribution'),
  'closed-by-supervisor': phrase('A supervisor finished one of your sessions'),
};

/**
 * Keeps the workstation live: conversation events are applied to the agent's list by
 * the rules (no refetch), new messages and acks patch the loaded messages, waiting-queue
 * events carry the new count and announce a waiting customer when distribution is manual.
 */
export function useWorkstationLiveUpdates(): void {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  const me = useMe().data;
  const workspace = useWorkspace().data;
  const navigate = useNavigate();
  const location = useLocation();
  // useServerEvent calls the handler of the latest render: these read the current location, user and t.
  const onConversation = ({ conversation }: { conversation: Conversation }) => {
    if (!me) return;
    const params = new URLSearchParams(location.search);
    const active = location.pathname === '/app' ? params.get(ACTIVE_PARAM) : null;
    const list = queryClient.getQueryData<Conversation[]>(workstationKeys.offered);
    if (!list) {
      void queryClient.invalidateQueries({ queryKey: workstationKeys.offered });
      return;
    }
    if (isStaleCopy(conversation)) return;
    const outcome = applyConversationEvent(list, conversation, me.id, active);
    queryClient.setQueryData(workstationKeys.offered, outcome.list);
    if (outcome.arrived) void queryClient.invalidateQueries({ queryKey: workstationKeys.messages(conversation.uuid) });
    if (outcome.notice) {
      const text = t(NOTICES[outcome.notice]);
      if (!notifyUnfocused(text)) toastInfo(text);
    }
    if (outcome.activate) void navigate(`/app?${ACTIVE_PARAM}=${conversation.uuid}`);
    else if (outcome.clearActive && active) void navigate('/app', { replace: true });
  };
  useServerEvent('update-conversation', onConversation);
  useServerEvent('new-conversation', onConversation);

  useServerEvent('new-message', ({ conversation_uuid, message }) => {
    const key = workstationKeys.messages(conversation_uuid);
    // Messages still loading: the answer may predate this message, so load again once it is in.
    if (queryClient.getQueryState(key)?.status === 'pending' && queryClient.isFetching({ queryKey: key }) > 0)
      void queryClient.invalidateQueries({ queryKey: key });
    queryClient.setQueryData<MessagePage>(key, (page) => (page ? upsertMessages(page, [message]) : page));
    patchListedConversation(queryClient, conversation_uuid, (c) => ({
      ...c,
      last_message: { when: message.when, tags: message.tags, content: message.message, author: message.author },
      unread_contact_messages: message.author === 'CONTACT' ? c.unread_contact_messages + 1 : c.unread_contact_messages,
    }));
    if (message.author === 'CONTACT')
      notifyUnfocused(t('New message from {{name}}', { name: contactNameOf(queryClient, conversation_uuid) }));
  });
  useServerEvent('messages-ack', ({ conversation_uuid, messages }) => {
    queryClient.setQueryData<MessagePage>(workstationKeys.messages(conversation_uuid), (page) => (page ? applyAck(page, messages) : page));
  });

  useServerEvent('waiting-queue', ({ quantity_waiting_queue }) => {
    const before = queryClient.getQueryData<number>(workstationKeys.waitingQueue) ?? 0;
    queryClient.setQueryData(workstationKeys.waitingQueue, quantity_waiting_queue);
    const manual = workspace?.conversation_delivery_mode === 'on_demand';
    if (announcesWaiting(before, quantity_waiting_queue, { manual, paused: Boolean(me?.current_pause) })) {
      const text = t("There's a costumer waiting!");
      if (!notifyUnfocused(text)) toastInfo(text);
    }
  });
}

function contactNameOf(queryClient: QueryClient, conversationUuid: string): string {
  return queryClient.getQueryData<Conversation[]>(workstationKeys.offered)?.find((c) => c.uuid === conversationUuid)?.contact.name ?? '';
}

/** Replaces the optimistic copy of a sent message with the server's (same uuid). */
export function storeSentMessages(queryClient: QueryClient, conversationUuid: string, messages: readonly Message[]): void {
  queryClient.setQueryData<MessagePage>(workstationKeys.messages(conversationUuid), (page) =>
    applySendAnswer(page ?? { messages: [], hasMore: false }, messages),
  );
}
