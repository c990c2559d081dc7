import type { Conversation, User } from '@atende/contract';
import { Button, Group, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useTenant } from '../../session/session';
import { toastSuccess } from '../../ui/toasts';
import { TransferModal } from './ActionModals';
import { upsertMessages, type MessagePage } from './messageCache';
import { workstationKeys } from './queries';

/** From the live view /chat/{id} a supervisor transfers the conversation (to a sector or one of its agents). */
export function SupervisorTransfer({ conversation, me }: { conversation: Conversation; me: User }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const transfer = useMutation({
    mutationFn: async ({ sector, user }: { sector: string; user: string | null }) =>
      (await api.updateConversation({ params: { id: conversation.uuid }, body: { sector_uuid: sector, user_uuid: user } })).data,
    onSuccess: (c) => {
      queryClient.setQueryData(['conversations', 'view', conversation.uuid], c);
      setOpen(false);
      toastSuccess(t('Session transferred successfully'));
    },
  });
  // The server's rule: only after the contact wrote, and never a finished conversation.
  if (!conversation.contact_interacted || conversation.state === 'closed' || conversation.state === 'closing') return null;
  return (
    <>
      <Button variant="light" size="xs" onClick={() => setOpen(true)}>
        {t('Transfer')}
      </Button>
      {open && (
        <TransferModal
          opened
          onClose={() => setOpen(false)}
          busy={transfer.isPending}
          conversation={conversation}
          myUuid={me.uuid}
          onConfirm={(sector, user) => transfer.mutate({ sector, user })}
        />
      )}
    </>
  );
}

/** An internal note written from the live view; the agent sees it at once (new-message). */
export function SupervisorNote({ conversation }: { conversation: Conversation }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const tenant = useTenant().data;
  const [text, setText] = useState('');
  const note = useMutation({
    mutationFn: async (content: string) =>
      (await api.sendMessage({ params: { id: conversation.uuid }, body: { uuid: crypto.randomUUID(), content, internal: true } })).data,
    onSuccess: (res) => {
      queryClient.setQueryData<MessagePage>(workstationKeys.messages(conversation.uuid), (page) =>
        page ? upsertMessages(page, res.data) : page,
      );
      setText('');
      toastSuccess(t('Internal note added'));
    },
  });
  // Notes go to the agent of an active conversation (the server refuses them elsewhere with 409).
  if (tenant?.config.features.internal_note !== true || (conversation.state !== 'answered' && conversation.state !== 'outbound-started'))
    return null;
  const content = text.trim();
  return (
    <Group
      component="form"
      align="flex-end"
      gap="xs"
      p="xs"
      wrap="nowrap"
      onSubmit={(e) => {
        e.preventDefault();
        if (content) note.mutate(content);
      }}
    >
      <Textarea
        aria-label={t('Internal note')}
        placeholder={t('Write an internal note for the agent')}
        autosize
        minRows={1}
        maxRows={4}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        style={{ flex: 1 }}
      />
      <Button type="submit" size="sm" disabled={!content} loading={note.isPending}>
        {t('Add note')}
      </Button>
    </Group>
  );
}
