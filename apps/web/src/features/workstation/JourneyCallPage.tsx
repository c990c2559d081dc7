import { Anchor, Container, Paper, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { quietApi } from '../../api/client';
import { LoadingState } from '../../ui/states';
import { InvalidConversation } from './InvalidConversation';

const dateTime = (iso: string | null) => (iso ? new Date(iso).toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'short' }) : '--');

/** /client-journey-call-history/{contactUuid}/{eventUuid}: one call of the customer journey. */
export function JourneyCallPage() {
  const { t } = useTranslation();
  const { contactUuid = '', eventUuid = '' } = useParams();
  const valid = /^[0-9a-f-]{36}$/i.test(contactUuid) && /^[0-9a-f-]{36}$/i.test(eventUuid);
  const event = useQuery({
    queryKey: ['contacts', contactUuid, 'event', eventUuid],
    enabled: valid,
    retry: false,
    queryFn: async () =>
      (await quietApi.getContactJourneyEvent({ params: { id: contactUuid, eventId: eventUuid } }).catch(() => null))?.data ?? null,
  });
  if (valid && event.isPending) return <LoadingState />;
  const e = event.data;
  if (!valid || !e) {
    return <InvalidConversation />;
  }
  return (
    <Container size="sm" py="xl">
      <Title order={3} mb="md">
        {e.event_type === 'call' ? t('Call') : t('Chat')}
      </Title>
      <Paper withBorder p="md" radius="md">
        <Table>
          <Table.Tbody>
            <Table.Tr>
              <Table.Th>{t('Start')}</Table.Th>
              <Table.Td>{dateTime(e.start)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>{t('End')}</Table.Th>
              <Table.Td>{dateTime(e.end)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>{t('Queue')}</Table.Th>
              <Table.Td>{e.data.queue_name ?? '--'}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>{t('Motivation / outcome')}</Table.Th>
              <Table.Td>{e.data.outcome ?? '--'}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>{t('Recording')}</Table.Th>
              <Table.Td>
                {e.data.recording_link && /^https?:\/\//.test(e.data.recording_link) ? (
                  <Anchor href={e.data.recording_link} target="_blank" rel="noreferrer">
                    {t('Open')}
                  </Anchor>
                ) : (
                  <Text c="dimmed">--</Text>
                )}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Paper>
    </Container>
  );
}
