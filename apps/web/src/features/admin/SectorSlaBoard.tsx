import type { SectorSla } from '@atende/contract';
import { Badge, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { formatHms } from '@atende/core';
import { useSectorSla } from './dashboardQueries';

const breached = (s: SectorSla) => s.first_response_breaches > 0 || s.session_breaches > 0;

function Figure({ label, value, alert }: { label: string; value: string; alert?: boolean }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} c={alert ? 'red' : undefined}>
        {value}
      </Text>
    </Stack>
  );
}

/** Each sector's queue against its SLA seconds; a sector with breaches is outlined in red. */
export function SectorSlaBoard() {
  const { t } = useTranslation();
  const sectors = useSectorSla();
  if (sectors.isPending) return <LoadingState />;
  if (sectors.isError) return <ErrorState onRetry={() => void sectors.refetch()} />;
  if (sectors.data.length === 0) return <EmptyState text={t('No data found')} />;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
      {sectors.data.map((s) => (
        <Paper
          key={s.uuid}
          withBorder
          p="md"
          style={breached(s) ? { borderColor: 'var(--mantine-color-red-6)', borderWidth: 2 } : undefined}
          aria-label={s.name}
          data-testid={`sla-${s.uuid}`}
        >
          <Group justify="space-between" mb="sm">
            <Text fw={700}>{s.name}</Text>
            {breached(s) ? (
              <Badge color="red">{t('SLA breached')}</Badge>
            ) : (
              <Badge color="green" variant="light">
                {t('Within SLA')}
              </Badge>
            )}
          </Group>
          <SimpleGrid cols={3}>
            <Figure label={t('Waiting')} value={String(s.waiting)} />
            <Figure label={t('Answered')} value={String(s.answered)} />
            <Figure label={t('Longest wait')} value={s.oldest_waiting_seconds === null ? '--' : formatHms(s.oldest_waiting_seconds)} />
            <Figure
              label={t('First response SLA')}
              value={s.sla_first_response_seconds === null ? t('Not set') : formatHms(s.sla_first_response_seconds)}
            />
            <Figure label={t('First response breaches')} value={String(s.first_response_breaches)} alert={s.first_response_breaches > 0} />
            <Figure label={t('Session breaches')} value={String(s.session_breaches)} alert={s.session_breaches > 0} />
          </SimpleGrid>
          <Text size="xs" c="dimmed" mt="xs">
            {t('Session SLA')}: {s.sla_session_seconds === null ? t('Not set') : formatHms(s.sla_session_seconds)}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
