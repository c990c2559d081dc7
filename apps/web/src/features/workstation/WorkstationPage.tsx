import { Box, Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconMessages, IconPlugConnectedX } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useRealtime } from '../../realtime/RealtimeProvider';
import { useMe, useTenant, useWorkspace } from '../../session/session';
import { ErrorState, LoadingState } from '../../ui/states';
import { AcceptPanel } from './AcceptPanel';
import { attachmentStore } from './composer/attachmentStore';
import { orderConversations } from './conversationEvents';
import { ConversationList } from './ConversationList';
import { drafts, readPinned, writePinned } from './drafts';
import { ACTIVE_PARAM, useActiveChats, useWaitingQueue } from './queries';
import { lazyComponent } from '../../ui/lazyPage';

// The chat and the customer's panels (composer, contact forms, phone formatting) load when a chat is
// first opened, and ahead of that once the list is on screen and the browser is idle.
const ChatPanel = lazyComponent(() => import('./ChatPanel'), 'ChatPanel', <LoadingState />);
const CustomerPanels = lazyComponent(() => import('../customer/CustomerPanels'), 'CustomerPanels', <LoadingState />);
const CHAT_PRELOAD_DELAY_MS = 1500;
function preloadChat() {
  void ChatPanel.preload();
  void CustomerPanels.preload();
}

/** Height of the page below the 56 px header and the shell's padding. */
const PAGE_HEIGHT = 'calc(100dvh - 56px - 2 * var(--mantine-spacing-md))';
/**
 * The side columns narrow with the screen: at 1280 px the list is 256 px and the
 * customer panel 282 px, so with the navigation folded the chat keeps over 600 px; from 1440 px they
 * have their full 290 and 320 px.
 */
const LIST_WIDTH = 'clamp(240px, 20vw, 290px)';
const CUSTOMER_WIDTH = 'clamp(260px, 22vw, 320px)';

/**
 * The agent workstation: conversation list and accept-session panel on the left, the
 * chat in the middle, the customer's panels on the right. 'Start messaging! ...' without a selected
 * chat; the 'Falha na conexão' screen with a reconnect button when the connection failed.
 */
export function WorkstationPage() {
  const { t } = useTranslation();
  const { state, reconnect } = useRealtime();
  const me = useMe().data;
  const tenant = useTenant().data;
  const workspace = useWorkspace().data;
  const chats = useActiveChats();
  const waiting = useWaitingQueue().data ?? 0;
  const [params, setParams] = useSearchParams();
  const [pinned, setPinned] = useState<string[]>(() => readPinned());
  const [archivedView, setArchivedView] = useState(false);
  const activeUuid = params.get(ACTIVE_PARAM);
  const listShown = chats.data !== undefined;
  useEffect(() => {
    // Once the first screen has settled: the chat's code comes while the agent reads the list.
    if (!listShown || activeUuid) return;
    const timer = setTimeout(
      () => (typeof requestIdleCallback === 'function' ? requestIdleCallback(preloadChat, { timeout: 3000 }) : preloadChat()),
      CHAT_PRELOAD_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [listShown, activeUuid]);

  const select = useCallback(
    (uuid: string | null) => {
      setParams(uuid ? { [ACTIVE_PARAM]: uuid } : {}, { replace: uuid === null });
    },
    [setParams],
  );
  const togglePin = (uuid: string) => {
    const next = pinned.includes(uuid) ? pinned.filter((p) => p !== uuid) : [...pinned, uuid];
    setPinned(next);
    writePinned(next);
  };

  const archivedOn = tenant?.config.features.archived_conversations === true;
  const list = useMemo(() => {
    const all = chats.data ?? [];
    const shown = archivedOn ? all.filter((c) => c.archived === archivedView) : all;
    return orderConversations(shown, pinned);
  }, [chats.data, archivedOn, archivedView, pinned]);
  const active = chats.data?.find((c) => c.uuid === activeUuid) ?? null;
  // The customer panel gives its room to the attachments being prepared.
  const hasAttachments = useSyncExternalStore(attachmentStore.subscribe, () =>
    activeUuid ? attachmentStore.list(activeUuid).length > 0 : false,
  );

  // Drafts of conversations the agent no longer holds are forgotten.
  useEffect(() => {
    if (chats.data) drafts.keepOnly(chats.data.map((c) => c.uuid));
  }, [chats.data]);
  // An active conversation the agent no longer holds (finished elsewhere, reloaded) is deselected.
  useEffect(() => {
    if (chats.data && activeUuid && !active) select(null);
  }, [chats.data, activeUuid, active, select]);

  if (state === 'disconnected') {
    return (
      <Center h="70vh">
        <Stack align="center">
          <IconPlugConnectedX size={48} stroke={1.4} aria-hidden />
          <Title order={3}>{t('Falha na conexão')}</Title>
          <Button onClick={reconnect}>{t('Try to reconnect')}</Button>
        </Stack>
      </Center>
    );
  }
  if (chats.isError) return <ErrorState onRetry={() => void chats.refetch()} />;
  if (!me || !tenant || !chats.data) return <LoadingState />;

  return (
    <Box style={{ display: 'flex', gap: 'var(--mantine-spacing-md)', height: PAGE_HEIGHT, minHeight: 480 }}>
      <Stack gap="sm" w={LIST_WIDTH} style={{ flexShrink: 0, minHeight: 0 }} component="section" aria-label={t('Conversations')}>
        <AcceptPanel
          me={me}
          tenant={tenant}
          workspace={workspace}
          conversations={chats.data}
          waiting={waiting}
          onAccepted={(c) => select(c.uuid)}
        />
        <ConversationList
          conversations={list}
          activeUuid={activeUuid}
          pinned={pinned}
          onSelect={select}
          showArchivedFilter={archivedOn}
          archivedView={archivedView}
          onArchivedViewChange={setArchivedView}
        />
      </Stack>
      <Box
        component="section"
        aria-label={t('Chat')}
        style={{
          flex: 1,
          minWidth: 0,
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 8,
          display: 'flex',
          flexDirection: 'column',
          overflow: 'hidden',
        }}
      >
        {active ? (
          <ChatPanel
            key={active.uuid}
            conversation={active}
            me={me}
            tenant={tenant}
            pinned={pinned.includes(active.uuid)}
            onTogglePin={() => togglePin(active.uuid)}
            onLeft={() => select(null)}
          />
        ) : (
          <Center style={{ flex: 1 }}>
            <Stack align="center" gap="xs">
              <IconMessages size={48} stroke={1.4} aria-hidden color="var(--mantine-color-gray-5)" />
              <Text size="lg" c="dimmed">
                {t('Start messaging! Select a chat and talk to the customers')}
              </Text>
            </Stack>
          </Center>
        )}
      </Box>
      {active && !hasAttachments && (
        <Box component="aside" aria-label={t('Customer')} w={CUSTOMER_WIDTH} style={{ flexShrink: 0, overflowY: 'auto', minHeight: 0 }}>
          <CustomerPanels conversation={active} editable showConversationFields />
        </Box>
      )}
    </Box>
  );
}
