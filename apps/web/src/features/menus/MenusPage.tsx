import type { AutomatedMenu } from '@atende/contract';
import { allows } from '@atende/core';
import { Anchor, Badge, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { useMe } from '../../session/session';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { ListHeader } from '../../ui/ListHeader';
import { RowActions } from '../../ui/RowActions';
import { ListStates } from '../../ui/states';
import { toastSuccess } from '../../ui/toasts';
import { MenuModal } from './MenuModal';
import { ENTRY_POINT_KIND } from './entryPoint';

export const menuKeys = { all: ['automated-menus'] as const };

/**
 * Settings > Automated menu: the menus and the channels they greet; below, every
 * channel with its entry point, each leading to its settings page where the entry point is chosen.
 */
export function MenusPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const me = useMe().data;
  const isAdmin =
    !!me &&
    allows(
      me.roles.map((r) => r.name),
      'settings.menus.write',
    );
  const menus = useQuery({ queryKey: menuKeys.all, queryFn: async () => (await api.listAutomatedMenus({})).data });
  const channels = useQuery({
    queryKey: ['channels', 'all'],
    queryFn: async () => (await api.listChannels({ query: { _limit: 0 } })).data,
  });
  const [editing, setEditing] = useState<AutomatedMenu | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AutomatedMenu | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: menuKeys.all });
  const remove = useMutation({
    mutationFn: (m: AutomatedMenu) => api.deleteAutomatedMenu({ params: { id: m.uuid } }),
    onSuccess: () => {
      toastSuccess(t('Menu deleted successfully'));
      setDeleting(null);
      refresh();
    },
  });
  return (
    <Stack>
      <ListHeader title={t('Automated menu')} newLabel={t('New menu')} onNew={isAdmin ? () => setEditing('new') : undefined} />
      <ListStates query={menus} empty={t('No menus yet')}>
        {(rows) => (
          <Table striped aria-label={t('Menus')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Name')}</Table.Th>
                <Table.Th>{t('Answers')}</Table.Th>
                <Table.Th>{t('Channels')}</Table.Th>
                <Table.Th>{t('State')}</Table.Th>
                {isAdmin && <Table.Th>{t('Actions')}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((m) => (
                <Table.Tr key={m.uuid}>
                  <Table.Td>{m.name}</Table.Td>
                  <Table.Td>{m.answers.length}</Table.Td>
                  <Table.Td>{m.channels.map((c) => c.name).join(', ') || '--'}</Table.Td>
                  <Table.Td>
                    <Badge color={m.enabled ? 'green' : 'gray'} variant="light">
                      {m.enabled ? t('Enabled') : t('Disabled')}
                    </Badge>
                  </Table.Td>
                  {isAdmin && (
                    <Table.Td>
                      <RowActions name={m.name} onEdit={() => setEditing(m)} onDelete={() => setDeleting(m)} />
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </ListStates>
      <Title order={4} mt="md">
        {t('Channels')}
      </Title>
      {channels.data && (
        <Table striped aria-label={t('Channels')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Channel')}</Table.Th>
              <Table.Th>{t('Entry point')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {channels.data.map((c) => (
              <Table.Tr key={c.uuid}>
                <Table.Td>
                  <Anchor component={Link} to={`../workspace/channels/${c.uuid}`} relative="path">
                    {c.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  {c.entry_point ? (
                    <Text size="sm">
                      {t(ENTRY_POINT_KIND[c.entry_point.type])}: {c.entry_point.name}
                    </Text>
                  ) : (
                    t('Workspace queue')
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {editing && (
        <MenuModal menu={editing === 'new' ? null : editing} menus={menus.data ?? []} onClose={() => setEditing(null)} onSaved={refresh} />
      )}
      <ConfirmModal
        opened={deleting !== null}
        title={t('Delete menu')}
        message={t('Are you sure? This cannot be undone.')}
        confirmLabel={t('Delete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
