import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Page-level error boundary (spec 002 §8): advise a reload without cache or contacting support. */
export function RouteErrorPage() {
  const { t } = useTranslation();
  return (
    <Center h="100vh">
      <Stack align="center" maw={480}>
        <Title order={3}>{t('Something went wrong')}</Title>
        <Text ta="center">{t('Something unexpected happened. Reload the page without cache (Ctrl+Shift+R) or contact support.')}</Text>
        <Button onClick={() => window.location.reload()}>{t('Reload')}</Button>
      </Stack>
    </Center>
  );
}
