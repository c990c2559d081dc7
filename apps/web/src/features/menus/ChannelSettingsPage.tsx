import { Alert, Anchor, Button, Group, Select, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { allows } from '@atende/core';
import { api } from '../../api/client';
import { useMe } from '../../session/session';
import { ErrorState, LoadingState } from '../../ui/states';
import { toastSuccess } from '../../ui/toasts';
import { CopyableValue } from '../../ui/CopyableValue';
import { AppearanceSection } from '../livechat/AppearanceSection';
import { CHANNEL_FORMS } from '../settings/channelForms';
import { menuKeys } from './MenusPage';
import { entryPointOf, useEntryPointOptions } from './useEntryPointOptions';
import { WhatsAppWebLink } from './WhatsAppWebLink';

/**
 * Settings > Workspace > channel (workspace/channels/:id): name, on/off and the entry
 * point, where sectors, menus and bots are listed together (a disabled menu cannot be chosen);
 * livechat channels add their appearance and embed code; a WhatsApp Web channel, its phone's link.
 */
export function ChannelSettingsPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const channel = useQuery({ queryKey: ['channels', id], queryFn: async () => (await api.getChannel({ params: { id } })).data });
  const options = useEntryPointOptions();
  const roles = (useMe().data?.roles ?? []).map((r) => r.name);
  const canSave = allows(roles, 'settings.channels.write');
  const [name, setName] = useState('');
  const [enabled, setEnabled] = useState(true);
  const [entry, setEntry] = useState<string | null>(null);
  // The form starts over from every new copy of the channel (loaded, or refetched after a save);
  // done while rendering, so the form never shows an older copy.
  const [formOf, setFormOf] = useState<typeof channel.data>(undefined);
  if (channel.data && channel.data !== formOf) {
    setFormOf(channel.data);
    setName(channel.data.name);
    setEnabled(channel.data.enabled);
    setEntry(channel.data.entry_point ? `${channel.data.entry_point.type}:${channel.data.entry_point.uuid}` : null);
  }
  const save = useMutation({
    mutationFn: () => api.updateChannel({ params: { id }, body: { name: name.trim(), enabled, ...entryPointOf(entry) } }),
    onSuccess: () => {
      toastSuccess(t('Channel edited successfully'));
      void queryClient.invalidateQueries({ queryKey: ['channels'] });
      void queryClient.invalidateQueries({ queryKey: menuKeys.all });
    },
  });
  const toCloud = useMutation({
    mutationFn: () => api.updateChannelToCloudApi({ params: { id }, body: {} }),
    onSuccess: () => {
      toastSuccess(t('The channel now uses the Cloud API'));
      void queryClient.invalidateQueries({ queryKey: ['channels'] });
    },
  });
  if (channel.isPending) return <LoadingState />;
  if (channel.isError) return <ErrorState onRetry={() => void channel.refetch()} />;
  // update_to_cloud_api: a 360dialog channel still on the on-premise API moves to the Cloud API.
  // Only channels with an API version to move (360dialog) have one; only livechat channels have an appearance.
  const onPremise = channel.data.api_version === 'onpremise';
  // What to do with the channel's address, as said at creation (the form of its type).
  const typeForm = CHANNEL_FORMS.find((f) => f.type === channel.data.type);
  const after = typeForm?.addressHelp ?? typeForm?.after;
  const livechat = channel.data.appearance ? { ...channel.data, appearance: channel.data.appearance } : null;
  return (
    <Stack maw={livechat ? 1100 : 560}>
      <Anchor component={Link} to="../.." relative="path" size="sm">
        ← {t('Workspace')}
      </Anchor>
      <Title order={3}>{channel.data.name}</Title>
      <TextInput
        label={t('Name')}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={name.trim() ? undefined : t('Required')}
      />
      <Select
        label={t('Entry point')}
        description={t('Where new conversations of this channel start')}
        data={options}
        value={entry}
        onChange={setEntry}
        clearable
        placeholder={t('Workspace queue')}
      />
      <Switch label={t('Enabled')} checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
      {canSave && (
        <Group>
          <Button loading={save.isPending} disabled={!name.trim()} onClick={() => save.mutate()}>
            {t('Save')}
          </Button>
        </Group>
      )}
      {channel.data.webhook_url && (
        <CopyableValue
          label={t('Address to give the provider')}
          value={channel.data.webhook_url}
          description={after ? t(after) : undefined}
        />
      )}
      {channel.data.inbound_address && (
        <CopyableValue
          label={t('Forwarding address')}
          value={channel.data.inbound_address}
          description={t("Forward the mailbox's incoming mail here. Keep it private: anyone who knows it can write to this channel.")}
        />
      )}
      {channel.data.type === 'whatsapp_web' && canSave && <WhatsAppWebLink channelId={channel.data.uuid} />}
      {onPremise && canSave && (
        <Alert color="blue" title={t('On-premise API')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('This 360dialog channel still uses the on-premise API. Moving it to the Cloud API cannot be undone.')}</Text>
            <Button size="xs" variant="light" loading={toCloud.isPending} onClick={() => toCloud.mutate()}>
              {t('Move to the Cloud API')}
            </Button>
          </Stack>
        </Alert>
      )}
      {livechat && <AppearanceSection key={livechat.uuid} channel={livechat} />}
    </Stack>
  );
}
