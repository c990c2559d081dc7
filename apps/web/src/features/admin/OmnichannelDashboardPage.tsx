import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SectorSlaBoard } from './SectorSlaBoard';
import { useDashboardLive } from './dashboardQueries';

/**
 * Omnichannel panel (flag omnichannel_dashboard): its own header with a clock and date updated every
 * 100 ms and a BETA badge, and each sector's SLA status kept live.
 */
export function OmnichannelDashboardPage() {
  const { t, i18n } = useTranslation();
  useDashboardLive();
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const id = setInterval(() => setNow(new Date()), 100);
    return () => clearInterval(id);
  }, []);
  const locale = i18n.language === 'pt' ? 'pt-BR' : 'en-US';
  return (
    <Stack>
      <Paper withBorder p="md">
        <Group justify="space-between">
          <Group gap="xs">
            <Title order={3}>{t('Omnichannel panel')}</Title>
            <Badge color="grape" variant="filled">
              {t('BETA')}
            </Badge>
          </Group>
          <Stack gap={0} align="flex-end" aria-live="off">
            <Text ff="monospace" fw={600} aria-label={t('Time')}>
              {now.toLocaleTimeString(locale)}
            </Text>
            <Text size="sm" c="dimmed" aria-label={t('Date')}>
              {now.toLocaleDateString(locale, { dateStyle: 'short' })}
            </Text>
          </Stack>
        </Group>
      </Paper>
      <SectorSlaBoard />
    </Stack>
  );
}
