import type { Campaign } from '@atende/contract';
import { Badge, Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { STATE_LABEL } from './phrases';

/** Numbers and rates as the user's language writes them (pt-BR: 1.234 and 12,5%). */
export function useNumberFormat() {
  const { i18n } = useTranslation();
  const locale = i18n.language === 'pt' ? 'pt-BR' : 'en-US';
  return {
    n: (value: number) => new Intl.NumberFormat(locale).format(value),
    pct: (rate: number) => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(rate),
  };
}

const STATE_COLOR: Record<Campaign['state'], string> = {
  running: 'blue',
  stopped: 'gray',
  scheduled: 'violet',
  failed: 'red',
  sent: 'teal',
  completed: 'green',
  completed_with_engagement: 'green',
};

/**
 * A campaign's state and how far sending got: sent / errors / remaining of the
 * total, and the sends whose outcome is unknown, with a bar (sent, errors,
 * unknown and DND-skipped sections), live through update-campaign, which the
 * dispatcher sends at most once a second.
 */
export function CampaignProgress({ campaign, compact = false }: { campaign: Campaign; compact?: boolean }) {
  const { t } = useTranslation();
  const { n } = useNumberFormat();
  const p = campaign.progress;
  const part = (value: number) => (p.total === 0 ? 0 : (value / p.total) * 100);
  return (
    <Stack gap={4} miw={compact ? 180 : 320}>
      <Group gap="xs" wrap="nowrap">
        <Badge size="sm" variant="light" color={STATE_COLOR[campaign.state]}>
          {t(STATE_LABEL[campaign.state])}
        </Badge>
        {p.total > 0 && (
          <Text size="xs" c="dimmed">
            {t('Sent {{sent}} · Errors {{errors}} · Remaining {{remaining}} of {{total}}', {
              sent: n(p.sent),
              errors: n(p.errors),
              remaining: n(p.remaining),
              total: n(p.total),
            })}
          </Text>
        )}
        {p.unknown > 0 && (
          <Text size="xs" c="orange">
            {t('Outcome unknown {{unknown}}', { unknown: n(p.unknown) })}
          </Text>
        )}
      </Group>
      {p.total > 0 && (
        <Progress.Root size={compact ? 'sm' : 'md'} aria-label={t('Sending progress of {{name}}', { name: campaign.name })}>
          <Progress.Section
            value={part(p.sent)}
            color="teal"
            striped={campaign.state === 'running'}
            animated={campaign.state === 'running'}
          />
          <Progress.Section value={part(p.errors)} color="red" />
          <Progress.Section value={part(p.unknown)} color="orange" />
          <Progress.Section value={part(p.dnd)} color="gray" />
        </Progress.Root>
      )}
    </Stack>
  );
}
