import {
  Button,
  Code,
  ColorInput,
  CopyButton,
  Divider,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { Channel, LivechatAppearance } from '@atende/contract';
import { livechatAppearanceProblems, livechatEmbedSnippet } from '@atende/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { toastSuccess } from '../../ui/toasts';
import { useRuleForm } from '../../ui/useRuleForm';
import { CustomFieldsEditor } from './CustomFieldsEditor';
import { adminImageUrl, ImageField } from './ImageField';
import { WidgetBubble, WidgetHeader, type WidgetLook } from './WidgetLook';

/**
 * "Livechat channel appearance" on the channel's settings page: theme colours, header
 * title and logo, avatar, background, audio recording, the pre-chat form's custom fields, a live
 * preview and the snippet that embeds the widget in a website. Checked by the api's own rules.
 */
export function AppearanceSection({ channel }: { channel: Channel & { appearance: LivechatAppearance } }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useRuleForm<LivechatAppearance>(() => channel.appearance, livechatAppearanceProblems);
  const { draft } = form;
  const theme = (patch: Partial<LivechatAppearance['theme_data']>) => form.set({ theme_data: { ...draft.theme_data, ...patch } });
  const widget = (patch: Partial<LivechatAppearance['widget_settings']>) =>
    form.set({ widget_settings: { ...draft.widget_settings, ...patch } });
  const save = useMutation({
    mutationFn: () => api.updateChannel({ params: { id: channel.uuid }, body: { appearance: draft } }),
    onSuccess: () => {
      toastSuccess(t('Appearance saved'));
      void queryClient.invalidateQueries({ queryKey: ['channels'] });
    },
  });
  const look: WidgetLook = {
    title: draft.widget_settings.title,
    primaryColor: draft.theme_data.primary_color,
    textColor: draft.theme_data.text_color,
    logoUrl: adminImageUrl(draft.widget_settings.logo),
    avatarUrl: adminImageUrl(draft.widget_settings.avatar),
  };
  const background = adminImageUrl(draft.widget_settings.background_image);
  const snippet = livechatEmbedSnippet(window.location.origin, channel.uuid);
  return (
    <Stack mt="lg">
      <Divider />
      <Title order={4}>{t('Appearance')}</Title>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
        <Stack>
          <TextInput
            label={t('Header title')}
            value={draft.widget_settings.title}
            onChange={(e) => widget({ title: e.currentTarget.value })}
            error={form.errorOf('widget_settings.title')}
          />
          <Group grow align="flex-start">
            <ColorInput
              label={t('Main colour')}
              format="hex"
              value={draft.theme_data.primary_color}
              onChange={(v) => theme({ primary_color: v })}
              error={form.errorOf('theme_data.primary_color')}
            />
            <ColorInput
              label={t('Text colour')}
              format="hex"
              value={draft.theme_data.text_color}
              onChange={(v) => theme({ text_color: v })}
              error={form.errorOf('theme_data.text_color')}
            />
            <ColorInput
              label={t('Background colour')}
              format="hex"
              value={draft.theme_data.background_color}
              onChange={(v) => theme({ background_color: v })}
              error={form.errorOf('theme_data.background_color')}
            />
          </Group>
          <ImageField
            label={t('Logo')}
            value={draft.widget_settings.logo}
            onChange={(logo) => widget({ logo })}
            error={form.errorOf('widget_settings.logo')}
          />
          <ImageField
            label={t('Avatar')}
            value={draft.widget_settings.avatar}
            onChange={(avatar) => widget({ avatar })}
            error={form.errorOf('widget_settings.avatar')}
          />
          <ImageField
            label={t('Background image')}
            value={draft.widget_settings.background_image}
            onChange={(background_image) => widget({ background_image })}
            error={form.errorOf('widget_settings.background_image')}
          />
          <Switch
            label={t('Allow audio recording')}
            checked={draft.widget_settings.audio_recording_allowed}
            onChange={(e) => widget({ audio_recording_allowed: e.currentTarget.checked })}
          />
        </Stack>
        <Stack gap="xs">
          <Text fw={500} size="sm">
            {t('Preview')}
          </Text>
          <Paper withBorder radius="md" style={{ overflow: 'hidden' }} maw={360} data-testid="livechat-preview">
            <WidgetHeader look={look} />
            <Stack
              gap="xs"
              p="sm"
              mih={140}
              style={{
                background: draft.theme_data.background_color,
                backgroundImage: background ? `url("${background}")` : undefined,
                backgroundSize: 'cover',
              }}
            >
              <WidgetBubble mine={false} look={look} author={t('Agent')}>
                {t('Hello! How can we help?')}
              </WidgetBubble>
              <WidgetBubble mine look={look}>
                {t('I have a question about my order.')}
              </WidgetBubble>
            </Stack>
          </Paper>
        </Stack>
      </SimpleGrid>
      <CustomFieldsEditor fields={draft.custom_fields} onChange={(custom_fields) => form.set({ custom_fields })} errorOf={form.errorOf} />
      <Group>
        <Button loading={save.isPending} onClick={() => form.submit(() => save.mutate())}>
          {t('Save appearance')}
        </Button>
      </Group>
      <Stack gap={4}>
        <Text fw={500} size="sm">
          {t('Embed code')}
        </Text>
        <Text size="sm" c="dimmed">
          {t('Paste this code before </body> in your website to show the chat.')}
        </Text>
        <Code block data-testid="livechat-snippet">
          {snippet}
        </Code>
        <Group>
          <CopyButton value={snippet}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy}>
                {copied ? t('Copied') : t('Copy')}
              </Button>
            )}
          </CopyButton>
          <Button component="a" variant="subtle" href={`/livechat/${channel.uuid}`} target="_blank" rel="noreferrer">
            {t('Open the widget')}
          </Button>
        </Group>
      </Stack>
    </Stack>
  );
}
