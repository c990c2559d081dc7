import type { Conversation, Message, Tenant, User } from '@atende/contract';
import { Group, Switch, Tabs } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { ChatHeader } from './ChatHeader';
import { Composer } from './Composer';
import { drafts } from './drafts';
import { HistoryTab } from './HistoryTab';
import { MessageList } from './MessageList';
import { useMessages } from './queries';
import { useSendMessage } from './useSend';

interface Props {
  conversation: Conversation;
  me: User;
  tenant: Tenant;
  pinned: boolean;
  onTogglePin(): void;
  onLeft(): void;
}

const TABS = ['chat', 'history'] as const;

/** The chat area: header with actions, tabs Chat and History (active tab in the URL hash). */
export function ChatPanel({ conversation, me, tenant, pinned, onTogglePin, onLeft }: Props) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const features = tenant.config.features;
  const historyOn = features.contact_journey === true;
  const hashTab = location.hash.replace('#', '');
  const tab = historyOn && hashTab === 'history' ? 'history' : 'chat';
  const messages = useMessages(conversation.uuid);
  const { send, retry } = useSendMessage(conversation, me);
  const [hideNotes, setHideNotes] = useState(false);
  const [chosenReply, setChosenReply] = useState<{ conversation: string; uuid: string | null } | null>(null);
  // The reply being written lives in the conversation's draft: it comes back with the conversation.
  const replyUuid = chosenReply?.conversation === conversation.uuid ? chosenReply.uuid : drafts.get(conversation.uuid).replyToUuid;
  const replyTo = useMemo(
    () => (replyUuid ? (messages.data?.messages.find((m) => m.uuid === replyUuid) ?? null) : null),
    [replyUuid, messages.data],
  );
  const setReply = (m: Message | null) => {
    const uuid = m?.uuid ?? null;
    setChosenReply({ conversation: conversation.uuid, uuid });
    drafts.set(conversation.uuid, { ...drafts.get(conversation.uuid), replyToUuid: uuid });
  };

  return (
    <div style={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }}>
      <ChatHeader conversation={conversation} me={me} tenant={tenant} pinned={pinned} onTogglePin={onTogglePin} onLeft={onLeft} />
      <Tabs
        value={tab}
        onChange={(v) =>
          v &&
          TABS.includes(v as (typeof TABS)[number]) &&
          void navigate({ search: location.search, hash: v === 'chat' ? '' : v }, { replace: true })
        }
        keepMounted={false}
        activateTabWithKeyboard
        style={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}
      >
        <Group justify="space-between" px="md" wrap="nowrap">
          <Tabs.List>
            <Tabs.Tab value="chat">{t('Chat')}</Tabs.Tab>
            {historyOn && <Tabs.Tab value="history">{t('History')}</Tabs.Tab>}
          </Tabs.List>
          {tab === 'chat' && features.internal_note && (
            <Switch
              size="xs"
              label={t('Hide internal notes')}
              checked={hideNotes}
              onChange={(e) => setHideNotes(e.currentTarget.checked)}
            />
          )}
        </Group>
        <Tabs.Panel value="chat" style={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}>
          <MessageList
            key={conversation.uuid}
            conversation={conversation}
            page={messages.data}
            loading={messages.isLoading}
            hideNotes={hideNotes}
            canReply={features.message_reply === true}
            markRead
            onReply={setReply}
            onRetry={retry}
            onForeignMessage={(conv, msg) => window.open(`/chat-history/reports/${conv}#${msg}`, '_blank', 'noopener')}
          />
          <Composer
            key={conversation.uuid}
            conversation={conversation}
            tenant={tenant}
            replyTo={replyTo}
            onCancelReply={() => setReply(null)}
            onSend={send}
          />
        </Tabs.Panel>
        {historyOn && (
          <Tabs.Panel value="history" style={{ flex: 1, minHeight: 0, overflowY: 'auto' }}>
            <HistoryTab contactUuid={conversation.contact.uuid} />
          </Tabs.Panel>
        )}
      </Tabs>
    </div>
  );
}
