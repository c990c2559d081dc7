import { rooms, type Conversation, type Message } from '@atende/contract';
import { hasAnyRole } from '@atende/core';
import { Anchor, Badge, Box, Button, Container, Group, Paper, Switch, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import { api, quietApi } from '../../api/client';
import { phrase } from '../../i18n/phrase';
import { LIVE } from '../../realtime/liveQueries';
import { useRoom, useServerEvent } from '../../realtime/RealtimeProvider';
import { useMe } from '../../session/session';
import { LoadingState } from '../../ui/states';
import { InvalidConversation } from './InvalidConversation';
import { toastSuccess } from '../../ui/toasts';
import { CustomerPanels } from '../customer/CustomerPanels';
import { FinishModal } from './ActionModals';
import { applyAck, upsertMessages, type MessagePage } from './messageCache';
import { MessageList } from './MessageList';
import { useMessages, workstationKeys } from './queries';
import { SupervisorNote, SupervisorTransfer } from './SupervisorActions';

type Mode = 'live' | 'history';

const STATE_LABELS: Record<Conversation['state'], string> = {
  waiting: phrase('Waiting'),
  bot: phrase('Bot'),
  answered: phrase('Answered'),
  'outbound-started': phrase('Outbound started'),
  closing: phrase('Closing'),
  closed: phrase('Closed'),
};

/**
 * A conversation opened by URL: the supervisors' live view /chat/{id} (joins the
 * conversation's room, updates live, may finish it as supervisor) and the read-only past views
 * /chat-history/..., /chat-history/reports/{uuid}#{messageId}, /agent-chat-history/... and
 * /client-journey/.... An unknown or foreign id shows 'This conversation is invalid or has ended'.
 */
export function ConversationViewPage({ mode }: { mode: Mode }) {
  const { t } = useTranslation();
  const { conversationId = '' } = useParams();
  const location = useLocation();
  const queryClient = useQueryClient();
  const me = useMe().data;
  const [hideNotes, setHideNotes] = useState(false);
  const [finishing, setFinishing] = useState(false);
  const validId = /^[0-9a-f-]{36}$/i.test(conversationId);
  const conversation = useQuery({
    queryKey: ['conversations', 'view', conversationId],
    enabled: validId,
    retry: false,
    // Not found, another tenant's or not allowed: the invalid screen, not the error toast.
    queryFn: async (): Promise<Conversation | null> =>
      (await quietApi.getConversation({ params: { id: conversationId } }).catch(() => null))?.data ?? null,
    meta: LIVE,
  });
  const messages = useMessages(validId && conversation.data ? conversationId : null);
  const live = mode === 'live' && conversation.data?.state !== 'closed';
  useRoom(live && me && conversation.data ? rooms.conversation(me.workspace.tenant.uuid, conversationId) : null);

  useServerEvent('update-conversation', ({ conversation: c }) => {
    if (c.uuid === conversationId) queryClient.setQueryData(['conversations', 'view', conversationId], c);
  });
  useServerEvent('new-message', ({ conversation_uuid, message }) => {
    if (conversation_uuid !== conversationId) return;
    queryClient.setQueryData<MessagePage>(workstationKeys.messages(conversationId), (page) =>
      page ? upsertMessages(page, [message]) : page,
    );
  });
  useServerEvent('messages-ack', ({ conversation_uuid, messages: acks }) => {
    if (conversation_uuid !== conversationId) return;
    queryClient.setQueryData<MessagePage>(workstationKeys.messages(conversationId), (page) => (page ? applyAck(page, acks) : page));
    // The ack says only that it failed: the reason (error_message) comes with the message itself.
    if (acks.some((a) => a.status === 'failed')) void queryClient.invalidateQueries({ queryKey: workstationKeys.messages(conversationId) });
  });

  // /chat-history/reports/{uuid}#{messageId}: the list reaches back to the message and scrolls to it.
  const target = /^[0-9a-f-]{36}$/i.test(location.hash.slice(1)) ? location.hash.slice(1) : undefined;

  const finish = useMutation({
    mutationFn: async (reason: string | null) =>
      (
        await api.updateConversation({
          params: { id: conversationId },
          body: { state: 'closed', current_role: 'supervisor', conversation_reason_uuid: reason },
        })
      ).data,
    onSuccess: (c) => {
      queryClient.setQueryData(['conversations', 'view', conversationId], c);
      setFinishing(false);
      toastSuccess(t('Finished conversation successfully'));
    },
  });
  const openForeign = useCallback(
    (conv: string, msg: string) => window.open(`/chat-history/reports/${conv}#${msg}`, '_blank', 'noopener'),
    [],
  );
  const noop = useCallback((_m: Message) => undefined, []);

  if (validId && (conversation.isPending || (conversation.data && messages.isPending))) return <LoadingState />;
  const c = conversation.data;
  if (!validId || !c) {
    return <InvalidConversation />;
  }
  const supervisor = me
    ? hasAnyRole(
        me.roles.map((r) => r.name),
        ['supervisor'],
      )
    : false;
  return (
    <Container size="xl" py="md" style={{ height: '100dvh', display: 'flex', flexDirection: 'column' }}>
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          <Anchor component={Link} to="/" aria-label={t('Back')}>
            <IconArrowLeft size={18} />
          </Anchor>
          <div>
            <Title order={4}>{c.contact.name}</Title>
            <Text size="xs" c="dimmed">
              {[c.channel.name, c.sector?.name, `#${c.ticket_number}`, c.user ? t('Agent: {{name}}', { name: c.user.username }) : null]
                .filter(Boolean)
                .join(' · ')}
            </Text>
          </div>
          <Badge variant="light" data-testid="conversation-state">
            {t(STATE_LABELS[c.state])}
          </Badge>
          {live && (
            <Badge color="red" variant="dot">
              {t('Live')}
            </Badge>
          )}
        </Group>
        <Group gap="sm" wrap="nowrap">
          <Switch size="xs" label={t('Hide internal notes')} checked={hideNotes} onChange={(e) => setHideNotes(e.currentTarget.checked)} />
          {mode === 'live' && supervisor && me && <SupervisorTransfer conversation={c} me={me} />}
          {mode === 'live' && supervisor && c.state !== 'closed' && (
            <Button color="red" variant="light" size="xs" onClick={() => setFinishing(true)}>
              {t('Finish as supervisor')}
            </Button>
          )}
        </Group>
      </Group>
      <Group align="stretch" gap="md" wrap="nowrap" style={{ flex: 1, minHeight: 0 }}>
        <Paper
          withBorder
          radius="md"
          style={{ flex: 1, minWidth: 0, minHeight: 0, display: 'flex', flexDirection: 'column', overflow: 'hidden' }}
        >
          <Box style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
            <MessageList
              key={c.uuid}
              conversation={c}
              page={messages.data}
              loading={messages.isLoading}
              hideNotes={hideNotes}
              canReply={false}
              markRead={false}
              onReply={noop}
              onRetry={noop}
              onForeignMessage={openForeign}
              focusMessage={target}
            />
          </Box>
          {mode === 'live' && supervisor && <SupervisorNote conversation={c} />}
        </Paper>
        <Box component="aside" aria-label={t('Customer')} w={320} style={{ flexShrink: 0, overflowY: 'auto' }}>
          <CustomerPanels conversation={c} editable={false} showConversationFields={false} />
        </Box>
      </Group>
      {finishing && (
        <FinishModal opened onClose={() => setFinishing(false)} busy={finish.isPending} onConfirm={(reason) => finish.mutate(reason)} />
      )}
    </Container>
  );
}
