import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

/**
 * The error screen of a routing failure: the error is reported as fatal and the
 * page advises a reload without cache or contacting support.
 */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  useEffect(() => {
    console.error('fatal: uncaught route error', error);
  }, [error]);
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
