import type { User } from '@atende/contract';
import { Badge, Button, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { metricsRoom, useRoom } from '../../realtime/RealtimeProvider';
import { queryKeys, useMe } from '../../session/session';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';

const STATE_COLOR = { online: 'green', paused: 'yellow', offline: 'gray' } as const;
const STATE_LABEL = { online: 'Online', paused: 'Paused', offline: 'Offline' } as const;

/** Admin dashboard: agent availability, live through tenant_{uuid}_metrics; a supervisor may end a session. */
export function DashboardPage() {
  const { t } = useTranslation();
  const me = useMe().data;
  useRoom(me ? metricsRoom(me.workspace.tenant.uuid) : null);
  const agents = useQuery({ queryKey: queryKeys.users('agent'), queryFn: async () => (await api.listUsers({ query: { role: 'agent' } })).data });
  const [target, setTarget] = useState<User | null>(null);
  const disconnect = useMutation({
    mutationFn: (user: User) => api.updateUser({ params: { id: String(user.id) }, body: { state: 'offline' } }),
    onSuccess: (_, user) => {
      notifications.show({ color: 'green', message: t('{{name}} was disconnected', { name: user.username }) });
      setTarget(null);
    },
  });

  return (
    <Stack>
      <Title order={3}>{t('Agent availability')}</Title>
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
              <Table.Th>{t('Pause')}</Table.Th>
              <Table.Th>{t('Logged in since')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {agents.data.map((agent) => (
              <Table.Tr key={agent.uuid} data-testid={`agent-row-${agent.email}`}>
                <Table.Td>{agent.username}</Table.Td>
                <Table.Td>{agent.email}</Table.Td>
                <Table.Td>
                  <Badge color={agent.is_logged ? STATE_COLOR[agent.state] : 'gray'} variant="light">
                    {t(agent.is_logged ? STATE_LABEL[agent.state] : 'Offline')}
                  </Badge>
                </Table.Td>
                <Table.Td>{agent.current_pause?.description ?? '--'}</Table.Td>
                <Table.Td>{agent.is_logged && agent.logged_at ? new Date(agent.logged_at).toLocaleTimeString() : '--'}</Table.Td>
                <Table.Td>
                  {agent.is_logged && agent.uuid !== me?.uuid && (
                    <Button size="xs" variant="light" color="red" onClick={() => setTarget(agent)}>
                      {t('Disconnect')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Modal opened={target !== null} onClose={() => setTarget(null)} title={t('Disconnect {{name}}?', { name: target?.username ?? '' })} size={464}>
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
