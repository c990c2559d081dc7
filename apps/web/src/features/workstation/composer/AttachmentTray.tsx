import { Box, CloseButton, Group, Image, Loader, Paper, Progress, Text, TextInput, ThemeIcon } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconAlertTriangle, IconCheck, IconFile, IconMusic, IconVideo } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Attachment } from './attachmentStore';

/** Attachment description debounce 150 ms, image thumbnail 64 px. */
export const DESCRIPTION_DEBOUNCE_MS = 150;
const THUMBNAIL_PX = 64;

interface Props {
  attachments: readonly Attachment[];
  disabled: boolean;
  onRemove(id: string): void;
  onDescription(id: string, description: string): void;
  onSubmit(): void;
}

/** The unsent attachments above the composer's text: thumbnail or icon, upload state, description, remove. */
export function AttachmentTray({ attachments, disabled, onRemove, onDescription, onSubmit }: Props) {
  const { t } = useTranslation();
  if (attachments.length === 0) return null;
  return (
    <Group gap="xs" mb={6} wrap="nowrap" style={{ overflowX: 'auto' }} role="list" aria-label={t('Attachments')} data-testid="attachments">
      {attachments.map((a) => (
        <Chip key={a.id} attachment={a} disabled={disabled} onRemove={onRemove} onDescription={onDescription} onSubmit={onSubmit} />
      ))}
    </Group>
  );
}

function Chip({ attachment: a, disabled, onRemove, onDescription, onSubmit }: { attachment: Attachment } & Omit<Props, 'attachments'>) {
  const { t } = useTranslation();
  // Typing shows at once; the conversation's attachment takes the text 150 ms after the last key.
  const [description, setDescription] = useState(a.description);
  const commit = useDebouncedCallback((text: string) => onDescription(a.id, text), {
    delay: DESCRIPTION_DEBOUNCE_MS,
    flushOnUnmount: true,
  });
  return (
    <Paper withBorder radius="sm" p={6} w={220} style={{ flex: '0 0 auto' }} role="listitem" aria-label={a.name} data-status={a.status}>
      <Group gap={6} wrap="nowrap" align="flex-start">
        <Preview attachment={a} />
        <Box style={{ minWidth: 0, flex: 1 }}>
          <Group gap={4} wrap="nowrap" justify="space-between">
            <Text size="xs" fw={500} truncate title={a.name}>
              {a.name}
            </Text>
            <CloseButton size="xs" aria-label={t('Remove {{name}}', { name: a.name })} onClick={() => onRemove(a.id)} />
          </Group>
          <Status attachment={a} />
          <TextInput
            size="xs"
            mt={4}
            placeholder={t('Description')}
            aria-label={t('Description of {{name}}', { name: a.name })}
            value={description}
            disabled={disabled || a.status === 'failed'}
            onChange={(e) => {
              setDescription(e.currentTarget.value);
              commit(e.currentTarget.value);
            }}
            onBlur={() => commit.flush()}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
                e.preventDefault();
                commit.flush();
                onSubmit();
              }
            }}
          />
        </Box>
      </Group>
    </Paper>
  );
}

function Preview({ attachment: a }: { attachment: Attachment }) {
  if (a.previewUrl && a.contentType.startsWith('image/')) {
    return <Image src={a.previewUrl} alt="" w={THUMBNAIL_PX} h={THUMBNAIL_PX} fit="cover" radius="sm" style={{ flex: '0 0 auto' }} />;
  }
  const Icon = a.contentType.startsWith('audio/') ? IconMusic : a.contentType.startsWith('video/') ? IconVideo : IconFile;
  return (
    <ThemeIcon variant="light" color="gray" size={THUMBNAIL_PX} radius="sm" style={{ flex: '0 0 auto' }} aria-hidden>
      {a.status === 'fetching' ? <Loader size="sm" /> : <Icon size={28} />}
    </ThemeIcon>
  );
}

function Status({ attachment: a }: { attachment: Attachment }) {
  const { t } = useTranslation();
  if (a.status === 'fetching') {
    return (
      <Text size="xs" c="dimmed">
        {t('Fetching image')}
      </Text>
    );
  }
  if (a.status === 'uploading') {
    const percent = Math.round(a.progress * 100);
    return <Progress size="sm" mt={4} value={percent} animated striped aria-label={t('Uploading {{name}}', { name: a.name })} />;
  }
  if (a.status === 'failed') {
    return (
      <Group gap={2} c="red">
        <IconAlertTriangle size={12} aria-hidden />
        <Text size="xs">{t('Upload failed')}</Text>
      </Group>
    );
  }
  return (
    <Group gap={2} c="teal">
      <IconCheck size={12} aria-hidden />
      <Text size="xs">{t('Uploaded')}</Text>
    </Group>
  );
}
