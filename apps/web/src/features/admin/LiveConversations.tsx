import { DASHBOARD_STATES, type DashboardConversation, type DashboardState } from '@atende/contract';
import { Anchor, Badge, Group, SegmentedControl, Table, Text, UnstyledButton } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { phrase } from '../../i18n/phrase';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { useDashboardConversations } from './dashboardQueries';

const STATE_LABEL: Record<DashboardState, string> = {
  waiting: phrase('Waiting'),
  bot: phrase('Bot'),
  answered: phrase('Answered'),
  'outbound-started': phrase('Outbound started'),
};
const STATE_COLOR: Record<DashboardState, string> = { waiting: 'yellow', bot: 'grape', answered: 'green', 'outbound-started': 'blue' };

type SortKey = 'time_join' | 'state' | 'contact' | 'sector' | 'agent' | 'time_answer';
interface Sort {
  key: SortKey;
  desc: boolean;
}
const COLUMNS: { key: SortKey; label: string }[] = [
  { key: 'state', label: phrase('State') },
  { key: 'contact', label: phrase('Contact') },
  { key: 'sector', label: phrase('Sector') },
  { key: 'agent', label: phrase('Agent') },
  { key: 'time_join', label: phrase('Start') },
  { key: 'time_answer', label: phrase('Answered at') },
];
const sortValue: Record<SortKey, (c: DashboardConversation) => string> = {
  time_join: (c) => c.time_join,
  time_answer: (c) => c.time_answer ?? '',
  state: (c) => c.state,
  contact: (c) => (c.contact.name ?? c.contact.phone ?? '').toLocaleLowerCase(),
  sector: (c) => (c.sector?.name ?? '').toLocaleLowerCase(),
  agent: (c) => (c.user?.username ?? '').toLocaleLowerCase(),
};

/** Sorted copy of the rows; ties keep the server's order (newest start first). */
export function sortConversations(rows: DashboardConversation[], sort: Sort): DashboardConversation[] {
  const get = sortValue[sort.key];
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => {
      const diff = get(a.row).localeCompare(get(b.row));
      return (sort.desc ? -diff : diff) || a.index - b.index;
    })
    .map(({ row }) => row);
}

/** Open conversations of the dashboard, sortable by column (default: start, newest first). */
export function LiveConversations() {
  const { t } = useTranslation();
  const list = useDashboardConversations();
  const navigate = useNavigate();
  const [sort, setSort] = useState<Sort>({ key: 'time_join', desc: true });
  const [state, setState] = useState<DashboardState | 'all'>('all');
  // Dates in the pt-BR short format.
  const format = (iso: string | null) => (iso ? new Date(iso).toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'short' }) : '--');
  const rows = useMemo(() => {
    const all = list.data?.data ?? [];
    return sortConversations(state === 'all' ? all : all.filter((c) => c.state === state), sort);
  }, [list.data, sort, state]);

  if (list.isPending) return <LoadingState />;
  if (list.isError) return <ErrorState onRetry={() => void list.refetch()} />;
  const counts = Object.fromEntries(DASHBOARD_STATES.map((s) => [s, list.data.data.filter((c) => c.state === s).length]));
  const toggle = (key: SortKey) =>
    setSort((s) => (s.key === key ? { key, desc: !s.desc } : { key, desc: key === 'time_join' || key === 'time_answer' }));

  return (
    <>
      <Group justify="space-between">
        <SegmentedControl
          aria-label={t('Filter by state')}
          value={state}
          onChange={(v) => setState(v as DashboardState | 'all')}
          data={[
            { value: 'all', label: `${t('All')} (${list.data.data.length})` },
            ...DASHBOARD_STATES.map((s) => ({ value: s, label: `${t(STATE_LABEL[s])} (${counts[s]})` })),
          ]}
        />
        {list.data.total > list.data.data.length && (
          <Text size="sm" c="dimmed">
            {t('Showing the {{shown}} newest of {{total}}', { shown: list.data.data.length, total: list.data.total })}
          </Text>
        )}
      </Group>
      {rows.length === 0 ? (
        <EmptyState text={t('No open conversations')} />
      ) : (
        <Table striped highlightOnHover aria-label={t('Live conversations')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Ticket')}</Table.Th>
              {COLUMNS.map((col) => (
                <Table.Th key={col.key} aria-sort={sort.key === col.key ? (sort.desc ? 'descending' : 'ascending') : 'none'}>
                  <UnstyledButton onClick={() => toggle(col.key)} fw={600} fz="sm">
                    {t(col.label)} {sort.key === col.key ? (sort.desc ? '▼' : '▲') : ''}
                  </UnstyledButton>
                </Table.Th>
              ))}
              <Table.Th>{t('Channel')}</Table.Th>
              <Table.Th>{t('Last message')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((c) => (
              // A row opens the live view, where the supervisor can transfer, write a note or finish.
              <Table.Tr
                key={c.uuid}
                data-testid={`live-${c.uuid}`}
                style={{ cursor: 'pointer' }}
                onClick={() => void navigate(`/chat/${c.uuid}`)}
              >
                <Table.Td>
                  <Anchor
                    component={Link}
                    to={`/chat/${c.uuid}`}
                    aria-label={t('Open conversation #{{ticket}}', { ticket: c.ticket_number })}
                    onClick={(e) => e.stopPropagation()}
                  >
                    #{c.ticket_number}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Badge color={STATE_COLOR[c.state]} variant="light">
                    {t(STATE_LABEL[c.state])}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{c.contact.name ?? '--'}</Text>
                  {c.contact.phone && (
                    <Text size="xs" c="dimmed">
                      {c.contact.phone}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{c.sector?.name ?? '--'}</Table.Td>
                <Table.Td>{c.user?.username ?? '--'}</Table.Td>
                <Table.Td>{format(c.time_join)}</Table.Td>
                <Table.Td>{format(c.time_answer)}</Table.Td>
                <Table.Td>{c.channel.name}</Table.Td>
                <Table.Td maw={260}>
                  <Text size="sm" truncate="end">
                    {c.last_message?.content ?? '--'}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </>
  );
}
