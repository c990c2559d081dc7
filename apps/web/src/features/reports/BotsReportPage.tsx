import type { BotHistoryRow } from '@atende/contract';
import { allows, reportLabel, zonedText } from '@atende/core';
import { Anchor, Select, Stack, Table, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { useMe } from '../../session/session';
import { useFlag } from '../../ui/guards';
import { PagedFooter } from '../../ui/PagedFooter';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { AdminReportPage } from './AdminReportPage';
import { REPORT_DEFINITIONS } from './definitions';

/** The outcomes as the report's dictionary words them (the bots totals above use the same words). */
const OUTCOMES: Record<BotHistoryRow['outcome'], string> = {
  in_bot: 'Still in the flow',
  sent_to_queue: 'Sent to the queue',
  ended: 'Ended',
};

/**
 * Reports > Bots (flag bots_report): the totals per menu answer and bot, then each
 * conversation's pass through a flow (GET /api/v1/bots/history/conversations)
 * for the same days, narrowed to one bot or menu, paged, each opening its conversation.
 */
export function BotsReportPage() {
  return <AdminReportPage report={{ ...REPORT_DEFINITIONS.bots, extra: (asked) => <BotPasses asked={asked} /> }} />;
}

function BotPasses({ asked }: { asked: Record<string, string> }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language === 'pt' ? 'pt' : 'en';
  const [bot, setBot] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(10);
  const roles = (useMe().data?.roles ?? []).map((r) => r.name);
  // Bot flows are listed only where the caller may read them (bots_interface); menus always.
  const botsOn = useFlag('bots_interface') && allows(roles, 'bots.read');
  const bots = useQuery({ queryKey: ['bots'], enabled: botsOn, queryFn: async () => (await api.listBots({})).data });
  const menus = useQuery({ queryKey: ['automated-menus'], queryFn: async () => (await api.listAutomatedMenus({})).data });
  const timezone = asked.timezone ?? 'UTC';
  const query = {
    start: asked.start,
    end: asked.end,
    timezone,
    ...(bot ? { bot_uuid: bot } : {}),
    _limit: limit,
    _offset: (page - 1) * limit,
  };
  const passes = useQuery({
    queryKey: ['bots', 'history', query],
    placeholderData: keepPreviousData,
    retry: false,
    queryFn: async () => await api.botHistory({ query }),
  });
  const choices = [
    ...(botsOn ? (bots.data ?? []) : []).map((b) => ({ value: b.uuid, label: b.name })),
    ...(menus.data ?? []).map((m) => ({ value: m.uuid, label: m.name })),
  ];
  return (
    <Stack>
      <Title order={4}>{t('Conversations through the bots')}</Title>
      <Select
        label={t('Bot or menu')}
        w={280}
        clearable
        searchable
        data={choices}
        value={bot}
        onChange={(v) => {
          setBot(v);
          setPage(1);
        }}
      />
      {passes.isPending ? (
        <LoadingState />
      ) : passes.isError ? (
        <ErrorState onRetry={() => void passes.refetch()} />
      ) : passes.data.data.length === 0 ? (
        <EmptyState text={t('No data found')} />
      ) : (
        <>
          <Table striped aria-label={t('Conversations through the bots')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Date')}</Table.Th>
                <Table.Th>{t('Ticket')}</Table.Th>
                <Table.Th>{t('Contact')}</Table.Th>
                <Table.Th>{t('Channel')}</Table.Th>
                <Table.Th>{t('Bot or menu')}</Table.Th>
                <Table.Th>{reportLabel('Outcome', language)}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {passes.data.data.map((r) => (
                <Table.Tr key={`${r.conversation_uuid}-${r.bot.uuid}-${r.at}`}>
                  <Table.Td>{zonedText(r.at, timezone)}</Table.Td>
                  <Table.Td>
                    {/* A report row opens its conversation's history in a new tab. */}
                    <Anchor component={Link} to={`/chat-history/reports/${r.conversation_uuid}`} target="_blank">
                      #{r.ticket_number}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{r.contact.phone ? `${r.contact.name} (${r.contact.phone})` : r.contact.name}</Table.Td>
                  <Table.Td>{r.channel.name}</Table.Td>
                  <Table.Td>{r.bot.name}</Table.Td>
                  <Table.Td>{reportLabel(OUTCOMES[r.outcome], language)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <PagedFooter total={passes.data.pagination.total} limit={limit} page={page} onLimit={setLimit} onPage={setPage} />
        </>
      )}
    </Stack>
  );
}
