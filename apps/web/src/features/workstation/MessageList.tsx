import type { Conversation, Message } from '@atende/contract';
import { ActionIcon, Badge, Box, Button, Center, Divider, Indicator, Loader, Text } from '@mantine/core';
import { IconArrowDown } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useEffectEvent, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, quietApi } from '../../api/client';
import { toastError } from '../../ui/toasts';
import { MessageBubble } from './MessageBubble';
import { firstUnreadUuid, prependMessages, unreadContactMessages, type MessagePage } from './messageCache';
import { MESSAGE_PAGE_SIZE, patchListedConversation, workstationKeys } from './queries';
import { buildTimeline, dayLabel } from './timeline';

/** Within 50 px of the bottom counts as "at the bottom"; read marking at most once a second. */
export const BOTTOM_THRESHOLD_PX = 50;
const READ_THROTTLE_MS = 1000;

interface Props {
  conversation: Conversation;
  page: MessagePage | undefined;
  loading: boolean;
  hideNotes: boolean;
  canReply: boolean;
  /** mark the contact's messages read (false for supervisors' views) */
  markRead: boolean;
  onReply(message: Message): void;
  onRetry(message: Message): void;
  /** a replied message not in this conversation: opened elsewhere */
  onForeignMessage(conversationUuid: string, messageUuid: string): void;
  /** a message to show once the list is loaded (a report link's #messageId) */
  focusMessage?: string;
}

/** How long a message reached by a link or a quote stays highlighted. */
const HIGHLIGHT_MS = 2000;

/**
 * The conversation's messages and history events: load earlier, day separators,
 * the 'New Messages' marker, a back-to-bottom button with an unread dot, read marking on open and
 * near the bottom. Its scroll state belongs to one conversation: users key it by the conversation.
 */
export function MessageList({
  conversation,
  page,
  loading,
  hideNotes,
  canReply,
  markRead,
  onReply,
  onRetry,
  onForeignMessage,
  focusMessage,
}: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const scroller = useRef<HTMLDivElement>(null);
  const [atBottom, setAtBottom] = useState(true);
  const [unseen, setUnseen] = useState(false);
  const [loadingEarlier, setLoadingEarlier] = useState(false);
  // A message a quote or a link asked for, to scroll to once rendered.
  const [reveal, setReveal] = useState<{ uuid: string } | null>(null);
  // Captured when the conversation opens: the marker stays where the unread messages began.
  const [firstUnread, setFirstUnread] = useState<string | null>(null);
  const markerFor = useRef<string | null>(null);
  const lastCount = useRef(0);
  const keepOffset = useRef<number | null>(null);
  const lastRead = useRef(0);
  const messages = page?.messages;

  useEffect(() => {
    if (!messages || markerFor.current === conversation.uuid) return;
    markerFor.current = conversation.uuid;
    setFirstUnread(firstUnreadUuid(messages, conversation));
  }, [messages, conversation]);

  const timeline = useMemo(
    () =>
      buildTimeline({
        messages: messages ?? [],
        history: conversation.history,
        hasMore: page?.hasMore ?? false,
        firstUnreadUuid: firstUnread,
        hideNotes,
      }),
    [messages, conversation.history, page?.hasMore, firstUnread, hideNotes],
  );
  const byUuid = useMemo(() => new Map((messages ?? []).map((m) => [m.uuid, m])), [messages]);

  const trailing = useRef<ReturnType<typeof setTimeout> | null>(null);
  // The trailing call of the throttle runs the latest `read` (it marks what arrived meanwhile).
  const readRef = useRef<(force?: boolean) => void>(() => undefined);
  const read = useCallback(
    (force = false) => {
      if (!markRead || !page) return;
      const now = Date.now();
      if (!force && now - lastRead.current < READ_THROTTLE_MS) {
        // Throttled, not dropped: one trailing call marks what arrived meanwhile.
        if (!trailing.current)
          trailing.current = setTimeout(
            () => {
              trailing.current = null;
              readRef.current();
            },
            READ_THROTTLE_MS - (now - lastRead.current),
          );
        return;
      }
      const uuids = unreadContactMessages(page);
      if (uuids.length === 0) return;
      lastRead.current = now;
      void api
        .markMessages({ params: { id: conversation.uuid }, body: { status: 'read', messages_uuids: uuids.slice(-500) } })
        .then((res) => {
          const done = new Set(uuids);
          queryClient.setQueryData<MessagePage>(workstationKeys.messages(conversation.uuid), (p) =>
            p ? { ...p, messages: p.messages.map((m) => (done.has(m.uuid) ? { ...m, state: 'read' as const } : m)) } : p,
          );
          patchListedConversation(queryClient, conversation.uuid, (c) => ({
            ...c,
            unread_contact_messages: res.data.unread_contact_messages,
          }));
        });
    },
    [markRead, page, conversation.uuid, queryClient],
  );

  useLayoutEffect(() => {
    readRef.current = read;
  }, [read]);
  useEffect(
    () => () => {
      if (trailing.current) clearTimeout(trailing.current);
    },
    [],
  );

  // Opening a conversation marks its unread messages read (if the list is at the bottom then).
  const loaded = page !== undefined;
  const readOnOpen = useEffectEvent(() => {
    if (atBottom) read(true);
  });
  useEffect(() => {
    if (loaded) readOnOpen();
  }, [conversation.uuid, loaded]);

  // Scroll: to the bottom on open; stay at the bottom when new messages arrive while there; keep
  // the reading position when earlier messages are prepended. Runs for new messages only, reading
  // where the agent is at that moment.
  const followMessages = useEffectEvent((shown: Message[]) => {
    const el = scroller.current;
    if (!el) return;
    if (keepOffset.current !== null) {
      el.scrollTop = el.scrollHeight - keepOffset.current;
      keepOffset.current = null;
    } else if (lastCount.current === 0 || atBottom) {
      el.scrollTop = el.scrollHeight;
      // The agent is looking at the latest messages: what just arrived is read.
      if (lastCount.current > 0 && document.hasFocus()) read();
    } else if (shown.length > lastCount.current) {
      setUnseen(true);
    }
    lastCount.current = shown.length;
  });
  useLayoutEffect(() => {
    if (messages) followMessages(messages);
  }, [messages]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const bottom = el.scrollHeight - el.scrollTop - el.clientHeight <= BOTTOM_THRESHOLD_PX;
    setAtBottom(bottom);
    if (bottom) {
      setUnseen(false);
      read();
    }
  };

  /**
   * Earlier messages prepended to those shown: the page before the first, or (`until`, the api's
   * parameter) every message back to that one in one call. Undefined when `until` is not a message
   * of this conversation.
   */
  const loadEarlier = useCallback(
    async (until?: string): Promise<MessagePage | undefined> => {
      const current = queryClient.getQueryData<MessagePage>(workstationKeys.messages(conversation.uuid));
      const first = current?.messages.find((m) => !m.status);
      if (!current?.hasMore || !first) return current;
      setLoadingEarlier(true);
      try {
        const query = { _limit: MESSAGE_PAGE_SIZE, before: first.uuid, ...(until ? { until } : {}) };
        // A link to a removed message is answered by a toast of its own, not the generic error.
        const res = await (until ? quietApi : api).listMessages({ params: { id: conversation.uuid }, query }).catch((error: unknown) => {
          if (until) return null;
          throw error;
        });
        if (!res) return undefined;
        if (scroller.current) keepOffset.current = scroller.current.scrollHeight - scroller.current.scrollTop;
        const next = prependMessages(current, res.data, res.has_more);
        queryClient.setQueryData(workstationKeys.messages(conversation.uuid), next);
        return next;
      } finally {
        setLoadingEarlier(false);
      }
    },
    [conversation.uuid, queryClient],
  );

  /**
   * Message links and quotes: scroll to the message and highlight it briefly, loading
   * earlier messages first if needed; one of another conversation opens there; one that no longer
   * exists says so.
   */
  const openMessage = useCallback(
    async (uuid: string) => {
      const shown = (page: MessagePage | undefined) => page?.messages.some((m) => m.uuid === uuid) === true;
      let current = queryClient.getQueryData<MessagePage>(workstationKeys.messages(conversation.uuid));
      // Each call reaches back at most MESSAGES_UNTIL_MAX messages: a few calls for a very long conversation.
      for (let i = 0; i < 5 && current && !shown(current) && current.hasMore; i++) current = await loadEarlier(uuid);
      if (shown(current)) {
        // Scrolled once the list has rendered it (just prepended messages are not in the page yet).
        setReveal({ uuid });
        return;
      }
      const found = await quietApi.getMessage({ params: { id: uuid } }).catch(() => null);
      if (found && found.data.conversation_uuid !== conversation.uuid) onForeignMessage(found.data.conversation_uuid, uuid);
      else toastError(t('This message no longer exists'));
    },
    [conversation.uuid, loadEarlier, onForeignMessage, queryClient, t],
  );

  // Scroll to and highlight `reveal` after the render that shows it (and after the layout effect
  // above kept the reading position of a prepend). Each request is a new object, handled once.
  const revealed = useRef<{ uuid: string } | null>(null);
  useEffect(() => {
    if (!reveal || revealed.current === reveal) return;
    const el = document.getElementById(`message-${reveal.uuid}`);
    if (!el) return;
    revealed.current = reveal;
    el.scrollIntoView({ block: 'center' });
    el.dataset.highlighted = 'true';
    el.style.outline = '2px solid var(--mantine-color-yellow-5)';
    el.style.outlineOffset = '2px';
    setTimeout(() => {
      delete el.dataset.highlighted;
      el.style.outline = '';
    }, HIGHLIGHT_MS);
  }, [reveal, messages]);

  // A report link's #messageId: reached once the conversation's messages are in.
  const focused = useRef<string | null>(null);
  useEffect(() => {
    if (!focusMessage || !loaded || focused.current === focusMessage) return;
    focused.current = focusMessage;
    void openMessage(focusMessage);
  }, [focusMessage, loaded, openMessage]);

  const toBottom = () => {
    const el = scroller.current;
    if (el) el.scrollTo({ top: el.scrollHeight, behavior: 'smooth' });
    setUnseen(false);
  };

  if (loading && !page) {
    return (
      <Center style={{ flex: 1 }}>
        <Loader size="sm" aria-label={t('Loading...')} />
      </Center>
    );
  }

  return (
    <Box pos="relative" style={{ flex: 1, minHeight: 0, display: 'flex' }}>
      <Box
        ref={scroller}
        onScroll={onScroll}
        px="md"
        py="sm"
        style={{ overflowY: 'auto', flex: 1 }}
        aria-label={t('Messages')}
        role="log"
        aria-live="polite"
        tabIndex={0}
      >
        {page?.hasMore && (
          <Center mb="sm">
            <Button size="compact-xs" variant="light" loading={loadingEarlier} onClick={() => void loadEarlier()}>
              {t('Load earlier messages')}
            </Button>
          </Center>
        )}
        {timeline.map((item) => {
          switch (item.kind) {
            case 'day': {
              const label = dayLabel(item.day);
              return <Divider key={item.id} my="xs" label={t(label.key, label.values)} labelPosition="center" />;
            }
            case 'new-messages':
              return (
                <Divider
                  key={item.id}
                  my="xs"
                  color="red"
                  label={
                    <Text size="xs" c="red">
                      {t('New Messages')}
                    </Text>
                  }
                  labelPosition="center"
                />
              );
            case 'system':
              return (
                <Center key={item.id} my={6}>
                  <Badge
                    variant="light"
                    color="gray"
                    radius="sm"
                    tt="none"
                    fw={400}
                    data-testid="system-message"
                    style={{ whiteSpace: 'normal', height: 'auto' }}
                  >
                    {t(item.phrase.key, {
                      ...item.phrase.values,
                      ...Object.fromEntries(Object.entries(item.phrase.phraseValues ?? {}).map(([k, v]) => [k, t(v)])),
                    })}
                  </Badge>
                </Center>
              );
            default:
              return (
                <Box key={item.id} my={6}>
                  <MessageBubble
                    message={item.message}
                    repliedTo={item.message.reply_to_uuid ? (byUuid.get(item.message.reply_to_uuid) ?? null) : null}
                    canReply={canReply && !item.message.status}
                    onReply={onReply}
                    onRetry={onRetry}
                    onOpenReplied={(uuid) => void openMessage(uuid)}
                  />
                </Box>
              );
          }
        })}
      </Box>
      {!atBottom && (
        <Indicator disabled={!unseen} color="red" size={10} offset={4} style={{ position: 'absolute', right: 24, bottom: 16 }}>
          <ActionIcon radius="xl" size="lg" variant="default" aria-label={t('Back to the latest messages')} onClick={toBottom}>
            <IconArrowDown size={18} />
          </ActionIcon>
        </Indicator>
      )}
    </Box>
  );
}
