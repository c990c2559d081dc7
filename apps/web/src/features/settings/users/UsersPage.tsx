import type { Role, User } from '@atende/contract';
import { ROLE_LABELS } from '@atende/core';
import { ActionIcon, Anchor, Badge, Button, Group, Stack, Table, Title, Tooltip } from '@mantine/core';
import { IconKey, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMe } from '../../../session/session';
import { ConfirmModal } from '../../../ui/ConfirmModal';
import { RowActions } from '../../../ui/RowActions';
import { EmptyState, ErrorState, LoadingState } from '../../../ui/states';
import { toastSuccess } from '../../../ui/toasts';
import { SetPasswordModal } from './SetPasswordModal';
import { UserFormModal } from './UserFormModal';
import { useDeleteUser, useUsers } from './queries';

/** Users of the workspace (admin and owner): roles as tags, create/edit modal, delete with confirmation. */
export function UsersPage() {
  const { t } = useTranslation();
  const me = useMe().data;
  const users = useUsers();
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);
  const [settingPassword, setSettingPassword] = useState<User | null>(null);
  const remove = useDeleteUser();
  const myRoles: Role[] = me?.roles.map((r) => r.name) ?? [];

  let body;
  if (users.isPending || !me) body = <LoadingState />;
  else if (users.isError) body = <ErrorState onRetry={() => void users.refetch()} />;
  else if (users.data.length === 0) body = <EmptyState text={t('No users found')} />;
  else
    body = (
      <Table striped aria-label={t('Users')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Name')}</Table.Th>
            <Table.Th>{t('Email')}</Table.Th>
            <Table.Th>{t('Roles')}</Table.Th>
            <Table.Th>{t('Actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.data.map((u) => (
            <Table.Tr key={u.uuid}>
              <Table.Td>{u.username}</Table.Td>
              <Table.Td>{u.email}</Table.Td>
              <Table.Td>
                <Group gap={4} role="list" aria-label={t('Roles')}>
                  {u.roles.map((r) => (
                    <Badge key={r.name} variant="light" size="sm" role="listitem">
                      {t(ROLE_LABELS[r.name] ?? r.name)}
                    </Badge>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  {/* An admin cannot remove themselves (the api refuses it too). */}
                  <RowActions
                    name={u.username}
                    onEdit={() => setEditing(u)}
                    onDelete={u.uuid !== me.uuid ? () => setDeleting(u) : undefined}
                  />
                  {/* Another user's password (one's own is changed in the profile); an owner's only by an owner. */}
                  {u.uuid !== me.uuid && (myRoles.includes('owner') || !u.roles.some((r) => r.name === 'owner')) && (
                    <Tooltip label={t('Set a new password')}>
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('Set a new password for {{name}}', { name: u.username })}
                        onClick={() => setSettingPassword(u)}
                      >
                        <IconKey size={16} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    );

  return (
    <Stack>
      <Anchor component={Link} to=".." relative="path" size="sm">
        ← {t('Settings')}
      </Anchor>
      <Group justify="space-between">
        <Title order={3}>{t('Users')}</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          {t('New user')}
        </Button>
      </Group>
      {body}
      {settingPassword && <SetPasswordModal user={settingPassword} onClose={() => setSettingPassword(null)} />}
      {editing && <UserFormModal user={editing === 'new' ? null : editing} myRoles={myRoles} onClose={() => setEditing(null)} />}
      <ConfirmModal
        opened={deleting !== null}
        title={t('Delete user')}
        message={t('Are you sure? This cannot be undone.')}
        confirmLabel={t('Delete')}
        loading={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.uuid, {
            onSuccess: () => {
              toastSuccess(t('User deleted successfully'));
              setDeleting(null);
            },
          })
        }
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
