import { isFeatureOn, MIN_FILTER_LENGTH, SUBSCRIBER_STATES, type SubscriberState } from '@atende/contract';
import { reportFilterIssues } from '@atende/core';
import { Anchor, Button, Group, MultiSelect, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { formMessageText } from '../../api/errors';
import { reasonText } from '../../api/reasons';
import { PagedFooter } from '../../ui/PagedFooter';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { useNumberFormat } from './CampaignProgress';
import { DELIVERY_LABEL, SUBSCRIBER_STATE_LABEL, replyActionText } from './phrases';
import { SummaryChart } from './SummaryChart';
import { useTenant } from '../../session/session';
import { daysBefore, useToday } from '../../ui/useToday';

/**
 * The campaign report: filters in the query string (start, end, campaigns, state),
 * the summary per campaign, the history of subscribers, and CSV / Excel / JSON exports of it.
 */
export function CampaignReportPage() {
  const { t, i18n } = useTranslation();
  const { n, pct: rate } = useNumberFormat();
  const pct = (part: number, whole: number) => (whole === 0 ? '--' : rate(part / whole));
  const [params, setParams] = useSearchParams();
  // The default range is yesterday and today in the user's zone: the UTC date is already tomorrow
  // on a Brazilian evening, which the date rules call "in the future".
  const today = useToday();
  const start = params.get('start') ?? daysBefore(today, 1);
  const end = params.get('end') ?? today;
  const campaigns = params.get('campaigns')?.split(',').filter(Boolean) ?? [];
  const state = params.get('state');
  const templateUuid = params.get('template_uuid');
  const fieldKey = params.get('conversation_field_key');
  const fieldValue = params.get('conversation_field_value') ?? '';
  const tenant = useTenant().data;
  const fieldsOn = tenant ? isFeatureOn(tenant, 'conversation_fields') : false;
  const [valueDraft, setValueDraft] = useState(fieldValue);
  // A text filter with content needs 3 characters; nothing is loaded while one is short.
  const valueError =
    valueDraft && valueDraft.trim().length < MIN_FILTER_LENGTH
      ? t('Filter {{label}} should have at least {{min}} characters', { label: t('Value'), min: MIN_FILTER_LENGTH })
      : undefined;
  // Date rules, the same check as the admin reports (packages/core): nothing is asked while one fails.
  const dateIssues = reportFilterIssues({ start, end }, today);
  const dateError = (path: 'start' | 'end') => {
    const issue = dateIssues.find((i) => i.path === path);
    return issue ? formMessageText(issue.message, t) : undefined;
  };
  const blocked = dateIssues.length > 0;
  const [limit, setLimit] = useState(10);
  const [page, setPage] = useState(1);
  const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const query = {
    start,
    end,
    timezone,
    ...(campaigns.length ? { campaigns: campaigns.join(',') } : {}),
    ...(state ? { state: state as SubscriberState } : {}),
    ...(templateUuid ? { template_uuid: templateUuid } : {}),
    ...(fieldKey && fieldValue ? { conversation_field_key: fieldKey, conversation_field_value: fieldValue } : {}),
  };
  const templates = useQuery({
    queryKey: ['campaigns', 'report-templates'],
    queryFn: async () => (await api.listTemplates({ query: { _limit: 0 } })).data,
  });
  const fields = useQuery({
    queryKey: ['campaigns', 'report-fields'],
    enabled: fieldsOn,
    queryFn: async () => (await api.listConversationFieldDefinitions()).data,
  });
  const set = (patch: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries({ start, end, ...patch }))
      if (v) next.set(k, v);
      else next.delete(k);
    setParams(next, { replace: true });
    setPage(1);
  };
  const all = useQuery({
    queryKey: ['campaigns', 'report-options'],
    queryFn: async () => (await api.listCampaigns({ query: { _limit: 0 } })).data,
  });
  const summary = useQuery({
    queryKey: ['campaigns', 'report-summary', query],
    enabled: !blocked,
    retry: false,
    queryFn: async () => (await api.campaignSummaryReport({ query })).data,
  });
  const rows = useQuery({
    queryKey: ['campaigns', 'report-rows', query, limit, page],
    enabled: !blocked,
    retry: false,
    placeholderData: keepPreviousData,
    queryFn: () => api.campaignSubscribersReport({ query: { ...query, _limit: limit, _offset: (page - 1) * limit } }),
  });
  const exportUrl = (format: 'csv' | 'excel' | 'json', of: 'subscribers' | 'summary' = 'subscribers') =>
    `/api/v1/reports/campaign/${of}?${new URLSearchParams({ ...query, _limit: '0', format }).toString()}`;
  const total = rows.data?.pagination.total ?? 0;

  return (
    <Stack>
      <Title order={3}>{t('Campaign report')}</Title>
      <Group align="flex-end">
        <TextInput
          type="date"
          label={t('Start date')}
          value={start}
          error={dateError('start')}
          onChange={(e) => set({ start: e.currentTarget.value })}
        />
        <TextInput
          type="date"
          label={t('End date')}
          value={end}
          error={dateError('end')}
          onChange={(e) => set({ end: e.currentTarget.value })}
        />
        <MultiSelect
          label={t('Campaigns')}
          w={320}
          data={(all.data ?? []).map((c) => ({ value: c.uuid, label: c.name }))}
          value={campaigns}
          onChange={(v) => set({ campaigns: v.join(',') || null })}
          clearable
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label={t('Template')}
          clearable
          data={(templates.data ?? []).map((x) => ({ value: x.uuid, label: x.name }))}
          value={templateUuid}
          onChange={(v) => set({ template_uuid: v })}
          comboboxProps={{ withinPortal: true }}
        />
        {fieldsOn && (
          <>
            <Select
              label={t('Conversation field')}
              clearable
              data={(fields.data ?? []).map((f) => f.name)}
              value={fieldKey}
              onChange={(v) => set({ conversation_field_key: v })}
              comboboxProps={{ withinPortal: true }}
            />
            <TextInput
              label={t('Value')}
              value={valueDraft}
              error={valueError}
              onChange={(e) => setValueDraft(e.currentTarget.value)}
              onBlur={() => !valueError && set({ conversation_field_value: valueDraft.trim() || null })}
            />
          </>
        )}
        <Select
          label={t('State')}
          clearable
          data={SUBSCRIBER_STATES.map((s) => ({ value: s, label: t(SUBSCRIBER_STATE_LABEL[s]) }))}
          value={state}
          onChange={(v) => set({ state: v })}
          comboboxProps={{ withinPortal: true }}
        />
      </Group>
      {blocked ? (
        <Text c="dimmed">{t('Fix all the errors before generating this report')}</Text>
      ) : summary.isError || rows.isError ? (
        <ErrorState
          onRetry={() => {
            void summary.refetch();
            void rows.refetch();
          }}
        />
      ) : summary.isPending || rows.isPending ? (
        <LoadingState />
      ) : (
        <>
          <Group justify="space-between">
            <Text fw={600}>{t('Summary')}</Text>
            <Group gap="xs">
              {(['csv', 'excel', 'json'] as const).map((f) => (
                <Button
                  key={f}
                  component="a"
                  href={exportUrl(f, 'summary')}
                  size="xs"
                  variant="default"
                  aria-label={t('Export the summary as {{format}}', { format: f.toUpperCase() })}
                >
                  {f === 'excel' ? 'Excel' : f.toUpperCase()}
                </Button>
              ))}
            </Group>
          </Group>
          {/* The funnel of the messages the provider accepted, with its rates. */}
          <Table aria-label={t('Summary')} withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Campaign')}</Table.Th>
                <Table.Th>{t('Subscribers')}</Table.Th>
                <Table.Th>{t('Sent')}</Table.Th>
                <Table.Th>{t('Delivered')}</Table.Th>
                <Table.Th>{t('Read')}</Table.Th>
                <Table.Th>{t('Replied')}</Table.Th>
                <Table.Th>{t('Failed after sending')}</Table.Th>
                <Table.Th>{t('Error')}</Table.Th>
                <Table.Th>{t('Outcome unknown')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {[...summary.data.campaigns, { uuid: 'total', name: t('Total'), ...summary.data }].map((r) => (
                <Table.Tr key={r.uuid}>
                  <Table.Td>{r.name}</Table.Td>
                  <Table.Td>{n(r.subscribers_count)}</Table.Td>
                  <Table.Td>
                    {n(r.sent_count)} ({pct(r.sent_count, r.subscribers_count)})
                  </Table.Td>
                  <Table.Td>
                    {n(r.delivered_count)} ({rate(r.delivered_rate)})
                  </Table.Td>
                  <Table.Td>
                    {n(r.read_count)} ({rate(r.read_rate)})
                  </Table.Td>
                  <Table.Td>
                    {n(r.replied_count)} ({rate(r.replied_rate)})
                  </Table.Td>
                  <Table.Td>
                    {n(r.failed_count)} ({rate(r.failed_rate)})
                  </Table.Td>
                  <Table.Td>
                    {n(r.error_count)} ({pct(r.error_count, r.subscribers_count)})
                  </Table.Td>
                  <Table.Td>{n(r.unknown_count)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Text size="xs" c="dimmed">
            {t('Delivered, read, replied and failed are rates of the messages sent; a reply counts as delivered and read.')}
          </Text>
          <Text size="xs" c="dimmed">
            {t(
              'Outcome unknown: the provider may have received these messages but its answer was lost; they are not sent again unless resent from the subscribers screen.',
            )}
          </Text>
          {summary.data.campaigns.length > 0 && <SummaryChart rows={summary.data.campaigns} />}
          <Group justify="space-between">
            <Text fw={600}>{t('History')}</Text>
            <Group gap="xs">
              <Button component="a" href={exportUrl('csv')} size="xs" variant="default">
                CSV
              </Button>
              <Button component="a" href={exportUrl('excel')} size="xs" variant="default">
                Excel
              </Button>
              <Button component="a" href={exportUrl('json')} size="xs" variant="default">
                JSON
              </Button>
            </Group>
          </Group>
          {rows.data.data.length === 0 ? (
            <EmptyState text={t('No data found')} />
          ) : (
            <Table striped aria-label={t('History')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('Campaign')}</Table.Th>
                  <Table.Th>{t('Name')}</Table.Th>
                  <Table.Th>{t('Phone')}</Table.Th>
                  <Table.Th>{t('State')}</Table.Th>
                  <Table.Th>{t('Sent at')}</Table.Th>
                  <Table.Th>{t('Reply')}</Table.Th>
                  <Table.Th>{t('Conversation')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.data.data.map((r, i) => (
                  <Table.Tr key={`${r.phone_number}-${i}`}>
                    <Table.Td>{r.campaign_name}</Table.Td>
                    <Table.Td>{r.name}</Table.Td>
                    <Table.Td>{r.phone_number}</Table.Td>
                    <Table.Td>
                      {t(SUBSCRIBER_STATE_LABEL[r.state])}
                      {r.delivery && r.delivery !== 'sent' ? ` · ${t(DELIVERY_LABEL[r.delivery])}` : ''}
                      {r.error_message ? ` · ${reasonText(r.error_message, t)}` : ''}
                    </Table.Td>
                    <Table.Td>
                      {r.sent_at
                        ? new Date(r.sent_at).toLocaleString(i18n.language === 'pt' ? 'pt-BR' : 'en-US', {
                            dateStyle: 'short',
                            timeStyle: 'short',
                          })
                        : '--'}
                    </Table.Td>
                    <Table.Td>{replyActionText(r.reply_action, t)}</Table.Td>
                    <Table.Td>
                      {r.conversation_uuid ? (
                        <Anchor component={Link} to={`/chat-history/reports/${r.conversation_uuid}`} target="_blank">
                          {r.conversation_uuid.slice(0, 8)}
                        </Anchor>
                      ) : (
                        '--'
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {total > 0 && <PagedFooter total={total} limit={limit} page={page} onLimit={setLimit} onPage={setPage} />}
        </>
      )}
    </Stack>
  );
}
