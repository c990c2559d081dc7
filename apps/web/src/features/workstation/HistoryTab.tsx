import { Anchor, Group, Pagination, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { ErrorState, LoadingState } from '../../ui/states';
import { channelText, outcomeText } from '../customer/journeyLabels';

const PAGE_SIZE = 10;
const dateTime = (iso: string | null) => (iso ? new Date(iso).toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'short' }) : '--');

/** History tab: the customer's earlier sessions, paged, each with its detail link. */
export function HistoryTab({ contactUuid }: { contactUuid: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const journey = useQuery({
    queryKey: ['contacts', contactUuid, 'journey', PAGE_SIZE, page],
    queryFn: async () =>
      api.getContactJourney({ params: { id: contactUuid }, query: { _limit: PAGE_SIZE, _offset: (page - 1) * PAGE_SIZE } }),
  });
  if (journey.isError) return <ErrorState onRetry={() => void journey.refetch()} />;
  if (!journey.data) return <LoadingState />;
  const rows = journey.data.data;
  const total = journey.data.pagination.total;
  if (total === 0) {
    return (
      <Text c="dimmed" ta="center" py="xl">
        {t('This customer has no previous sessions')}
      </Text>
    );
  }
  return (
    <div style={{ padding: 'var(--mantine-spacing-md)' }}>
      <Table striped highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Start')}</Table.Th>
            <Table.Th>{t('End')}</Table.Th>
            <Table.Th>{t('Channel')}</Table.Th>
            <Table.Th>{t('Motivation / outcome')}</Table.Th>
            <Table.Th>{t('Detail')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((s) => (
            <Table.Tr key={s.uuid}>
              <Table.Td>{dateTime(s.start)}</Table.Td>
              <Table.Td>{dateTime(s.end)}</Table.Td>
              <Table.Td>{s.event_type === 'call' ? (s.data.queue_name ?? t('Call')) : channelText(s.data)}</Table.Td>
              <Table.Td>{outcomeText(s.data.outcome, t)}</Table.Td>
              <Table.Td>
                {s.event_type === 'chat' && s.data.conversation_uuid ? (
                  <Anchor component={Link} to={`/client-journey/agent/${s.data.conversation_uuid}`}>
                    {t('Open')}
                  </Anchor>
                ) : (
                  <Anchor component={Link} to={`/client-journey-call-history/${contactUuid}/${s.uuid}`}>
                    {t('Open')}
                  </Anchor>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {total > PAGE_SIZE && (
        <Group justify="center" mt="sm">
          <Pagination total={Math.ceil(total / PAGE_SIZE)} value={page} onChange={setPage} size="sm" />
        </Group>
      )}
    </div>
  );
}
