import { Center, Loader, Paper, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ChatView } from './ChatView';
import { PreChatForm } from './PreChatForm';
import { WidgetHeader, type WidgetLook } from './WidgetLook';
import { visitorTokenStore, widgetApi } from './widgetApi';

/**
 * The website widget, public: /livechat/:channelUuid, embedded by the channel's snippet.
 * The channel's appearance, the pre-chat form, then the conversation. Lazy-loaded, outside the login guard.
 */
export function LivechatWidgetPage() {
  const { t } = useTranslation();
  const { channelUuid = '' } = useParams();
  const config = useQuery({
    queryKey: ['livechat', channelUuid, 'config'],
    queryFn: async () => (await widgetApi.config(channelUuid)).data,
    retry: false,
    staleTime: 60_000,
  });
  const [token, setToken] = useState<string | null>(() => visitorTokenStore.get(channelUuid));
  const started = (value: string) => {
    visitorTokenStore.set(channelUuid, value);
    setToken(value);
  };
  const ended = useCallback(() => {
    visitorTokenStore.set(channelUuid, null);
    setToken(null);
  }, [channelUuid]);

  if (config.isPending)
    return (
      <Center h="100vh">
        <Loader />
      </Center>
    );
  if (config.isError)
    return (
      <Center h="100vh" p="md">
        <Text c="dimmed">{t('This chat is not available.')}</Text>
      </Center>
    );
  const c = config.data;
  const look: WidgetLook = {
    title: c.widget_settings.title,
    primaryColor: c.theme_data.primary_color,
    textColor: c.theme_data.text_color,
    logoUrl: c.widget_settings.logo_url,
    avatarUrl: c.widget_settings.avatar_url,
  };
  return (
    <Paper h="100vh" radius={0} style={{ display: 'flex', flexDirection: 'column', overflow: 'hidden' }}>
      <WidgetHeader look={look} />
      {token ? <ChatView config={c} look={look} token={token} onSessionEnded={ended} /> : <PreChatForm config={c} onStarted={started} />}
    </Paper>
  );
}
