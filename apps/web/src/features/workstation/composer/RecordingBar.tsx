import { ActionIcon, Box, Group, Loader, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { RecorderState } from './useVoiceRecorder';
import { formatDuration } from './voiceRules';

interface Props {
  state: RecorderState;
  elapsedMs: number;
  /** false while the composer is blocked (reconnecting): the recording waits, it is not lost. */
  canConfirm: boolean;
  onCancel(): void;
  onConfirm(): void;
}

/** Shown instead of the text while recording: the mm:ss timer, cancel and confirm. */
export function RecordingBar({ state, elapsedMs, canConfirm, onCancel, onConfirm }: Props) {
  const { t } = useTranslation();
  const sending = state === 'sending';
  return (
    <Group
      gap="sm"
      wrap="nowrap"
      style={{ flex: 1, minHeight: 36 }}
      px="sm"
      data-testid="voice-recorder"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !sending) onCancel();
      }}
    >
      <Tooltip label={t('Cancel recording')}>
        <ActionIcon variant="subtle" color="red" size="lg" aria-label={t('Cancel recording')} onClick={onCancel} disabled={sending}>
          <IconTrash size={18} />
        </ActionIcon>
      </Tooltip>
      <Box w={10} h={10} bg="red" style={{ borderRadius: '50%', opacity: sending ? 0.4 : 1 }} aria-hidden />
      <Text size="sm" c="dimmed">
        {sending ? t('Sending voice message') : t('Recording')}
      </Text>
      <Text size="sm" ff="monospace" role="timer" aria-label={t('Recording time')} style={{ flex: 1 }}>
        {formatDuration(elapsedMs)}
      </Text>
      {sending ? (
        <Loader size="sm" aria-label={t('Sending voice message')} />
      ) : (
        <Tooltip label={t('Send recording')}>
          <ActionIcon size="lg" color="teal" aria-label={t('Send recording')} onClick={onConfirm} disabled={!canConfirm} autoFocus>
            <IconCheck size={18} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}
