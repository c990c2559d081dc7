import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

interface ConfirmModalProps {
  opened: boolean;
  title: string;
  /** The question, already translated. */
  message: string;
  confirmLabel: string;
  loading?: boolean;
  onConfirm(): void;
  onClose(): void;
}

/** A destructive action's confirmation: the question, Cancel, and the red confirm button. */
export function ConfirmModal({ opened, title, message, confirmLabel, loading, onConfirm, onClose }: ConfirmModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={title} closeButtonProps={{ 'aria-label': t('Close') }}>
      <Stack>
        <Text>{message}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button color="red" loading={loading} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
