import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Every page has these three states. */
export function LoadingState({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <Center h="100%" mih={200} role="status" aria-live="polite">
      <Stack align="center" gap="xs">
        <Loader size="md" />
        <Text size="sm" c="dimmed">
          {label ?? t('Loading...')}
        </Text>
      </Stack>
    </Center>
  );
}

export function EmptyState({ text }: { text: string }) {
  return (
    <Center mih={160}>
      <Text c="dimmed">{text}</Text>
    </Center>
  );
}

export function ErrorState({ onRetry }: { onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" title={t('Something went wrong')} role="alert">
      <Text size="sm">{t('The data could not be loaded.')}</Text>
      {onRetry && (
        <Button variant="light" color="red" mt="sm" onClick={onRetry}>
          {t('Try again')}
        </Button>
      )}
    </Alert>
  );
}

/** A list query's three states, or its rows when it has some (the settings lists all read this way). */
export function ListStates<T>({
  query,
  empty,
  children,
}: {
  query: { isPending: boolean; isError: boolean; data?: T[]; refetch(): unknown };
  empty: string;
  children(rows: T[]): ReactNode;
}) {
  if (query.isPending) return <LoadingState />;
  if (query.isError || !query.data) return <ErrorState onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) return <EmptyState text={empty} />;
  return <>{children(query.data)}</>;
}
