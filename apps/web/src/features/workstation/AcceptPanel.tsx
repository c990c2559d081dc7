import type { Conversation, Tenant, User, Workspace } from '@atende/contract';
import { acceptSessionRefusal, agentCapacity } from '@atende/core';
import { Button, Group, Paper, Text } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { isStaleCopy } from './conversationEvents';
import { workstationKeys } from './queries';

interface Props {
  me: User;
  tenant: Tenant;
  workspace: Workspace | undefined;
  conversations: Conversation[];
  waiting: number;
  onAccepted(conversation: Conversation): void;
}

/**
 * Accept session: takes the next waiting contact. Disabled, with the reason shown,
 * when auto distribution is on, nobody waits, the agent is at the maximum or a request is running.
 */
export function AcceptPanel({ me, tenant, workspace, conversations, waiting, onAccepted }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const capacity = agentCapacity(workspace?.max_conversation_per_user ?? 10, tenant.config.agent.max_slots);
  const activeCount = conversations.filter((c) => c.state !== 'closed').length;
  const accept = useMutation({
    mutationFn: async () => (await api.acceptConversation({ body: { user_id: me.id } })).data,
    onSuccess: async (conversation) => {
      if (isStaleCopy(conversation)) return onAccepted(conversation);
      // A reload of the list asked before the accept committed (the socket's first connection reloads
      // it) would answer without this conversation and overwrite it: cancel it, add the conversation,
      // then ask again, so the list ends with everything the server has.
      await queryClient.cancelQueries({ queryKey: workstationKeys.offered, exact: true });
      queryClient.setQueryData<Conversation[]>(workstationKeys.offered, (list) =>
        list?.some((c) => c.uuid === conversation.uuid)
          ? list.map((c) => (c.uuid === conversation.uuid ? conversation : c))
          : [...(list ?? []), conversation],
      );
      onAccepted(conversation);
      void queryClient.invalidateQueries({ queryKey: workstationKeys.offered, exact: true });
    },
  });
  const refusal = workspace
    ? acceptSessionRefusal({
        mode: workspace.conversation_delivery_mode,
        activeCount,
        capacity,
        waiting,
        paused: me.current_pause !== null,
      })
    : null;
  const reason = !refusal
    ? null
    : refusal.code === 'auto_distribution'
      ? t('Você não pode solicitar atendimentos enquanto a distribuição automática estiver habilitada')
      : refusal.code === 'max_reached'
        ? t('Você já atingiu a quantidade máxima de atendimentos simultâneos ({{count}})', { count: capacity })
        : refusal.code === 'not_online'
          ? t('You cannot accept sessions while paused')
          : t('There are no sessions waiting');

  return (
    <Paper withBorder p="sm" radius="md">
      <Group justify="space-between" mb={6} wrap="nowrap">
        <Text size="sm" fw={600}>
          {t('Waiting')}
        </Text>
        <Text size="sm" aria-live="polite" data-testid="waiting-count">
          {t('{{count}} waiting', { count: waiting })}
        </Text>
      </Group>
      <Button
        fullWidth
        leftSection={<IconUserPlus size={16} />}
        onClick={() => accept.mutate()}
        loading={accept.isPending}
        disabled={!workspace || refusal !== null}
        aria-describedby={reason ? 'accept-session-reason' : undefined}
      >
        {t('Accept session')}
      </Button>
      {reason && (
        <Text id="accept-session-reason" size="xs" c="dimmed" mt={6}>
          {reason}
        </Text>
      )}
    </Paper>
  );
}
