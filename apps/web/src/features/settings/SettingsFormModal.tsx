import { Button, Group, Modal, Stack } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The create/edit modal of a settings resource: the fields, Cancel and Save (spec widths sm 464, md 675). */
export function SettingsFormModal({
  title,
  size = 'sm',
  submitting,
  onSubmit,
  onClose,
  children,
}: {
  title: string;
  size?: 'sm' | 'md';
  submitting: boolean;
  onSubmit(e?: FormEvent): void;
  onClose(): void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={onClose} title={title} size={size === 'sm' ? 464 : 675} closeButtonProps={{ 'aria-label': t('Close') }}>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {children}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('Cancel')}
            </Button>
            <Button type="submit" loading={submitting}>
              {t('Save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
