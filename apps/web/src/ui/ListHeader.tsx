import { Button, Group, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';

/** A list page's title, with its "new" button when the caller may create. */
export function ListHeader({ title, newLabel, onNew }: { title: string; newLabel?: string; onNew?: () => void }) {
  return (
    <Group justify="space-between">
      <Title order={3}>{title}</Title>
      {onNew && newLabel && (
        <Button leftSection={<IconPlus size={16} />} onClick={onNew}>
          {newLabel}
        </Button>
      )}
    </Group>
  );
}
