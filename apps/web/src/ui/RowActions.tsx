import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The edit and delete buttons of a table row, named after the row for screen readers. */
export function RowActions({
  name,
  onEdit,
  onDelete,
  editIcon,
}: {
  name: string;
  onEdit?(): void;
  onDelete?(): void;
  editIcon?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap">
      {onEdit && (
        <Tooltip label={t('Edit')}>
          <ActionIcon variant="subtle" aria-label={t('Edit {{name}}', { name })} onClick={onEdit}>
            {editIcon ?? <IconPencil size={16} />}
          </ActionIcon>
        </Tooltip>
      )}
      {onDelete && (
        <Tooltip label={t('Delete')}>
          <ActionIcon variant="subtle" color="red" aria-label={t('Delete {{name}}', { name })} onClick={onDelete}>
            <IconTrash size={16} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}
