import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useRealtime } from '../../realtime/RealtimeProvider';

/** The agent workstation (spec 000 §2); conversations arrive with the conversation engine. */
export function WorkstationPage() {
  const { t } = useTranslation();
  const { state, reconnect } = useRealtime();
  if (state === 'disconnected') {
    return (
      <Center h="70vh">
        <Stack align="center">
          <Title order={3}>{t('Falha na conexão')}</Title>
          <Button onClick={reconnect}>{t('Try to reconnect')}</Button>
        </Stack>
      </Center>
    );
  }
  return (
    <Center h="70vh">
      <Text size="lg" c="dimmed">
        {t('Start messaging! Select a chat and talk to the customers')}
      </Text>
    </Center>
  );
}
