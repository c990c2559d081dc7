import type { Bot } from '@atende/contract';
import { Anchor, Stack, Table } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api/client';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { ListHeader } from '../../ui/ListHeader';
import { RowActions } from '../../ui/RowActions';
import { ListStates } from '../../ui/states';
import { toastSuccess } from '../../ui/toasts';

export const botKeys = { all: ['bots'] as const, one: (id: string) => ['bots', id] as const };

/** Settings > Bots (admin + bots_interface): the bot flows, each opened in the bot editor. */
export function BotsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const bots = useQuery({ queryKey: botKeys.all, queryFn: async () => (await api.listBots({})).data });
  const [deleting, setDeleting] = useState<Bot | null>(null);
  const remove = useMutation({
    mutationFn: (b: Bot) => api.deleteBot({ params: { id: b.uuid } }),
    onSuccess: () => {
      toastSuccess(t('Bot deleted successfully'));
      setDeleting(null);
      void queryClient.invalidateQueries({ queryKey: botKeys.all });
    },
  });
  return (
    <Stack>
      <ListHeader title={t('Bots')} newLabel={t('New bot')} onNew={() => void navigate('bot-editor/new')} />
      <ListStates query={bots} empty={t('No bots yet')}>
        {(rows) => (
          <Table striped aria-label={t('Bots')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Name')}</Table.Th>
                <Table.Th>{t('Steps')}</Table.Th>
                <Table.Th>{t('Actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((b) => (
                <Table.Tr key={b.uuid}>
                  <Table.Td>
                    <Anchor component={Link} to={`bot-editor/${b.uuid}`}>
                      {b.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{b.nodes.length}</Table.Td>
                  <Table.Td>
                    <RowActions name={b.name} onEdit={() => void navigate(`bot-editor/${b.uuid}`)} onDelete={() => setDeleting(b)} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </ListStates>
      <ConfirmModal
        opened={deleting !== null}
        title={t('Delete bot')}
        message={t('Are you sure? This cannot be undone.')}
        confirmLabel={t('Delete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
