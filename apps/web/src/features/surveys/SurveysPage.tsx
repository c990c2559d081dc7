import type { Survey } from '@atende/contract';
import { Anchor, Badge, Stack, Table } from '@mantine/core';
import { roleCovers } from '@atende/core';
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
import { SurveyModal } from './SurveyModal';

export const surveyKeys = { all: ['surveys'] as const, one: (id: string) => ['surveys', id] as const };

/** Settings > Surveys: the workspace's surveys; admins create, edit and delete them. */
export function SurveysPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const me = useMe().data;
  const isAdmin =
    !!me &&
    roleCovers(
      me.roles.map((r) => r.name),
      'admin',
    );
  const surveys = useQuery({ queryKey: surveyKeys.all, queryFn: async () => (await api.listSurveys({})).data });
  const sectors = useQuery({ queryKey: ['sectors', 'all'], queryFn: async () => (await api.listSectors({ query: { _limit: 0 } })).data });
  const [editing, setEditing] = useState<Survey | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Survey | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: surveyKeys.all });
  const remove = useMutation({
    mutationFn: (s: Survey) => api.deleteSurvey({ params: { id: s.uuid } }),
    onSuccess: () => {
      toastSuccess(t('Survey deleted successfully'));
      setDeleting(null);
      refresh();
    },
  });
  const sectorName = (uuid: string) => sectors.data?.find((s) => s.uuid === uuid)?.name ?? '…';
  return (
    <Stack>
      <ListHeader title={t('Surveys')} newLabel={t('New survey')} onNew={isAdmin ? () => setEditing('new') : undefined} />
      <ListStates query={surveys} empty={t('No surveys yet')}>
        {(rows) => (
          <Table striped aria-label={t('Surveys')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Name')}</Table.Th>
                <Table.Th>{t('Question')}</Table.Th>
                <Table.Th>{t('Sectors')}</Table.Th>
                <Table.Th>{t('State')}</Table.Th>
                {isAdmin && <Table.Th>{t('Actions')}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((s) => (
                <Table.Tr key={s.uuid}>
                  <Table.Td>
                    <Anchor component={Link} to={s.uuid}>
                      {s.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td maw={320}>{s.question}</Table.Td>
                  <Table.Td>{s.sector_uuids.map(sectorName).join(', ') || '--'}</Table.Td>
                  <Table.Td>
                    <Badge color={s.enabled ? 'green' : 'gray'} variant="light">
                      {s.enabled ? t('Enabled') : t('Disabled')}
                    </Badge>
                  </Table.Td>
                  {isAdmin && (
                    <Table.Td>
                      <RowActions name={s.name} onEdit={() => setEditing(s)} onDelete={() => setDeleting(s)} />
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </ListStates>
      {editing && <SurveyModal survey={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={refresh} />}
      <ConfirmModal
        opened={deleting !== null}
        title={t('Delete survey')}
        message={t('Are you sure? This cannot be undone.')}
        confirmLabel={t('Delete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
