import type { ReportTable } from '@atende/contract';
import { ISO_INSTANT, reportFilterIssues, reportLabel, zonedText } from '@atende/core';
import { Alert, Anchor, Button, Group, SegmentedControl, Select, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { BarChart } from '../../ui/BarChart';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { useIssueText } from '../../ui/useRuleForm';
import { daysBefore, useToday } from '../../ui/useToday';

export type ReportFilter = 'sector' | 'agent' | 'channel' | 'contact' | 'survey';
export interface ReportDefinition {
  title: string;
  /** The api path; the same query with `format` is the download. */
  path: string;
  load(query: Record<string, string>): Promise<ReportTable>;
  filters: ReportFilter[];
  types?: { value: string; label: string }[];
  /**
   * Draw the rows as bars (a report showing a trend): the first column labels them,
   * `value` is the column drawn; with `types`, only for those report types.
   */
  chart?: { value: string; types?: string[] };
  /** More of the report under the table (the bots report's passes), given the asked filters. */
  extra?: (asked: Record<string, string>) => ReactNode;
}

const PARAMS = ['start', 'end', 'sector_uuid', 'user_id', 'channel_uuid', 'survey_uuid', 'contact', 'report_type'] as const;

/**
 * One admin report: filters kept in the query string, the shared date rules
 * checked before asking (an error disables Generate and the downloads), the table, optional bars,
 * and CSV / Excel / JSON downloads of the same query.
 */
export function AdminReportPage({ report }: { report: ReportDefinition }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language === 'pt' ? 'pt' : 'en';
  // Numbers as the reader writes them (4,5 in Portuguese); no grouping, so tickets and ids read as in the files.
  const number = new Intl.NumberFormat(language === 'pt' ? 'pt-BR' : 'en-US', { maximumFractionDigits: 2, useGrouping: false });
  const [params, setParams] = useSearchParams();
  const today = useToday();
  const draft = Object.fromEntries(PARAMS.map((k) => [k, params.get(k) ?? ''])) as Record<(typeof PARAMS)[number], string>;
  if (!draft.start) draft.start = daysBefore(today, 6);
  if (!draft.end) draft.end = today;
  if (!draft.report_type && report.types) draft.report_type = report.types[0]!.value;
  const [asked, setAsked] = useState<Record<string, string> | null>(null);
  const issues = reportFilterIssues(
    { start: draft.start, end: draft.end, text: report.filters.includes('contact') ? { contact: draft.contact } : {} },
    today,
  );
  const errorOf = useIssueText(issues);
  const set = (key: (typeof PARAMS)[number], value: string | null) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries({ ...draft, [key]: value ?? '' })) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next, { replace: true });
  };
  const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const query = { ...Object.fromEntries(Object.entries(draft).filter(([, v]) => v)), timezone };
  const sectors = useQuery({
    queryKey: ['sectors', 'all'],
    enabled: report.filters.includes('sector'),
    queryFn: async () => (await api.listSectors({ query: { _limit: 0 } })).data,
  });
  const agents = useQuery({
    queryKey: ['users', 'agent'],
    enabled: report.filters.includes('agent'),
    queryFn: async () => (await api.listUsers({ query: { role: 'agent' } })).data,
  });
  const surveys = useQuery({
    queryKey: ['surveys'],
    enabled: report.filters.includes('survey'),
    queryFn: async () => (await api.listSurveys({})).data,
  });
  const channels = useQuery({
    queryKey: ['channels', 'all'],
    enabled: report.filters.includes('channel'),
    queryFn: async () => (await api.listChannels({ query: { _limit: 0 } })).data,
  });
  const result = useQuery({
    queryKey: ['reports', report.path, asked],
    enabled: asked !== null,
    retry: false,
    queryFn: () => report.load(asked!),
  });
  const download = (format: 'csv' | 'excel' | 'json') => `${report.path}?${new URLSearchParams({ ...query, format }).toString()}`;
  const blocked = issues.length > 0;
  const chart = report.chart && (!report.chart.types || report.chart.types.includes(asked?.report_type ?? '')) ? report.chart : null;
  /** A cell as the screen shows it: headers and phrases in the reader's language (the files' dictionary), times in the caller's zone. */
  const cellText = (c: ReportTable['columns'][number], row: ReportTable['rows'][number]): string => {
    const value = row[c.key];
    if (value === null || value === undefined || value === '') return '--';
    if (typeof value === 'number') return number.format(value);
    // The caller's zone, 24-hour, as in the CSV and Excel files.
    if (ISO_INSTANT.test(value)) return zonedText(value, timezone);
    return c.translated ? reportLabel(value, language) : value;
  };

  return (
    <Stack>
      <Anchor component={Link} to=".." relative="path" size="sm">
        ← {t('Reports')}
      </Anchor>
      <Title order={3}>{t(report.title)}</Title>
      {report.types && (
        <SegmentedControl
          w="fit-content"
          aria-label={t('Report type')}
          value={draft.report_type}
          onChange={(v) => set('report_type', v)}
          data={report.types.map((o) => ({ value: o.value, label: t(o.label) }))}
        />
      )}
      <Group align="flex-start">
        <TextInput
          type="date"
          label={t('Start date')}
          value={draft.start}
          max={today}
          onChange={(e) => set('start', e.currentTarget.value)}
          error={errorOf('start')}
        />
        <TextInput
          type="date"
          label={t('End date')}
          value={draft.end}
          max={today}
          onChange={(e) => set('end', e.currentTarget.value)}
          error={errorOf('end')}
        />
        {report.filters.includes('sector') && (
          <Select
            label={t('Sector')}
            clearable
            data={(sectors.data ?? []).map((s) => ({ value: s.uuid, label: s.name }))}
            value={draft.sector_uuid || null}
            onChange={(v) => set('sector_uuid', v)}
          />
        )}
        {report.filters.includes('agent') && (
          <Select
            label={t('Agent')}
            clearable
            searchable
            data={(agents.data ?? []).map((u) => ({ value: String(u.id), label: u.username }))}
            value={draft.user_id || null}
            onChange={(v) => set('user_id', v)}
          />
        )}
        {report.filters.includes('channel') && (
          <Select
            label={t('Channel')}
            clearable
            data={(channels.data ?? []).map((c) => ({ value: c.uuid, label: c.name }))}
            value={draft.channel_uuid || null}
            onChange={(v) => set('channel_uuid', v)}
          />
        )}
        {report.filters.includes('survey') && (
          <Select
            label={t('Survey')}
            clearable
            data={(surveys.data ?? []).map((s) => ({ value: s.uuid, label: s.name }))}
            value={draft.survey_uuid || null}
            onChange={(v) => set('survey_uuid', v)}
          />
        )}
        {report.filters.includes('contact') && (
          <TextInput
            label={t('Contact')}
            value={draft.contact}
            onChange={(e) => set('contact', e.currentTarget.value)}
            error={errorOf('contact')}
          />
        )}
      </Group>
      <Group>
        {/* The buttons say why they are disabled (a disabled button gets no hover: the span does). */}
        <Tooltip label={t('Fix all the errors before generating this report')} disabled={!blocked}>
          <span>
            <Button disabled={blocked} onClick={() => setAsked(query)}>
              {t('Generate')}
            </Button>
          </span>
        </Tooltip>
        {(['csv', 'excel', 'json'] as const).map((format) => (
          <Tooltip key={format} label={t('Fix all the errors before downloading this report')} disabled={!blocked}>
            <span>
              <Button
                component="a"
                href={blocked ? undefined : download(format)}
                download
                variant="default"
                disabled={blocked}
                data-disabled={blocked || undefined}
              >
                {t('Download {{format}}', { format: format === 'excel' ? 'Excel' : format.toUpperCase() })}
              </Button>
            </span>
          </Tooltip>
        ))}
      </Group>
      {asked === null ? (
        <Text c="dimmed">{t('Choose the filters and generate the report.')}</Text>
      ) : result.isPending ? (
        <LoadingState />
      ) : result.isError ? (
        <ErrorState onRetry={() => void result.refetch()} />
      ) : result.data.rows.length === 0 ? (
        <EmptyState text={t('No data found')} />
      ) : (
        <>
          {chart && (
            <BarChart
              label={t(report.title)}
              bars={result.data.rows.map((r) => ({ label: cellText(result.data.columns[0]!, r), value: Number(r[chart.value] ?? 0) }))}
            />
          )}
          {result.data.truncated && <Alert color="yellow">{t('Only the first 500 rows are shown; the downloads have them all.')}</Alert>}
          <Table striped highlightOnHover aria-label={t(report.title)}>
            <Table.Thead>
              <Table.Tr>
                {result.data.columns.map((c) => (
                  <Table.Th key={c.key}>{reportLabel(c.label, language)}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {result.data.rows.map((row, i) => (
                <Table.Tr key={i}>
                  {result.data.columns.map((c) => (
                    <Table.Td key={c.key}>
                      {c.key === 'conversation_uuid' && row[c.key] ? (
                        // A report row opens its conversation's history in a new tab.
                        <Anchor component={Link} to={`/chat-history/reports/${String(row[c.key])}`} target="_blank">
                          {String(row[c.key])}
                        </Anchor>
                      ) : (
                        cellText(c, row)
                      )}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
      {asked !== null && report.extra?.(asked)}
    </Stack>
  );
}
