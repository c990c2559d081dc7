import { ActionIcon, Anchor, Button, Group, Stack, Table, Title } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { toastSuccess } from '../../ui/toasts';

export interface Column<T> {
  header: string;
  cell(row: T): ReactNode;
}

/** What the table reads of a query: its state and rows (a page's rows for paged lists). */
export interface Rows<T> {
  isPending: boolean;
  isError: boolean;
  data: T[] | undefined;
  refetch(): unknown;
}

interface SettingsTableProps<T extends { uuid: string }> {
  /** Already translated. */
  label: string;
  rows: Rows<T>;
  columns: Column<NoInfer<T>>[];
  emptyText: string;
  nameOf(row: NoInfer<T>): string;
  /** Without it the table is read-only (no edit or delete). */
  onEdit?(row: NoInfer<T>): void;
  remove?: { call(row: NoInfer<T>): Promise<unknown>; invalidates: QueryKey; successText: string; confirmTitle: string };
}

/** A settings table with its loading, error and empty states, edit and delete (confirmed) actions. */
export function SettingsTable<T extends { uuid: string }>({
  label,
  rows,
  columns,
  emptyText,
  nameOf,
  onEdit,
  remove,
}: SettingsTableProps<T>) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState<T | null>(null);
  const mutation = useMutation({
    mutationFn: (row: T) => remove!.call(row),
    onSuccess: () => {
      toastSuccess(remove!.successText);
      setDeleting(null);
      void queryClient.invalidateQueries({ queryKey: remove!.invalidates });
    },
  });
  if (rows.isPending) return <LoadingState />;
  if (rows.isError || !rows.data) return <ErrorState onRetry={() => void rows.refetch()} />;
  if (rows.data.length === 0) return <EmptyState text={emptyText} />;
  const actions = Boolean(onEdit || remove);
  return (
    <>
      <Table striped aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.header}>{c.header}</Table.Th>
            ))}
            {actions && <Table.Th w={100}>{t('Actions')}</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.data.map((row) => (
            <Table.Tr key={row.uuid}>
              {columns.map((c) => (
                <Table.Td key={c.header}>{c.cell(row)}</Table.Td>
              ))}
              {actions && (
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    {onEdit && (
                      <ActionIcon variant="subtle" aria-label={t('Edit {{name}}', { name: nameOf(row) })} onClick={() => onEdit(row)}>
                        <IconPencil size={16} />
                      </ActionIcon>
                    )}
                    {remove && (
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('Delete {{name}}', { name: nameOf(row) })}
                        onClick={() => setDeleting(row)}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    )}
                  </Group>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {remove && (
        <ConfirmModal
          opened={deleting !== null}
          title={remove.confirmTitle}
          message={t('Are you sure? This cannot be undone.')}
          confirmLabel={t('Delete')}
          loading={mutation.isPending}
          onConfirm={() => deleting && mutation.mutate(deleting)}
          onClose={() => setDeleting(null)}
        />
      )}
    </>
  );
}

/** The heading of a settings screen: back to the hub, the title and the add button (when the user may write). */
export function SettingsHeader({ title, addLabel, onAdd }: { title: string; addLabel?: string; onAdd?(): void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Anchor component={Link} to=".." relative="path" size="sm">
        ← {t('Settings')}
      </Anchor>
      <Group justify="space-between">
        <Title order={3}>{title}</Title>
        {onAdd && addLabel && (
          <Button leftSection={<IconPlus size={16} />} onClick={onAdd}>
            {addLabel}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
