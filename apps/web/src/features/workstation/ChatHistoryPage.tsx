import { formatPhoneForDisplay } from '@atende/core';
import { Anchor, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { useMe } from '../../session/session';
import { PagedFooter } from '../../ui/PagedFooter';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { formatDuration, todayBounds } from './dayHistory';
import { workstationKeys } from './queries';

/** Who ended a chat (close reasons), as shown. */
const ENDED_BY: Record<string, string> = { agent: 'Agent', supervisor: 'Supervisor', system: 'System', contact: 'Customer' };

/** Day chat history: today's finished chats of the agent, paged. */
export function ChatHistoryPage() {
  const { t, i18n } = useTranslation();
  const me = useMe().data;
  const [limit, setLimit] = useState(10);
  const [page, setPage] = useState(1);
  const { start, end } = useMemo(() => todayBounds(), []);
  const offset = (page - 1) * limit;
  const history = useQuery({
    queryKey: workstationKeys.dayHistory(me?.id ?? 0, start, limit, offset),
    enabled: Boolean(me),
    placeholderData: keepPreviousData,
    queryFn: async () => api.getConversationHistory({ query: { start, end, user_id: me?.id, _limit: limit, _offset: offset } }),
  });
  const locale = i18n.language === 'pt' ? 'pt-BR' : 'en-US';
  const time = (iso: string | null) => (iso ? new Date(iso).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' }) : '--');
  const total = history.data?.pagination.total ?? 0;

  return (
    <Stack>
      <Title order={3}>{t('Chat history')}</Title>
      {history.isPending ? (
        <LoadingState />
      ) : history.isError ? (
        <ErrorState onRetry={() => void history.refetch()} />
      ) : history.data.data.length === 0 ? (
        <EmptyState text={t("You don't have finished chats yet")} />
      ) : (
        <>
          <Table.ScrollContainer minWidth={900}>
            <Table striped aria-label={t('Chat history')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('Start-End')}</Table.Th>
                  <Table.Th>{t('Duration')}</Table.Th>
                  <Table.Th>{t('Protocol')}</Table.Th>
                  <Table.Th>{t('Customer')}</Table.Th>
                  <Table.Th>{t('Phone')}</Table.Th>
                  <Table.Th>{t('Ended by')}</Table.Th>
                  <Table.Th>{t('End reason')}</Table.Th>
                  <Table.Th>{t('Messages')}</Table.Th>
                  <Table.Th>{t('Chat ID')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {history.data.data.map((row) => (
                  <Table.Tr key={row.conversation_uuid}>
                    <Table.Td>
                      {time(row.start)} - {time(row.end)}
                    </Table.Td>
                    <Table.Td>{formatDuration(row.duration)}</Table.Td>
                    <Table.Td>{row.ticket_number}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{row.contact_name}</Text>
                      {row.contact_organization && (
                        <Text size="xs" c="dimmed">
                          {row.contact_organization}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{formatPhoneForDisplay(row.contact_number)}</Table.Td>
                    <Table.Td>{row.ended_by ? t(ENDED_BY[row.ended_by] ?? 'Unknown') : '--'}</Table.Td>
                    <Table.Td>{row.end_reason ?? '--'}</Table.Td>
                    <Table.Td>{row.agent_message + row.contact_message}</Table.Td>
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={`/agent-chat-history/agent/${row.conversation_uuid}`}
                        size="xs"
                        ff="monospace"
                        title={row.conversation_uuid}
                        aria-label={t('Open the chat history of {{name}}', { name: row.contact_name })}
                      >
                        {row.conversation_uuid.slice(0, 8)}
                      </Anchor>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <PagedFooter total={total} limit={limit} page={page} onLimit={setLimit} onPage={setPage} size="md" />
        </>
      )}
    </Stack>
  );
}
