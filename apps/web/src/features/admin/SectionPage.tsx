import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../ui/states';

/** A section of the admin area whose content arrives with a later capability. */
export function SectionPage({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={3}>{t(title)}</Title>
      <EmptyState text={t('No data found')} />
    </Stack>
  );
}
