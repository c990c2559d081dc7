import { Center, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The loading state of a panel in the narrow right-hand column. */
export function PanelLoading() {
  const { t } = useTranslation();
  return (
    <Center py="md" role="status" aria-live="polite">
      <Loader size="sm" aria-hidden />
      <Text size="sm" c="dimmed" ml="xs">
        {t('Loading...')}
      </Text>
    </Center>
  );
}
