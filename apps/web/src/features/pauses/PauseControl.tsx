import type { User } from '@atende/contract';
import { Button, Group, Loader, Menu, Modal, Text } from '@mantine/core';
import { IconChevronDown, IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { queryKeys } from '../../session/session';
import { toastSuccess } from '../../ui/toasts';
import { workstationKeys } from '../workstation/queries';

interface PauseChoice {
  uuid: string;
  description: string;
}

/**
 * The agent's pause control: pause with a reason from GET /api/v1/pauses, unpause by
 * hand. With active chats the agent chooses Keep (chats wait) or Return to queue.
 */
export function PauseControl({ me, activeChats }: { me: User; activeChats: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<PauseChoice | null>(null);
  const pauses = useQuery({ queryKey: workstationKeys.pauses, queryFn: async () => (await api.listPauses()).data, staleTime: 60_000 });
  const change = useMutation({
    mutationFn: async (input: { pause: PauseChoice | null; backToQueue?: boolean }) =>
      (await api.updateMe({ body: { current_pause_uuid: input.pause?.uuid ?? null, back_to_queue: input.backToQueue } })).data,
    onSuccess: (user, input) => {
      queryClient.setQueryData(queryKeys.me, user);
      if (input.backToQueue) void queryClient.invalidateQueries({ queryKey: workstationKeys.offered });
      setAsking(null);
      toastSuccess(input.pause ? t('Paused: {{description}}', { description: input.pause.description }) : t('You are online again'));
    },
  });
  const choose = (pause: PauseChoice) => (activeChats > 0 ? setAsking(pause) : change.mutate({ pause }));
  const current = me.current_pause;

  return (
    <>
      <Menu position="bottom-end" width={240}>
        <Menu.Target>
          <Button
            size="compact-sm"
            variant="light"
            color={current ? 'yellow' : 'green'}
            leftSection={current ? <IconPlayerPause size={14} /> : <IconPlayerPlay size={14} />}
            rightSection={change.isPending ? <Loader size={12} /> : <IconChevronDown size={14} />}
            title={t('Pause')}
          >
            {current ? t('Paused: {{description}}', { description: current.description }) : t('Online')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {current && (
            <>
              <Menu.Item leftSection={<IconPlayerPlay size={14} />} onClick={() => change.mutate({ pause: null })}>
                {t('Unpause')}
              </Menu.Item>
              <Menu.Divider />
            </>
          )}
          <Menu.Label>{t('Pause')}</Menu.Label>
          {pauses.isPending ? (
            <Menu.Item disabled>{t('Loading...')}</Menu.Item>
          ) : pauses.isError ? (
            <Menu.Item onClick={() => void pauses.refetch()}>{t('Try again')}</Menu.Item>
          ) : pauses.data.length === 0 ? (
            <Menu.Item disabled>{t('No data found')}</Menu.Item>
          ) : (
            pauses.data.map((pause) => (
              <Menu.Item key={pause.uuid} disabled={current?.uuid === pause.uuid} onClick={() => choose(pause)}>
                {pause.description}
              </Menu.Item>
            ))
          )}
        </Menu.Dropdown>
      </Menu>
      <Modal
        opened={asking !== null}
        onClose={() => setAsking(null)}
        title={t('You have active chats')}
        size="sm"
        closeButtonProps={{ 'aria-label': t('Close') }}
      >
        <Text size="sm">{t('Keep them waiting for your return, or return them to the queue for other agents?')}</Text>
        <Text size="sm" c="dimmed" mt="xs">
          {t('Chats returned to the queue that nobody took meanwhile come back to you when you end the pause.')}
        </Text>
        <Group justify="flex-end" mt="md">
          <Button
            variant="default"
            loading={change.isPending}
            onClick={() => asking && change.mutate({ pause: asking, backToQueue: false })}
          >
            {t('Keep')}
          </Button>
          <Button loading={change.isPending} onClick={() => asking && change.mutate({ pause: asking, backToQueue: true })}>
            {t('Return to queue')}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
