import { fillPlaceholders } from '@atende/core';
import {
  capabilitiesOf,
  UPLOAD_ALLOWED_TYPES,
  UPLOAD_MAX_BYTES,
  voiceNoteRefusal,
  type Conversation,
  type Message,
  type Tenant,
} from '@atende/contract';
import {
  ActionIcon,
  Alert,
  Box,
  CloseButton,
  Combobox,
  FileButton,
  Group,
  Overlay,
  Switch,
  Text,
  Textarea,
  TextInput,
  Tooltip,
  useCombobox,
} from '@mantine/core';
import { IconBold, IconItalic, IconMicrophone, IconPaperclip, IconSend, IconStrikethrough } from '@tabler/icons-react';
import { useEffect, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { phrase } from '../../i18n/phrase';
import { useRealtime } from '../../realtime/RealtimeProvider';
import { useMe } from '../../session/session';
import { toastError } from '../../ui/toasts';
import { replyWindowClosed } from './composer/replyWindow';
import { markdownImages, planOutgoing, textLimit, typeFromName, UPLOAD_MAX_MB } from './composer/attachmentRules';
import { attachmentStore } from './composer/attachmentStore';
import { AttachmentTray } from './composer/AttachmentTray';
import { CannedOptions } from './composer/CannedOptions';
import { RecordingBar } from './composer/RecordingBar';
import { uploadVoice } from './composer/upload';
import { useAttachments } from './composer/useAttachments';
import { useCannedSuggestions, type CannedResponse } from './composer/useCannedSuggestions';
import { useVoiceRecorder } from './composer/useVoiceRecorder';
import { voiceToSend, voiceUploadType } from './composer/voiceRules';
import { ownSubject, replySubjectFor } from './composer/emailSubject';
import { hasTemplateSendError } from './conversationEvents';
import { drafts, wrapSelection, type Draft } from './drafts';
import { useMessages } from './queries';
import type { Outgoing } from './useSend';

/** Recording without microphone permission. */
export const MICROPHONE_DENIED = phrase('Grant microphone permissions to record voice!');
const NO_VOICE_NOTES = phrase('This channel does not take voice messages');
const ACCEPTED_FILES = UPLOAD_ALLOWED_TYPES.join(',');

interface Props {
  conversation: Conversation;
  tenant: Tenant;
  /** the message being replied to, chosen in the message list */
  replyTo: Message | null;
  onCancelReply(): void;
  onSend(out: Outgoing): void;
}

const WINDOW_CLOSED = phrase('More than 24 hours since the contact last wrote: this channel takes no reply until they write again');
const HUMAN_AGENT_WINDOW_CLOSED = phrase(
  'More than 7 days since the contact last wrote: this channel takes no reply until they write again',
);
/** What the composer says past the channel's reply window: 24 hours, or 7 days with the Human Agent tag on. */
const windowClosedText = (channel: { type: string; settings?: Readonly<Record<string, string>> }) =>
  (capabilitiesOf(channel.type, channel.settings)?.replyWindowHours ?? 24) > 24 ? HUMAN_AGENT_WINDOW_CLOSED : WINDOW_CLOSED;

/** Why the composer cannot send, if it cannot. */
export function composerBlock(conversation: Conversation, connected: boolean): string | null {
  if (conversation.state === 'closed' && hasTemplateSendError(conversation)) return phrase('There were errors sending template message');
  if (conversation.state === 'outbound-started' || !conversation.contact_interacted)
    return phrase('You can only send messages after client interaction');
  if (conversation.state !== 'answered') return phrase('This conversation is no longer active');
  if (!connected) return phrase('Reconnecting... you can send again once connected');
  return null;
}

/**
 * The message composer: Enter sends, Shift+Enter breaks the line, ** _ ~ wrap the
 * selection, notes per conversation (forced when replying to a note), the reply preview cancelled by
 * its button or Escape. The draft of every conversation is kept: switching chats never loses text.
 * Files come by the paperclip, drag-and-drop or paste; voice notes by the microphone; canned
 * responses by typing '/' and a few letters.
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
  const messages = useMessages(conversation.uuid);
  // Past the channel's reply window (Messenger, Instagram) the contact must write first; notes still go.
  const block =
    composerBlock(conversation, state === 'connected') ??
    (replyWindowClosed(conversation.channel, messages.data) ? windowClosedText(conversation.channel) : null);
  // Notes may be written while a contact has not interacted yet; only the reply to the contact waits.
  const blocked = block !== null && !(internal && state === 'connected' && conversation.state !== 'closed');
  const me = useMe().data;
  const files = useAttachments(conversation.uuid, conversation.channel.type, conversation.channel.settings);
  const pending = files.attachments.some((a) => a.status === 'fetching' || a.status === 'uploading');
  const ready = files.attachments.filter((a) => a.status === 'uploaded');
  // A channel's own text limit is shown while typing; over it, nothing is sent (not a failure after send).
  const limit = internal
    ? null
    : textLimit(conversation.channel.type, { text: draft.text, attachments: ready }, conversation.channel.settings);
  const canSend = !blocked && !pending && !limit?.over && (draft.text.trim() !== '' || ready.length > 0);
  // E-mail: the reply's subject is shown; typing another starts a new thread under it.
  const subjects = !internal && capabilitiesOf(conversation.channel.type, conversation.channel.settings)?.subjects === true;
  const replyingUnder = subjects ? replySubjectFor(messages.data?.messages ?? [], replyTo) : '';
  const [typedSubject, setTypedSubject] = useState<{ conversation: string; subject: string } | null>(null);
  const subjectTyped = typedSubject?.conversation === conversation.uuid ? typedSubject.subject : null;
  const voice = useVoiceRecorder();
  const recording = voice.state !== 'idle';
  // A channel that can take no recording (Instagram, SMS without MMS) is not offered one; a note always can be.
  const noVoice = !internal && voiceNoteRefusal(conversation.channel.type, conversation.channel.settings) !== null;
  const [dragging, setDragging] = useState(false);
  const resetFileInput = useRef<() => void>(null);

  // Canned responses: suggestions while the text is '/' and a query; Escape dismisses
  // them for the text as it is, the next key brings them back.
  const cannedOn = tenant.config.features.canned_responses === true && !blocked;
  const matches = useCannedSuggestions(conversation, draft.text, cannedOn);
  const [dismissedFor, setDismissedFor] = useState<string | null>(null);
  const cannedOpen = matches.length > 0 && dismissedFor !== draft.text && !recording;
  const combobox = useCombobox({ opened: cannedOpen, onOpenedChange: (opened) => !opened && setDismissedFor(draft.text) });
  // The first suggestion is the one Enter picks, again whenever the suggestions change.
  const { selectFirstOption } = combobox;
  useEffect(() => {
    if (cannedOpen) selectFirstOption();
  }, [cannedOpen, matches, selectFirstOption]);
  const fill = (message: string) => fillPlaceholders(message, { userName: me?.username ?? '', workspaceName: me?.workspace.name ?? '' });

  // The chosen reply lives in the draft too, so it survives switching conversations: the parent
  // stores it when a message is chosen, and this copy takes it in while rendering.
  const replyUuid = replyTo?.uuid ?? null;
  const [replySeen, setReplySeen] = useState<string | null>(null);
  if (replyUuid !== replySeen) {
    setReplySeen(replyUuid);
    if (replyUuid !== null && replyUuid !== draft.replyToUuid) setDraftState({ ...draft, replyToUuid: replyUuid });
  }
  useEffect(() => {
    if (replyUuid !== null) textarea.current?.focus();
  }, [replyUuid]);

  const submit = () => {
    if (blocked) return;
    // Read at the moment of sending: a description typed a moment ago was just flushed into the store.
    const attached = attachmentStore.list(conversation.uuid);
    if (attached.some((a) => a.status === 'fetching' || a.status === 'uploading')) return;
    if (limit?.over) return;
    const sending = attached.filter((a) => a.status === 'uploaded' && a.annex);
    const outgoing = planOutgoing({
      text: draft.text,
      attachments: sending.map((a) => ({ annex: a.annex!, description: a.description })),
      internal,
      replyToUuid: replyTo?.uuid ?? null,
    });
    if (outgoing.length === 0) return;
    const subject = subjects ? ownSubject(subjectTyped, replyingUnder) : undefined;
    if (subject) outgoing[0] = { ...outgoing[0]!, subject };
    outgoing.forEach(onSend);
    setTypedSubject(null);
    files.remove(sending.map((a) => a.id));
    setDraft({ text: '', replyToUuid: null, internal: draft.internal });
    onCancelReply();
  };

  const pickCanned = (uuid: string) => {
    const picked: CannedResponse | undefined = matches.find((r) => r.uuid === uuid);
    if (!picked) return;
    const text = fill(picked.message);
    setDraft({ ...draft, text });
    setDismissedFor(text);
    if (picked.annex) files.addStored({ ...picked.annex, content_type: typeFromName(picked.annex.original_filename), size: 0 });
    requestAnimationFrame(() => {
      const el = textarea.current;
      el?.focus();
      el?.setSelectionRange(text.length, text.length);
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (cannedOpen && (e.key === 'Enter' || e.key === 'Tab') && !e.shiftKey && !e.nativeEvent.isComposing) {
      // While suggestions show, Enter and Tab pick one instead of sending (Combobox.Target handles Enter).
      e.preventDefault();
      if (combobox.getSelectedOptionIndex() === -1) combobox.selectFirstOption();
      if (e.key === 'Tab') combobox.clickSelectedOption();
    } else if (cannedOpen && e.key === 'Escape') {
      // Combobox.Target closes the list; the reply being written stays.
    } else if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
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

  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const pasted = Array.from(e.clipboardData.files);
    if (pasted.length > 0) {
      e.preventDefault();
      if (!blocked) files.addFiles(pasted);
      return;
    }
    // Markdown images in pasted text are fetched and re-uploaded as attachments.
    const { images, rest } = markdownImages(e.clipboardData.getData('text/plain'));
    if (images.length === 0) return;
    e.preventDefault();
    const el = e.currentTarget;
    const text = draft.text.slice(0, el.selectionStart) + rest + draft.text.slice(el.selectionEnd);
    setDraft({ ...draft, text });
    images.forEach(files.addImageFromUrl);
  };

  const onDrag = (e: DragEvent<HTMLDivElement>) => {
    if (!e.dataTransfer.types.includes('Files')) return;
    // Always taken, so a file dropped on a blocked composer is not opened by the browser instead.
    e.preventDefault();
    if (e.type === 'dragleave') {
      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
    } else if (e.type === 'drop') {
      setDragging(false);
      if (!blocked) files.addFiles(Array.from(e.dataTransfer.files));
    } else if (!blocked) {
      setDragging(true);
    }
  };

  const recordVoice = async () => {
    if (blocked || noVoice || recording) return;
    if (!(await voice.start())) toastError(t(MICROPHONE_DENIED));
  };

  const sendVoice = async () => {
    const confirmed = await voice.confirm();
    if (!confirmed) return;
    try {
      const recorded = await voiceToSend(confirmed);
      if (recorded.size > UPLOAD_MAX_BYTES) {
        toastError(t('Maximum file size exceeded ({{size}} MB)', { size: UPLOAD_MAX_MB }));
        return;
      }
      const stored = await uploadVoice(recorded, voiceUploadType(recorded.type) ?? 'audio/webm');
      onSend({ content: '', internal, replyToUuid: replyTo?.uuid ?? null, annexUuid: stored.uuid, voice: true, annex: stored });
      if (replyTo) cancelReply();
    } catch {
      // The shared error handler already showed why the upload failed.
    } finally {
      voice.done();
    }
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
    <Box
      px="md"
      py="sm"
      pos="relative"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
      onDragEnter={onDrag}
      onDragOver={onDrag}
      onDragLeave={onDrag}
      onDrop={onDrag}
    >
      {dragging && (
        <Overlay
          color="var(--mantine-color-body)"
          backgroundOpacity={0.85}
          center
          zIndex={5}
          style={{ pointerEvents: 'none', border: '2px dashed var(--mantine-color-blue-5)' }}
        >
          <Text fw={500}>{t('Drop files to attach')}</Text>
        </Overlay>
      )}
      {block && blocked && (
        <Alert color={block.startsWith('There were') ? 'red' : 'yellow'} py={6} mb="xs" data-testid="composer-block">
          {t(block)}
        </Alert>
      )}
      {replyTo && (
        <Group
          justify="space-between"
          wrap="nowrap"
          mb={6}
          px="xs"
          py={4}
          style={{ borderLeft: '3px solid var(--mantine-color-blue-5)', background: 'var(--mantine-color-default-hover)', borderRadius: 4 }}
        >
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
      <AttachmentTray
        attachments={files.attachments}
        disabled={blocked}
        onRemove={(id) => files.remove([id])}
        onDescription={files.setDescription}
        onSubmit={submit}
      />
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
      {subjects && (
        <TextInput
          size="xs"
          mb={4}
          label={t('Subject')}
          value={subjectTyped ?? replyingUnder}
          maxLength={200}
          disabled={blocked}
          onChange={(e) => setTypedSubject({ conversation: conversation.uuid, subject: e.currentTarget.value })}
        />
      )}
      <Group gap="xs" align="flex-end" wrap="nowrap">
        {recording ? (
          <RecordingBar
            state={voice.state}
            elapsedMs={voice.elapsedMs}
            canConfirm={!blocked}
            onCancel={voice.cancel}
            onConfirm={() => void sendVoice()}
          />
        ) : (
          <>
            <FileButton
              onChange={(chosen) => {
                files.addFiles(chosen);
                resetFileInput.current?.(); // the same file can be chosen again after removing it
              }}
              resetRef={resetFileInput}
              accept={ACCEPTED_FILES}
              multiple
              disabled={blocked}
            >
              {(props) => (
                <Tooltip label={t('Attach files')}>
                  <ActionIcon {...props} variant="subtle" color="gray" size="lg" aria-label={t('Attach files')} disabled={blocked}>
                    <IconPaperclip size={18} />
                  </ActionIcon>
                </Tooltip>
              )}
            </FileButton>
            <Combobox
              store={combobox}
              onOptionSubmit={pickCanned}
              position="top-start"
              transitionProps={{ duration: 0 }}
              withinPortal={false}
            >
              <Combobox.Target withKeyboardNavigation={cannedOpen} withAriaAttributes={cannedOn}>
                <Textarea
                  ref={textarea}
                  style={{ flex: 1 }}
                  autosize
                  minRows={1}
                  maxRows={4}
                  styles={{ input: { maxHeight: 100, background: internal ? 'var(--mantine-color-yellow-light)' : undefined } }}
                  placeholder={internal ? t('Write an internal note (the contact does not see it)') : t('Type a message')}
                  aria-label={internal ? t('Internal note') : t('Message')}
                  aria-autocomplete={cannedOn ? 'list' : undefined}
                  value={draft.text}
                  disabled={blocked}
                  onChange={(e) => setDraft({ ...draft, text: e.currentTarget.value })}
                  onKeyDown={onKeyDown}
                  onPaste={onPaste}
                />
              </Combobox.Target>
              <Combobox.Dropdown hidden={!cannedOpen}>
                <CannedOptions matches={matches} fill={fill} />
              </Combobox.Dropdown>
            </Combobox>
            <Tooltip label={t(noVoice ? NO_VOICE_NOTES : 'Record voice')}>
              <ActionIcon
                variant="subtle"
                color="gray"
                size="lg"
                aria-label={t('Record voice')}
                onClick={() => void recordVoice()}
                disabled={blocked || noVoice}
                loading={voice.state === 'starting'}
              >
                <IconMicrophone size={18} />
              </ActionIcon>
            </Tooltip>
            <ActionIcon size="lg" aria-label={t('Send')} onClick={submit} disabled={!canSend}>
              <IconSend size={18} />
            </ActionIcon>
          </>
        )}
      </Group>
      {limit && (limit.over || limit.length > 0) && (
        <Text size="xs" ta="right" mt={2} c={limit.over ? 'red' : 'dimmed'} data-testid="composer-limit">
          {limit.over
            ? limit.length > limit.max
              ? t('This channel takes at most {{max}} characters here', { max: limit.max })
              : t('Attachment descriptions take at most {{max}} characters on this channel', { max: limit.captionMax })
            : limit.segments
              ? `${limit.segments.segments === 1 ? t('1 segment') : t('{{n}} segments', { n: limit.segments.segments })} · ${t('{{n}} characters left', { n: limit.segments.left })}${limit.segments.encoding === 'UCS-2' ? ` · ${t('special characters: 70 per segment')}` : ''}`
              : t('{{n}} characters left', { n: limit.max - limit.length })}
        </Text>
      )}
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
