import { useTranslation } from 'react-i18next';
import { BarChart } from '../../ui/BarChart';

interface Row {
  uuid: string;
  name: string;
  sent_count: number;
  error_count: number;
  completed_count: number;
}

/** The series colours cycling. */
const SERIES = [
  { key: 'sent_count', label: 'Sent', color: '#3b82f6' },
  { key: 'error_count', label: 'Error', color: '#ef4444' },
  { key: 'completed_count', label: 'Completed', color: '#22c55e' },
] as const;

/** The campaign report's bars (the shared ui BarChart): sent, error, completed per campaign. */
export function SummaryChart({ rows }: { rows: Row[] }) {
  const { t } = useTranslation();
  return (
    <BarChart
      label={t('Summary chart')}
      series={SERIES.map((s) => ({ key: s.key, label: t(s.label), color: s.color }))}
      groups={rows.map((r) => ({
        key: r.uuid,
        label: r.name,
        values: { sent_count: r.sent_count, error_count: r.error_count, completed_count: r.completed_count },
      }))}
    />
  );
}
