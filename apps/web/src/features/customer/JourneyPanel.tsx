import type { Conversation } from '@atende/contract';
import { Accordion, Anchor, Group, Stack, Text } from '@mantine/core';
import { IconMessage, IconPhone } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ErrorState } from '../../ui/states';
import { PanelLoading } from './PanelLoading';
import { useJourney } from './queries';
import { channelText, outcomeText } from './journeyLabels';

export const JOURNEY_ITEM = 'journey';
const dateTime = (iso: string) => new Date(iso).toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'short' });

/**
 * Customer journey panel (flag contact_journey): the contact's last 5 sessions, chats
 * by channel and calls with queue and outcome, each linking to its journey page, and the History tab.
 */
export function JourneyPanel({ conversation }: { conversation: Conversation }) {
  const { t } = useTranslation();
  const location = useLocation();
  const contactUuid = conversation.contact.uuid;
  const journey = useJourney(contactUuid, true);
  // The History tab of the open conversation: keep the workstation's selection when already there.
  const historyLink = { pathname: '/app', search: location.pathname === '/app' ? location.search : '', hash: 'history' };

  // Previous sessions: the open conversation itself is not one of them.
  const previous = journey.data?.data.filter((s) => s.data.conversation_uuid !== conversation.uuid);

  let body;
  if (journey.isError) body = <ErrorState onRetry={() => void journey.refetch()} />;
  else if (!previous) body = <PanelLoading />;
  else if (previous.length === 0) {
    body = (
      <Text size="sm" c="dimmed">
        {t('This customer has no previous sessions')}
      </Text>
    );
  } else {
    body = (
      <Stack gap="xs">
        <Stack component="ul" gap={8} m={0} p={0} style={{ listStyle: 'none' }}>
          {previous.map((s) => {
            const call = s.event_type === 'call';
            const to =
              call || !s.data.conversation_uuid
                ? `/client-journey-call-history/${contactUuid}/${s.uuid}`
                : `/client-journey/agent/${s.data.conversation_uuid}`;
            return (
              <Group component="li" key={s.uuid} gap="xs" wrap="nowrap" align="flex-start">
                {call ? (
                  <IconPhone size={16} aria-hidden style={{ marginTop: 3, flexShrink: 0 }} />
                ) : (
                  <IconMessage size={16} aria-hidden style={{ marginTop: 3, flexShrink: 0 }} />
                )}
                <div style={{ minWidth: 0 }}>
                  <Anchor component={Link} to={to} size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {call
                      ? t('Call: {{queue}}', { queue: s.data.queue_name ?? '--' })
                      : t('Chat via {{channel}}', { channel: channelText(s.data) })}
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {dateTime(s.start)}
                    {call && s.data.outcome ? ` · ${outcomeText(s.data.outcome, t)}` : ''}
                  </Text>
                </div>
              </Group>
            );
          })}
        </Stack>
        <Anchor component={Link} to={historyLink} size="sm">
          {t('See the full history')}
        </Anchor>
      </Stack>
    );
  }

  return (
    <Accordion.Item value={JOURNEY_ITEM}>
      <Accordion.Control>
        <Text fw={600} size="sm">
          {t('Customer journey')}
        </Text>
      </Accordion.Control>
      <Accordion.Panel>{body}</Accordion.Panel>
    </Accordion.Item>
  );
}
