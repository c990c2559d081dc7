import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../ui/states';

/** A section whose content arrives with a later capability: its title and the empty state. */
export function SectionPage({ title, empty = 'No data found' }: { title: string; empty?: string }) {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={3}>{t(title)}</Title>
      <EmptyState text={t(empty)} />
    </Stack>
  );
}
