import { Box, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { axisTicks, axisTop } from './chartAxis';

/** Chart bars: minimum length 4, border width 1. */
const HEIGHT = 140;
const MIN_BAR = 4;
/** Room under the bars for a group's label (the value axis ends where the bars start). */
const LABEL_ROW = 22;

export interface BarSeries {
  key: string;
  /** Already translated. */
  label: string;
  color: string;
}
export interface BarGroup {
  key: string;
  label: string;
  values: Record<string, number>;
}

type Props = { label: string } & (
  | { /** One series: a bar per label (report trends). */ bars: { label: string; value: number }[]; color?: string }
  | { /** Several series: a group of bars per label with a legend (campaign summary). */ groups: BarGroup[]; series: BarSeries[] }
);

/**
 * The vertical bar chart of the reports (the only chart type), shared by the campaign
 * summary (sent / error / completed per campaign) and the admin reports (one value per day, weekday
 * or hour). Zero bars keep the minimum length, faded.
 */
export function BarChart(props: Props) {
  const series: BarSeries[] = 'groups' in props ? props.series : [{ key: 'value', label: props.label, color: props.color ?? '#3b82f6' }];
  const groups: BarGroup[] =
    'groups' in props ? props.groups : props.bars.map((b) => ({ key: b.label, label: b.label, values: { value: b.value } }));
  const single = series.length === 1;
  const { i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language === 'pt' ? 'pt-BR' : 'en-US');
  const max = axisTop(Math.max(0, ...groups.flatMap((g) => series.map((s) => g.values[s.key] ?? 0))));
  return (
    <Stack gap="xs" role="img" aria-label={props.label}>
      <Group gap={single ? 6 : 'lg'} align="flex-end" wrap="nowrap" style={{ overflowX: 'auto', minHeight: HEIGHT + 36 }}>
        {/* The value axis (the chart had no values on it). */}
        <Stack
          justify="space-between"
          align="flex-end"
          h={HEIGHT + 8}
          mb={LABEL_ROW}
          gap={0}
          data-testid="chart-axis"
          style={{ borderRight: '1px solid var(--mantine-color-gray-4)', paddingRight: 4 }}
        >
          {axisTicks(max).map((tick) => (
            <Text key={tick} size="xs" c="dimmed" lh={1}>
              {number.format(tick)}
            </Text>
          ))}
        </Stack>
        {groups.map((g) => (
          <Stack key={g.key} gap={2} align="center" miw={28}>
            {single && <Text size="xs">{number.format(g.values[series[0]!.key] ?? 0)}</Text>}
            <Group gap={2} align="flex-end" wrap="nowrap">
              {series.map((s) => {
                const value = g.values[s.key] ?? 0;
                return (
                  <Box
                    key={s.key}
                    w={single ? 20 : 18}
                    h={Math.max(MIN_BAR, Math.round((value / max) * HEIGHT))}
                    style={{ background: s.color, border: `1px solid ${s.color}`, borderRadius: 2, opacity: value === 0 ? 0.35 : 1 }}
                    title={`${single ? g.label : s.label}: ${number.format(value)}`}
                  />
                );
              })}
            </Group>
            <Text size="xs" c={single ? 'dimmed' : undefined} maw={120} h={LABEL_ROW - 4} truncate style={{ whiteSpace: 'nowrap' }}>
              {g.label}
            </Text>
          </Stack>
        ))}
      </Group>
      {!single && (
        <Group gap="md">
          {series.map((s) => (
            <Group key={s.key} gap={4}>
              <Box w={10} h={10} bg={s.color} />
              <Text size="xs">{s.label}</Text>
            </Group>
          ))}
        </Group>
      )}
    </Stack>
  );
}
