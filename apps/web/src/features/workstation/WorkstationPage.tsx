import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconMessages, IconPlugConnectedX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useRealtime } from '../../realtime/RealtimeProvider';

/**
 * The agent workstation (spec 000 §2). Without a selected chat it invites to start; on connection
 * failure it shows the 'Falha na conexão' screen with a reconnect button. The conversation list,
 * chat area and customer panels arrive with the conversation engine.
 */
export function WorkstationPage() {
  const { t } = useTranslation();
  const { state, reconnect } = useRealtime();
  if (state === 'disconnected') {
    return (
      <Center h="70vh">
        <Stack align="center">
          <IconPlugConnectedX size={48} stroke={1.4} aria-hidden />
          <Title order={3}>{t('Falha na conexão')}</Title>
          <Button onClick={reconnect}>{t('Try to reconnect')}</Button>
        </Stack>
      </Center>
    );
  }
  return (
    <Center h="70vh">
      <Stack align="center" gap="xs">
        <IconMessages size={48} stroke={1.4} aria-hidden color="var(--mantine-color-gray-5)" />
        <Text size="lg" c="dimmed">
          {t('Start messaging! Select a chat and talk to the customers')}
        </Text>
      </Stack>
    </Center>
  );
}
