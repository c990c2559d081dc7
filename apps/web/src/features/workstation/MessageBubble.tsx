import { emailHeadersOf, type Message } from '@atende/contract';
import { ActionIcon, Anchor, Box, Group, Image, Paper, Text, Tooltip } from '@mantine/core';
import { IconArrowBackUp, IconCheck, IconChecks, IconClock, IconFile, IconNote } from '@tabler/icons-react';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reasonText } from '../../api/reasons';
import { awaitingAnswer } from './messageCache';
import { MessageDetailsLabel } from './MessageDetails';

interface Props {
  message: Message;
  repliedTo: Message | null;
  canReply: boolean;
  onReply(message: Message): void;
  onRetry(message: Message): void;
  onOpenReplied(uuid: string): void;
}

const time = (iso: string) => new Date(iso).toLocaleTimeString('pt-BR', { hour: '2-digit', minute: '2-digit' });

/** Delivery ticks of the agent's messages: clock, check, double check (delivered, where the provider says so), double blue check. */
function Ticks({ message }: { message: Message }) {
  const { t } = useTranslation();
  if (message.internal) return null;
  if (message.state === 'read') return <IconChecks size={14} color="var(--mantine-color-blue-6)" aria-label={t('Read')} />;
  if (message.state === 'sent' && message.delivered) return <IconChecks size={14} aria-label={t('Delivered')} />;
  if (message.state === 'sent') return <IconCheck size={14} aria-label={t('Sent')} />;
  return <IconClock size={14} aria-label={t('Pending')} />;
}

/** Light markdown of the composer's wrappers (** _ ~), rendered as elements, never as HTML. */
function Formatted({ text }: { text: string }) {
  const parts = text.split(/(\*\*[^*\n]+\*\*|_[^_\n]+_|~[^~\n]+~)/g);
  return (
    <>
      {parts.map((part, i) => {
        if (/^\*\*[^*\n]+\*\*$/.test(part)) return <strong key={i}>{part.slice(2, -2)}</strong>;
        if (/^_[^_\n]+_$/.test(part)) return <em key={i}>{part.slice(1, -1)}</em>;
        if (/^~[^~\n]+~$/.test(part)) return <s key={i}>{part.slice(1, -1)}</s>;
        return <span key={i}>{part}</span>;
      })}
    </>
  );
}

function Annex({ message }: { message: Message }) {
  const annex = message.annex;
  if (!annex) return null;
  if (message.voice || annex.content_type.startsWith('audio/'))
    return <audio controls src={annex.uri} preload="none" style={{ maxWidth: 260 }} />;
  if (annex.content_type.startsWith('image/')) {
    return (
      <Anchor href={annex.uri} target="_blank" rel="noreferrer">
        <Image src={annex.uri} alt={annex.original_filename} maw={240} mah={240} fit="contain" radius="sm" />
      </Anchor>
    );
  }
  return (
    <Anchor href={annex.uri} download={annex.original_filename} size="sm">
      <Group gap={4} wrap="nowrap">
        <IconFile size={16} aria-hidden />
        {annex.original_filename}
      </Group>
    </Anchor>
  );
}

function EmailHeaders({ from, subject }: { from: string | null; subject: string | null }) {
  const { t } = useTranslation();
  return (
    <>
      {from && (
        <Text size="xs" c="dimmed" data-testid="email-from">
          {t('From')}: {from}
        </Text>
      )}
      {subject && (
        <Text size="xs" fw={600} mb={2} data-testid="email-subject">
          {t('Subject')}: {subject}
        </Text>
      )}
    </>
  );
}

function FoldedText({ text }: { text: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Anchor component="button" type="button" size="xs" onClick={() => setOpen(!open)}>
        {open ? t('Hide the quoted text') : t('Show the quoted text')}
      </Anchor>
      {open && (
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {text}
        </Text>
      )}
    </>
  );
}

/** One message: the contact's on the left, the agent's on the right, notes highlighted. */
export const MessageBubble = memo(function MessageBubble({ message: m, repliedTo, canReply, onReply, onRetry, onOpenReplied }: Props) {
  const { t } = useTranslation();
  const mine = m.author === 'USER';
  const faded = m.status === 'sending' && awaitingAnswer(m.uuid);
  const failed = m.status === 'failed';
  const email = emailHeadersOf(m.interactive_content);
  return (
    <Group
      id={`message-${m.uuid}`}
      justify={mine ? 'flex-end' : 'flex-start'}
      gap={4}
      wrap="nowrap"
      className="message-row"
      data-author={m.author}
      data-testid="message"
    >
      {mine && canReply && <ReplyButton onClick={() => onReply(m)} />}
      <Paper
        px="sm"
        py={6}
        radius="md"
        maw="72%"
        withBorder={m.internal}
        style={{
          opacity: faded ? 0.55 : 1,
          background: m.internal
            ? 'var(--mantine-color-yellow-light)'
            : mine
              ? 'var(--mantine-color-blue-light)'
              : 'var(--mantine-color-default-hover)',
        }}
      >
        {m.internal && (
          <Group gap={4} mb={2}>
            <IconNote size={12} aria-hidden />
            <Text size="xs" fw={600}>
              {t('Internal note')}
            </Text>
          </Group>
        )}
        {mine && m.user && !m.internal && (
          <Text size="xs" c="dimmed">
            {m.user.username}
          </Text>
        )}
        {m.reply_to_uuid && (
          <Box
            component="button"
            type="button"
            onClick={() => onOpenReplied(m.reply_to_uuid!)}
            mb={4}
            px={6}
            py={2}
            style={{
              display: 'block',
              width: '100%',
              textAlign: 'left',
              border: 0,
              borderLeft: '3px solid var(--mantine-color-blue-5)',
              background: 'var(--mantine-color-default)',
              borderRadius: 4,
              cursor: 'pointer',
            }}
            aria-label={t('Go to the replied message')}
          >
            <Text size="xs" c="dimmed" lineClamp={2}>
              {repliedTo ? repliedTo.message || repliedTo.annex?.original_filename : t('Replied message')}
            </Text>
          </Box>
        )}
        {email && <EmailHeaders from={mine ? null : email.from} subject={email.subject} />}
        {!mine && <MessageDetailsLabel message={m} />}
        <Annex message={m} />
        {m.message && (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-bindable-text="true">
            <Formatted text={m.message} />
          </Text>
        )}
        {email?.fullText && <FoldedText text={email.fullText} />}
        <Group gap={4} justify="flex-end" mt={2}>
          <Text size="xs" c="dimmed">
            {time(m.when)}
          </Text>
          {mine && <Ticks message={m} />}
        </Group>
        {failed && m.error_message && (
          <Text size="xs" c="red" data-testid="message-failure">
            {reasonText(m.error_message, t)}
          </Text>
        )}
        {failed && m.retryable && (
          <Anchor component="button" type="button" size="xs" c="red" onClick={() => onRetry(m)}>
            {t('Your message may not be sent, try again')}
          </Anchor>
        )}
        {failed && !m.retryable && (
          <Text size="xs" c="red" data-testid="message-not-sent">
            {t('Not sent: sending it again would be refused the same way')}
          </Text>
        )}
      </Paper>
      {!mine && canReply && <ReplyButton onClick={() => onReply(m)} />}
    </Group>
  );
});

function ReplyButton({ onClick }: { onClick(): void }) {
  const { t } = useTranslation();
  return (
    <Tooltip label={t('Reply')}>
      <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('Reply')} onClick={onClick} className="reply-button">
        <IconArrowBackUp size={14} />
      </ActionIcon>
    </Tooltip>
  );
}
