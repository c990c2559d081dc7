import type { Campaign } from '@atende/contract';
import { Alert, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ImportProgress } from './queries';

/**
 * The subscriber import of a campaign (import task statuses): while it runs, a progress
 * bar with rows done / total (the total is an estimate from the file size until the file is read
 * through, and says so); when done, the summary of errors, ignored and success, or why nothing was
 * imported.
 */
export function ImportStatus({ campaign, progress }: { campaign: Campaign; progress: ImportProgress | null }) {
  const { t, i18n } = useTranslation();
  const running = campaign.import_status === 'pending' || campaign.import_status === 'in_progress';
  // An event of an earlier import says nothing about the one now running.
  const live = progress && (!running || progress.status !== 'done') ? progress : null;
  const n = (value: number) => value.toLocaleString(i18n.language);
  if (!campaign.import_status) return null;

  const bar = live && (
    <Stack gap={4}>
      <Progress
        aria-label={t('Import progress')}
        value={live.rows_total ? Math.min(100, (live.rows_done / live.rows_total) * 100) : 100}
        striped={running}
        animated={running && !live.rows_total}
      />
      <Text size="sm">
        {live.rows_total === null
          ? t('{{done}} rows read', { done: n(live.rows_done) })
          : live.rows_total_estimated
            ? t('{{done}} / about {{total}} rows (total estimated from the file size)', {
                done: n(live.rows_done),
                total: n(live.rows_total),
              })
            : t('{{done}} / {{total}} rows', { done: n(live.rows_done), total: n(live.rows_total) })}
      </Text>
    </Stack>
  );

  if (running) {
    return (
      <Alert color="blue" role="status" aria-label={t('Import')} title={t('Importing subscribers')}>
        {bar}
      </Alert>
    );
  }
  const summary = campaign.import_summary;
  if (summary?.error_message) {
    return (
      <Alert color="red" role="status" aria-label={t('Import')}>
        {t(summary.error_message)}
      </Alert>
    );
  }
  return (
    <Alert color="green" role="status" aria-label={t('Import')}>
      <Stack gap="xs">
        <Text size="sm">
          {t('Import finished: {{imported}} imported, {{ignored}} ignored, {{errors}} with errors', {
            imported: summary?.imported ?? 0,
            ignored: summary?.ignored ?? 0,
            errors: summary?.imported_with_error ?? 0,
          })}
        </Text>
        {bar}
      </Stack>
    </Alert>
  );
}
