import { rooms, type User } from '@atende/contract';
import { roleCovers } from '@atende/core';
import { Badge, Button, Group, Modal, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { LIVE } from '../../realtime/liveQueries';
import { useRoom } from '../../realtime/RealtimeProvider';
import { queryKeys, useMe } from '../../session/session';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { toastSuccess } from '../../ui/toasts';

type Availability = 'online' | 'paused' | 'offline';
const STATE_COLOR: Record<Availability, string> = { online: 'green', paused: 'yellow', offline: 'gray' };
const STATE_LABEL: Record<Availability, string> = { online: 'Online', paused: 'Paused', offline: 'Offline' };
const availability = (user: User): Availability => (user.is_logged ? user.state : 'offline');

/** Agents that count for availability: supervisors that are also agents do not. */
const countsAsAgent = (user: User) =>
  !roleCovers(
    user.roles.map((r) => r.name),
    'supervisor',
  );

/**
 * The agents' availability (GET /api/v1/users?role=agent), kept live by `update-user` in
 * tenant_{uuid}_metrics; a supervisor may end an agent's session.
 */
export function AgentAvailability() {
  const { t, i18n } = useTranslation();
  const me = useMe().data;
  const queryClient = useQueryClient();
  useRoom(me ? rooms.metrics(me.workspace.tenant.uuid) : null);
  const agents = useQuery({
    queryKey: queryKeys.users('agent'),
    queryFn: async () => (await api.listUsers({ query: { role: 'agent' } })).data,
    select: (users) => users.filter(countsAsAgent),
    meta: LIVE,
  });
  const [target, setTarget] = useState<User | null>(null);
  const disconnect = useMutation({
    mutationFn: async (user: User) => (await api.updateUser({ params: { id: String(user.id) }, body: { state: 'offline' } })).data,
    onSuccess: (updated) => {
      queryClient.setQueryData<User[]>(queryKeys.users('agent'), (list) => list?.map((u) => (u.uuid === updated.uuid ? updated : u)));
      toastSuccess(t('{{name}} was disconnected', { name: updated.username }));
      setTarget(null);
    },
  });
  const locale = i18n.language === 'pt' ? 'pt-BR' : 'en-US';

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>{t('Agent availability')}</Title>
        {agents.data && (
          <Group gap="xs" aria-label={t('Availability summary')}>
            {(Object.keys(STATE_COLOR) as Availability[]).map((state) => (
              <Badge key={state} color={STATE_COLOR[state]} variant="outline">
                {t(STATE_LABEL[state])}: {agents.data.filter((a) => availability(a) === state).length}
              </Badge>
            ))}
          </Group>
        )}
      </Group>
      {agents.isPending ? (
        <LoadingState />
      ) : agents.isError ? (
        <ErrorState onRetry={() => void agents.refetch()} />
      ) : agents.data.length === 0 ? (
        <EmptyState text={t('No agents found')} />
      ) : (
        <Table striped highlightOnHover aria-label={t('Agents')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Name')}</Table.Th>
              <Table.Th>{t('Email')}</Table.Th>
              <Table.Th>{t('State')}</Table.Th>
              <Table.Th>{t('Logged in')}</Table.Th>
              <Table.Th>{t('Pause')}</Table.Th>
              <Table.Th>{t('Logged in since')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('Actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {agents.data.map((agent) => {
              const state = availability(agent);
              return (
                <Table.Tr key={agent.uuid} data-testid={`agent-row-${agent.email}`}>
                  <Table.Td>{agent.username}</Table.Td>
                  <Table.Td>{agent.email}</Table.Td>
                  <Table.Td>
                    <Badge color={STATE_COLOR[state]} variant="light">
                      {t(STATE_LABEL[state])}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{agent.is_logged ? t('Yes') : t('No')}</Table.Td>
                  <Table.Td>{agent.current_pause?.description ?? '--'}</Table.Td>
                  <Table.Td>{agent.is_logged && agent.logged_at ? new Date(agent.logged_at).toLocaleTimeString(locale) : '--'}</Table.Td>
                  <Table.Td>
                    {agent.is_logged && agent.uuid !== me?.uuid && (
                      <Button
                        size="xs"
                        variant="light"
                        color="red"
                        onClick={() => setTarget(agent)}
                        aria-label={t('Disconnect {{name}}', { name: agent.username })}
                      >
                        {t('Disconnect')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      <Modal
        opened={target !== null}
        onClose={() => setTarget(null)}
        title={t('Disconnect {{name}}?', { name: target?.username ?? '' })}
        size="sm"
        closeButtonProps={{ 'aria-label': t('Close') }}
      >
        <Text size="sm">{t('Their session ends now and their active chats return to the queue.')}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setTarget(null)}>
            {t('Cancel')}
          </Button>
          <Button color="red" loading={disconnect.isPending} onClick={() => target && disconnect.mutate(target)}>
            {t('Disconnect')}
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
