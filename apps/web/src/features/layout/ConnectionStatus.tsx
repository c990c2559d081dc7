import { Badge, Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useRealtime } from '../../realtime/RealtimeProvider';

/** Connection states, shown in the header. */
export function ConnectionStatus() {
  const { state, reconnect } = useRealtime();
  const { t } = useTranslation();
  if (state === 'connected') {
    return (
      <Badge color="green" variant="dot" aria-live="polite">
        {t('Connected')}
      </Badge>
    );
  }
  if (state === 'connecting') {
    return (
      <Badge color="yellow" variant="dot" aria-live="polite">
        {t('Trying to reconnect')}
      </Badge>
    );
  }
  return (
    <Group gap="xs" aria-live="assertive">
      <Badge color="red" variant="dot">
        {t('Falha na conexão')}
      </Badge>
      <Button size="compact-xs" variant="light" onClick={reconnect}>
        {t('Try to reconnect')}
      </Button>
    </Group>
  );
}
