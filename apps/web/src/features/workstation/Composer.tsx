import type { Conversation, Message, Tenant } from '@atende/contract';
import { ActionIcon, Alert, Box, CloseButton, Group, Switch, Text, Textarea, Tooltip } from '@mantine/core';
import { IconBold, IconItalic, IconSend, IconStrikethrough } from '@tabler/icons-react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { phrase } from '../../i18n/phrase';
import { useRealtime } from '../../realtime/RealtimeProvider';
import { hasTemplateSendError } from './conversationEvents';
import { drafts, wrapSelection, type Draft } from './drafts';
import type { Outgoing } from './useSend';

interface Props {
  conversation: Conversation;
  tenant: Tenant;
  /** the message being replied to, chosen in the message list */
  replyTo: Message | null;
  onCancelReply(): void;
  onSend(out: Outgoing): void;
}

/** Why the composer cannot send, if it cannot (spec 000 §4). */
export function composerBlock(conversation: Conversation, connected: boolean): string | null {
  if (conversation.state === 'closed' && hasTemplateSendError(conversation)) return phrase('There were errors sending template message');
  if (conversation.state === 'outbound-started' || !conversation.contact_interacted) return phrase('You can only send messages after client interaction');
  if (conversation.state !== 'answered') return phrase('This conversation is no longer active');
  if (!connected) return phrase('Reconnecting... you can send again once connected');
  return null;
}

/**
 * The message composer (spec 000 §4, §5): Enter sends, Shift+Enter breaks the line, ** _ ~ wrap the
 * selection, notes per conversation (forced when replying to a note), the reply preview cancelled by
 * its button or Escape. The draft of every conversation is kept: switching chats never loses text.
 */
export function Composer({ conversation, tenant, replyTo, onCancelReply, onSend }: Props) {
  const { t } = useTranslation();
  const { state } = useRealtime();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [draft, setDraftState] = useState<Draft>(() => drafts.get(conversation.uuid));
  const setDraft = (next: Draft) => {
    setDraftState(next);
    drafts.set(conversation.uuid, next);
  };
  const notesOn = tenant.config.features.internal_note === true;
  const replyingToNote = replyTo !== null && replyTo.internal && replyTo.author === 'USER';
  const internal = notesOn && (draft.internal || replyingToNote);
  const block = composerBlock(conversation, state === 'connected');
  // Notes may be written while a contact has not interacted yet; only the reply to the contact waits.
  const blocked = block !== null && !(internal && state === 'connected' && conversation.state !== 'closed');

  useEffect(() => {
    // The chosen reply lives in the draft too, so it survives switching conversations.
    if (replyTo && replyTo.uuid !== draft.replyToUuid) setDraft({ ...draft, replyToUuid: replyTo.uuid });
    if (replyTo) textarea.current?.focus();
  }, [replyTo?.uuid]); // reacting to the chosen message only

  const submit = () => {
    const content = draft.text.trim();
    if (!content || blocked) return;
    onSend({ content, internal, replyToUuid: replyTo?.uuid ?? null });
    setDraft({ text: '', replyToUuid: null, internal: draft.internal });
    onCancelReply();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    } else if (e.key === 'Escape' && replyTo) {
      e.preventDefault();
      cancelReply();
    }
  };

  const cancelReply = () => {
    setDraft({ ...draft, replyToUuid: null });
    onCancelReply();
  };

  const wrap = (marker: '**' | '_' | '~') => {
    const el = textarea.current;
    if (!el) return;
    const result = wrapSelection(draft.text, el.selectionStart, el.selectionEnd, marker);
    setDraft({ ...draft, text: result.text });
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(result.start, result.end);
    });
  };

  return (
    <Box px="md" py="sm" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      {block && blocked && (
        <Alert color={block.startsWith('There were') ? 'red' : 'yellow'} py={6} mb="xs" data-testid="composer-block">
          {t(block)}
        </Alert>
      )}
      {replyTo && (
        <Group justify="space-between" wrap="nowrap" mb={6} px="xs" py={4} style={{ borderLeft: '3px solid var(--mantine-color-blue-5)', background: 'var(--mantine-color-default-hover)', borderRadius: 4 }}>
          <div style={{ minWidth: 0 }}>
            <Text size="xs" fw={600}>
              {t('Replying to')}
            </Text>
            <Text size="xs" c="dimmed" lineClamp={2}>
              {replyTo.message || replyTo.annex?.original_filename}
            </Text>
          </div>
          <CloseButton size="sm" aria-label={t('Cancel reply')} onClick={cancelReply} />
        </Group>
      )}
      <Group gap={4} mb={4}>
        <Format label={t('Bold')} onClick={() => wrap('**')} icon={<IconBold size={16} />} />
        <Format label={t('Italic')} onClick={() => wrap('_')} icon={<IconItalic size={16} />} />
        <Format label={t('Strikethrough')} onClick={() => wrap('~')} icon={<IconStrikethrough size={16} />} />
        {notesOn && (
          <Tooltip label={t('Notas só podem ser respondidas com uma nota')} disabled={!replyingToNote}>
            <Switch
              ml="sm"
              size="xs"
              label={t('Internal note')}
              checked={internal}
              disabled={replyingToNote}
              onChange={(e) => setDraft({ ...draft, internal: e.currentTarget.checked })}
            />
          </Tooltip>
        )}
      </Group>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <Textarea
          ref={textarea}
          style={{ flex: 1 }}
          autosize
          minRows={1}
          maxRows={4}
          styles={{ input: { maxHeight: 100, background: internal ? 'var(--mantine-color-yellow-light)' : undefined } }}
          placeholder={internal ? t('Write an internal note (the contact does not see it)') : t('Type a message')}
          aria-label={internal ? t('Internal note') : t('Message')}
          value={draft.text}
          disabled={blocked}
          onChange={(e) => setDraft({ ...draft, text: e.currentTarget.value })}
          onKeyDown={onKeyDown}
        />
        <ActionIcon size="lg" aria-label={t('Send')} onClick={submit} disabled={blocked || draft.text.trim() === ''}>
          <IconSend size={18} />
        </ActionIcon>
      </Group>
    </Box>
  );
}

function Format({ label, onClick, icon }: { label: string; onClick(): void; icon: React.ReactNode }) {
  return (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" color="gray" size="sm" aria-label={label} onMouseDown={(e) => e.preventDefault()} onClick={onClick}>
        {icon}
      </ActionIcon>
    </Tooltip>
  );
}
