import type { DashboardStats } from '@atende/contract';
import { Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { phrase } from '../../i18n/phrase';
import { AgentAvailability } from './AgentAvailability';
import { LiveConversations } from './LiveConversations';
import { useDashboardLive, useDashboardStats } from './dashboardQueries';

const STAT_CARDS: { key: keyof DashboardStats; label: string; value: (s: DashboardStats) => string }[] = [
  { key: 'avg_first_response_time', label: phrase('Average first response time'), value: (s) => s.avg_first_response_time.time },
  { key: 'avg_session_time', label: phrase('Average session time'), value: (s) => s.avg_session_time.time },
  { key: 'new_sessions', label: phrase('New sessions'), value: (s) => String(s.new_sessions) },
  { key: 'opened_sessions', label: phrase('Open sessions'), value: (s) => String(s.opened_sessions) },
  { key: 'closed_sessions', label: phrase('Closed sessions'), value: (s) => String(s.closed_sessions) },
];

/**
 * Admin dashboard: today's figures computed by the server, the open conversations and
 * the agents' availability, all kept live through tenant_{uuid}_metrics.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  useDashboardLive();
  const stats = useDashboardStats();
  return (
    <Stack gap="xl">
      <section aria-label={t("Today's figures")}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }}>
          {STAT_CARDS.map((card) => (
            <Paper key={card.key} withBorder p="md" data-testid={`stat-${card.key}`}>
              <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                {t(card.label)}
              </Text>
              {stats.data ? (
                <Text fz={26} fw={700} ff={card.key.startsWith('avg') ? 'monospace' : undefined}>
                  {card.value(stats.data)}
                </Text>
              ) : (
                <Skeleton height={32} mt={4} animate={stats.isPending} />
              )}
            </Paper>
          ))}
        </SimpleGrid>
      </section>
      <Stack gap="sm">
        <Title order={3}>{t('Live conversations')}</Title>
        <LiveConversations />
      </Stack>
      <AgentAvailability />
    </Stack>
  );
}
