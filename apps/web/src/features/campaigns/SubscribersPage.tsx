import { SUBSCRIBER_STATES, SUBSCRIBERS_FILE_MAX_BYTES, type Subscriber } from '@atende/contract';
import { ActionsOutdatedBadge } from './ActionsOutdatedBadge';
import { ActionIcon, Anchor, Button, FileButton, Group, MultiSelect, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconDownload, IconEdit, IconTrash, IconUpload } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { api } from '../../api/client';
import { reasonText } from '../../api/reasons';
import { LIVE } from '../../realtime/liveQueries';
import { PagedFooter } from '../../ui/PagedFooter';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { toastError, toastSuccess } from '../../ui/toasts';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { CampaignProgress } from './CampaignProgress';
import { DELIVERY_LABEL, SUBSCRIBER_STATE_LABEL } from './phrases';
import { ImportStatus } from './ImportStatus';
import { campaignKeys, useCampaign, useImportProgress, useLiveCampaigns } from './queries';
import { EDITABLE_STATES, SubscriberEditModal } from './SubscriberEditModal';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** CSV in any usual encoding or an Excel workbook. */
const SUBSCRIBER_FILE_ACCEPT = `text/csv,.csv,${XLSX_TYPE},.xlsx`;

/** Downloads the import template (CSV or Excel), named by the server's content-disposition. */
async function downloadTemplate(campaignId: string, accept: string, failed: string) {
  const res = await fetch(`/api/v1/campaign/${campaignId}/subscribers/template`, { headers: { accept }, credentials: 'include' });
  if (!res.ok) return toastError(failed);
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'subscribers';
  const url = URL.createObjectURL(await res.blob());
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  a.click();
  URL.revokeObjectURL(url);
}

/** A campaign's subscribers: state filter, table with parameters, import with progress, template downloads. */
export function SubscribersPage() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const when = (iso: string) =>
    new Date(iso).toLocaleString(i18n.language === 'pt' ? 'pt-BR' : 'en-US', { dateStyle: 'short', timeStyle: 'short' });
  const queryClient = useQueryClient();
  useLiveCampaigns();
  const campaign = useCampaign(id);
  const progress = useImportProgress(id);
  const [states, setStates] = useState<string[]>([]);
  const [limit, setLimit] = useState(10);
  const [page, setPage] = useState(1);
  const subscribers = useQuery({
    queryKey: campaignKeys.subscribers(id, states, limit, page),
    placeholderData: keepPreviousData,
    meta: LIVE,
    queryFn: () =>
      api.listSubscribers({
        params: { id },
        query: { states: states as Subscriber['state'][], _limit: limit, _offset: (page - 1) * limit },
      }),
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: campaignKeys.all });
  const upload = useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return api.importSubscribers({ params: { id }, body: form });
    },
    onSuccess: refresh,
  });
  const [editing, setEditing] = useState<Subscriber | null>(null);
  const remove = useMutation({
    mutationFn: (s: Subscriber) => api.deleteSubscriber({ params: { id, contact: s.uuid } }),
    onSuccess: () => {
      toastSuccess(t('Subscriber removed successfully'));
      refresh();
    },
  });
  // Sends whose outcome is unknown go again only when the manager, warned, asks.
  const [confirmResend, setConfirmResend] = useState(false);
  const resend = useMutation({
    mutationFn: () => api.resendUnknownSubscribers({ params: { id } }),
    onSuccess: (answer) => {
      setConfirmResend(false);
      toastSuccess(
        t('{{count}} subscribers are pending again: they are sent by the running campaign or at the next Start', {
          count: answer.data.resent,
        }),
      );
      refresh();
    },
  });
  const c = campaign.data;
  const importing = c?.import_status === 'pending' || c?.import_status === 'in_progress';
  const params = Math.max(0, ...(subscribers.data?.data.map((s) => s.parameters.length) ?? [0]));
  const total = subscribers.data?.pagination.total ?? 0;
  const pick = (file: File | null) => {
    if (!file) return;
    if (!/\.(csv|xlsx)$/i.test(file.name) && file.type !== 'text/csv' && file.type !== XLSX_TYPE)
      return toastError(t('File parameter must be a csv file'));
    if (file.size > SUBSCRIBERS_FILE_MAX_BYTES) return toastError(t('Maximum file size exceeded (5 MB)'));
    upload.mutate(file);
  };

  return (
    <Stack>
      <Anchor component={Link} to="../.." relative="path" size="sm">
        ← {t('Campaigns')}
      </Anchor>
      <Group justify="space-between">
        <Group gap="xs">
          <Title order={3}>{c ? t('Subscribers of {{name}}', { name: c.name }) : t('Subscribers')}</Title>
          {c && <ActionsOutdatedBadge campaign={c} />}
        </Group>
        <Group>
          <Button
            variant="default"
            leftSection={<IconDownload size={16} />}
            onClick={() => void downloadTemplate(id, 'text/csv', t('Download failed. Please try again.'))}
          >
            {t('Template (CSV)')}
          </Button>
          <Button
            variant="default"
            leftSection={<IconDownload size={16} />}
            onClick={() => void downloadTemplate(id, 'application/vnd.ms-excel', t('Download failed. Please try again.'))}
          >
            {t('Template (Excel)')}
          </Button>
          <FileButton onChange={pick} accept={SUBSCRIBER_FILE_ACCEPT}>
            {(props) => (
              <Tooltip
                label={t('Não é possível importar assinantes para uma campanha que teve seu template deletado')}
                disabled={!c?.template.deleted}
              >
                <Button
                  {...props}
                  leftSection={<IconUpload size={16} />}
                  loading={upload.isPending || importing}
                  disabled={!c || c.template.deleted}
                >
                  {t('Import subscribers')}
                </Button>
              </Tooltip>
            )}
          </FileButton>
        </Group>
      </Group>
      {c && <CampaignProgress campaign={c} />}
      {c && c.progress.unknown > 0 && (
        <Group>
          <Button variant="light" color="orange" onClick={() => setConfirmResend(true)}>
            {t('Resend unknown ({{count}})', { count: c.progress.unknown })}
          </Button>
        </Group>
      )}
      {c && <ImportStatus campaign={c} progress={progress} />}
      <MultiSelect
        label={t('State')}
        w={420}
        data={SUBSCRIBER_STATES.map((s) => ({ value: s, label: t(SUBSCRIBER_STATE_LABEL[s]) }))}
        value={states}
        onChange={(v) => {
          setStates(v);
          setPage(1);
        }}
        clearable
        comboboxProps={{ withinPortal: true }}
      />
      {subscribers.isPending ? (
        <LoadingState />
      ) : subscribers.isError ? (
        <ErrorState onRetry={() => void subscribers.refetch()} />
      ) : subscribers.data.data.length === 0 ? (
        <EmptyState text={t('There are no subscribers.')} />
      ) : (
        <Table striped aria-label={t('Subscribers')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Name')}</Table.Th>
              <Table.Th>{t('Phone')}</Table.Th>
              <Table.Th>{t('State')}</Table.Th>
              {Array.from({ length: params }, (_, i) => (
                <Table.Th key={i}>{t('Parameter {{n}}', { n: i + 1 })}</Table.Th>
              ))}
              <Table.Th>{t('Actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {subscribers.data.data.map((s) => (
              <Table.Tr key={s.uuid}>
                <Table.Td>{s.contact.name}</Table.Td>
                <Table.Td>{s.contact.phone_number}</Table.Td>
                <Table.Td>
                  <Text size="sm">{t(SUBSCRIBER_STATE_LABEL[s.state])}</Text>
                  {s.delivery && s.delivery !== 'sent' && (
                    <Text size="xs" c={s.delivery === 'failed' ? 'red' : 'dimmed'}>
                      {t(DELIVERY_LABEL[s.delivery])}
                      {s.read_at ? ` · ${when(s.read_at)}` : s.delivered_at ? ` · ${when(s.delivered_at)}` : ''}
                    </Text>
                  )}
                  {s.state === 'error' && s.error_message && (
                    <Text size="xs" c="red">
                      {reasonText(s.error_message, t)}
                    </Text>
                  )}
                  {s.state === 'unknown' && (
                    <Text size="xs" c="orange">
                      {t('May have been delivered: not sent again unless you resend it')}
                    </Text>
                  )}
                </Table.Td>
                {Array.from({ length: params }, (_, i) => (
                  <Table.Td key={i}>{s.parameters[i] ?? ''}</Table.Td>
                ))}
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <ActionIcon
                      variant="subtle"
                      disabled={!(EDITABLE_STATES as readonly string[]).includes(s.state)}
                      aria-label={t('Edit {{name}}', { name: s.contact.name })}
                      onClick={() => setEditing(s)}
                    >
                      <IconEdit size={16} />
                    </ActionIcon>
                    <Tooltip label={s.state === 'pending' ? t('Delete') : t('Only subscribers with pending state can be deleted')}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        disabled={s.state !== 'pending'}
                        aria-label={t('Delete {{name}}', { name: s.contact.name })}
                        onClick={() => remove.mutate(s)}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {subscribers.data && total > 0 && <PagedFooter total={total} limit={limit} page={page} onLimit={setLimit} onPage={setPage} />}
      <ConfirmModal
        opened={confirmResend}
        title={t('Resend unknown')}
        message={t(
          'The provider may already have delivered these {{count}} messages: their answer was lost. Resending sends them again, and a contact who got the first one gets a second (and you may pay for both). Resend them?',
          { count: c?.progress.unknown ?? 0 },
        )}
        confirmLabel={t('Resend')}
        loading={resend.isPending}
        onConfirm={() => resend.mutate()}
        onClose={() => setConfirmResend(false)}
      />
      {editing && (
        <SubscriberEditModal
          campaignId={id}
          subscriber={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            refresh();
          }}
        />
      )}
    </Stack>
  );
}
