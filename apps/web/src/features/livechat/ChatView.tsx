import { ActionIcon, Group, ScrollArea, Stack, Text, Textarea } from '@mantine/core';
import type { LivechatMessage, LivechatPublicConfig } from '@atende/contract';
import { ApiError } from '@atende/sdk';
import { IconMicrophone, IconSend } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RecordingBar } from '../workstation/composer/RecordingBar';
import { useVoiceRecorder } from '../workstation/composer/useVoiceRecorder';
import { base64Of, voiceUploadType } from '../workstation/composer/voiceRules';
import { UPLOAD_MAX_BYTES } from '@atende/contract';
import { WidgetBubble, type WidgetLook } from './WidgetLook';
import { mergeMessages, widgetApi } from './widgetApi';

const WAIT_SECONDS = 20;

/** The conversation: messages kept live by long polling (agent replies show within a second), and the composer. */
export function ChatView({
  config,
  look,
  token,
  onSessionEnded,
}: {
  config: LivechatPublicConfig;
  look: WidgetLook;
  token: string;
  onSessionEnded: () => void;
}) {
  const { t } = useTranslation();
  const [messages, setMessages] = useState<LivechatMessage[]>([]);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [offline, setOffline] = useState(false);
  const last = useRef<string | undefined>(undefined);
  const viewport = useRef<HTMLDivElement>(null);
  const channelUuid = config.channel_uuid;
  // The appearance's "audio recording allowed": the visitor may send voice notes.
  const audio = config.widget_settings.audio_recording_allowed;
  const voice = useVoiceRecorder();
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    let stopped = false;
    const loop = async () => {
      let first = true;
      while (!stopped) {
        try {
          const res = await widgetApi.messages(token, channelUuid, last.current, first ? 0 : WAIT_SECONDS);
          first = false;
          if (stopped) return;
          setOffline(false);
          const newest = res.data.at(-1);
          if (newest) last.current = newest.created_at;
          setMessages((current) => mergeMessages(current, res.data));
        } catch (error) {
          if (stopped) return;
          if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return onSessionEnded();
          setOffline(true);
          await new Promise((r) => setTimeout(r, 2000));
        }
      }
    };
    void loop();
    return () => {
      stopped = true;
    };
  }, [token, channelUuid, onSessionEnded]);

  useEffect(() => {
    viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
  }, [messages.length]);

  const send = async () => {
    const content = text.trim();
    if (!content || sending) return;
    setSending(true);
    try {
      const res = await widgetApi.send(token, channelUuid, crypto.randomUUID(), content);
      setText('');
      setMessages((current) =>
        mergeMessages(current, [
          { uuid: res.data.message_uuid, from: 'visitor', content, annex: null, agent_name: null, created_at: new Date().toISOString() },
        ]),
      );
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) onSessionEnded();
      else setOffline(true);
    } finally {
      setSending(false);
    }
  };

  const recordVoice = async () => {
    setNotice(null);
    if (!(await voice.start())) setNotice(t('Grant microphone permissions to record voice!'));
  };
  const sendVoice = async () => {
    const recorded = await voice.confirm();
    if (!recorded) return;
    try {
      if (recorded.size > UPLOAD_MAX_BYTES) return setNotice(t('Maximum file size exceeded ({{size}} MB)', { size: 5 }));
      await widgetApi.voice(
        token,
        channelUuid,
        crypto.randomUUID(),
        await base64Of(recorded),
        voiceUploadType(recorded.type) ?? 'audio/webm',
      );
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) onSessionEnded();
      else setOffline(true);
    } finally {
      voice.done();
    }
  };

  const background = config.widget_settings.background_url;
  return (
    <Stack gap={0} style={{ flex: 1, minHeight: 0 }}>
      <ScrollArea
        viewportRef={viewport}
        style={{
          flex: 1,
          background: config.theme_data.background_color,
          backgroundImage: background ? `url("${background}")` : undefined,
          backgroundSize: 'cover',
        }}
      >
        <Stack gap="xs" p="sm" aria-label={t('Messages')} role="log">
          {messages.length === 0 && (
            <Text size="sm" c="dimmed" ta="center">
              {t('Write your message: an agent will answer here.')}
            </Text>
          )}
          {messages.map((m) => (
            <WidgetBubble key={m.uuid} mine={m.from === 'visitor'} look={look} author={m.agent_name} annex={m.annex}>
              {m.content}
            </WidgetBubble>
          ))}
        </Stack>
      </ScrollArea>
      {notice && (
        <Text size="xs" c="red" px="sm" role="alert">
          {notice}
        </Text>
      )}
      {offline && (
        <Text size="xs" c="red" px="sm">
          {t('Reconnecting...')}
        </Text>
      )}
      <Group p="xs" gap="xs" wrap="nowrap" align="flex-end" style={{ borderTop: '1px solid #dee2e6' }}>
        {voice.state !== 'idle' ? (
          <RecordingBar
            state={voice.state}
            elapsedMs={voice.elapsedMs}
            canConfirm
            onCancel={voice.cancel}
            onConfirm={() => void sendVoice()}
          />
        ) : (
          <>
            <Textarea
              style={{ flex: 1 }}
              autosize
              maxRows={4}
              maxLength={4096}
              placeholder={t('Type a message')}
              aria-label={t('Type a message')}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !e.shiftKey) {
                  e.preventDefault();
                  void send();
                }
              }}
            />
            {audio && (
              <ActionIcon size="lg" variant="subtle" color="gray" aria-label={t('Record voice')} onClick={() => void recordVoice()}>
                <IconMicrophone size={18} />
              </ActionIcon>
            )}
            <ActionIcon
              size="lg"
              aria-label={t('Send')}
              loading={sending}
              onClick={() => void send()}
              style={{ background: config.theme_data.primary_color, color: config.theme_data.text_color }}
            >
              <IconSend size={18} />
            </ActionIcon>
          </>
        )}
      </Group>
    </Stack>
  );
}
