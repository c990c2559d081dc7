import type { BodyInput, Conversation, Tenant, User } from '@atende/contract';
import { routes } from '@atende/contract';
import { ActionIcon, Avatar, Group, Text, Tooltip } from '@mantine/core';
import {
  IconArchive,
  IconArchiveOff,
  IconArrowBackUp,
  IconArrowsExchange,
  IconCircleCheck,
  IconFlag,
  IconPin,
  IconPinnedOff,
  IconX,
} from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { phrase } from '../../i18n/phrase';
import { toastSuccess } from '../../ui/toasts';
import { contactLabel, initials } from '../layout/initials';
import { FinishModal, TransferModal } from './ActionModals';
import { applyConversationEvent, hasTemplateSendError, isStaleCopy } from './conversationEvents';
import { workstationKeys } from './queries';
import { expectOwnQueueEntry } from './waitingNotice';

type Action = BodyInput<typeof routes.updateConversation>;

interface Props {
  conversation: Conversation;
  me: User;
  tenant: Tenant;
  pinned: boolean;
  onTogglePin(): void;
  /** the conversation left the agent (finished, returned, transferred): deselect it */
  onLeft(): void;
}

/** Contact, channel and the agent's actions on the open conversation ("Agent actions"). */
export function ChatHeader({ conversation: c, me, tenant, pinned, onTogglePin, onLeft }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [modal, setModal] = useState<'finish' | 'transfer' | null>(null);
  const features = tenant.config.features;
  const templateError = c.state === 'closed' && hasTemplateSendError(c);
  const outbound = c.type !== 'inbound' || c.state === 'outbound-started';
  const canTransfer = c.contact_interacted && c.state === 'answered' && !templateError;

  const act = useMutation({
    mutationFn: async (input: { body: Action; success: string }) =>
      (await api.updateConversation({ params: { id: c.uuid }, body: input.body })).data,
    onSuccess: (updated, input) => {
      setModal(null);
      toastSuccess(t(input.success));
      // A newer copy may already have arrived by the live event.
      if (isStaleCopy(updated)) return;
      const list = queryClient.getQueryData<Conversation[]>(workstationKeys.offered) ?? [];
      const outcome = applyConversationEvent(list, updated, me.id, c.uuid);
      queryClient.setQueryData(workstationKeys.offered, outcome.list);
      if (!outcome.list.some((x) => x.uuid === c.uuid)) onLeft();
    },
  });
  const run = (body: Action, success: string) => {
    // Back to the queue or to a sector's queue: the waiting count rises by the agent's own doing.
    if (body.state === 'waiting' || (body.sector_uuid && !body.user_uuid)) expectOwnQueueEntry();
    act.mutate({ body, success });
  };

  const closeLocally = () => {
    queryClient.setQueryData<Conversation[]>(workstationKeys.offered, (list) => list?.filter((x) => x.uuid !== c.uuid));
    onLeft();
  };

  return (
    <Group justify="space-between" wrap="nowrap" px="md" py={8} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
        <Avatar size={36} radius="xl" color="blue" src={c.contact.profile_image ?? undefined} alt="">
          {initials(c.contact.name)}
        </Avatar>
        <div style={{ minWidth: 0 }}>
          <Text fw={600} truncate data-testid="chat-contact-name">
            {contactLabel(c.contact)}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {[c.channel.name, c.sector?.name, `#${c.ticket_number}`].filter(Boolean).join(' · ')}
          </Text>
        </div>
      </Group>
      <Group gap={4} wrap="nowrap" role="toolbar" aria-label={t('Conversation actions')}>
        <Action
          label={pinned ? t('Unpin') : t('Pin')}
          onClick={onTogglePin}
          icon={pinned ? <IconPinnedOff size={18} /> : <IconPin size={18} />}
        />
        {features.archived_conversations && !templateError && (
          <Action
            label={c.archived ? t('Unarchive') : t('Archive')}
            onClick={() => run({ archived: !c.archived }, c.archived ? phrase('Conversa desarquivada') : phrase('Conversa arquivada'))}
            icon={c.archived ? <IconArchiveOff size={18} /> : <IconArchive size={18} />}
            disabled={act.isPending}
          />
        )}
        {!templateError && (
          <>
            <Action
              label={t('Return to queue')}
              hint={outbound ? t('Outbound sessions cannot return to the queue') : undefined}
              onClick={() => run({ state: 'waiting' }, phrase('Session returned to queue successfully!'))}
              icon={<IconArrowBackUp size={18} />}
              disabled={outbound || act.isPending}
            />
            <Action
              label={t('Prioritise')}
              hint={outbound ? t('Outbound sessions cannot return to the queue') : t('Returns the session to the top of the queue')}
              onClick={() => run({ state: 'waiting', priority: 'top' }, phrase('Session prioritized successfully!'))}
              icon={<IconFlag size={18} />}
              disabled={outbound || act.isPending}
            />
          </>
        )}
        <Action
          label={t('Transfer')}
          hint={!canTransfer ? t('You can only transfer after client interaction') : undefined}
          onClick={() => setModal('transfer')}
          icon={<IconArrowsExchange size={18} />}
          disabled={!canTransfer || act.isPending}
        />
        {templateError ? (
          <Action label={t('Close')} onClick={closeLocally} icon={<IconX size={18} />} />
        ) : (
          <Action
            label={t('Finish')}
            onClick={() => setModal('finish')}
            icon={<IconCircleCheck size={18} />}
            disabled={act.isPending}
            color="red"
          />
        )}
      </Group>
      {modal === 'finish' && (
        <FinishModal
          opened
          onClose={() => setModal(null)}
          busy={act.isPending}
          onConfirm={(reason) => run({ state: 'closed', conversation_reason_uuid: reason }, phrase('Session finished successfully!'))}
        />
      )}
      {modal === 'transfer' && (
        <TransferModal
          opened
          onClose={() => setModal(null)}
          busy={act.isPending}
          conversation={c}
          myUuid={me.uuid}
          onConfirm={(sector, user) => run({ sector_uuid: sector, user_uuid: user }, phrase('Session transferred successfully'))}
        />
      )}
    </Group>
  );
}

function Action({
  label,
  hint,
  icon,
  onClick,
  disabled,
  color,
}: {
  label: string;
  hint?: string;
  icon: ReactNode;
  onClick(): void;
  disabled?: boolean;
  color?: string;
}) {
  return (
    <Tooltip label={hint ?? label} withArrow>
      <ActionIcon
        variant="subtle"
        color={color ?? 'gray'}
        size="lg"
        aria-label={label}
        onClick={onClick}
        disabled={disabled}
        data-disabled={disabled || undefined}
      >
        {icon}
      </ActionIcon>
    </Tooltip>
  );
}
