import type { Integrations, OAuthToken } from '@atende/contract';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  Paper,
  PasswordInput,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { toastSuccess } from '../../ui/toasts';

const keys = { tokens: ['oauth-tokens'] as const, integrations: ['integrations'] as const };
/** Lifetimes offered for a new API token (days), cut at the install's maximum. */
const LIFETIMES = [7, 30, 90, 180, 365, 730];
const TOKEN_INTEGRATIONS = [
  { key: 'droz', title: 'droz' },
  { key: 'zapier', title: 'Zapier' },
] as const;

/** Settings > System integrations (admin): API tokens for other systems, droz and Zapier tokens, the voice-phone URL. */
export function IntegrationsPage() {
  const { t } = useTranslation();
  return (
    <Stack maw={900}>
      <Title order={3}>{t('System integrations')}</Title>
      <ApiTokens />
      <Connections />
    </Stack>
  );
}

function ApiTokens() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const tokens = useQuery({ queryKey: keys.tokens, queryFn: () => api.listOAuthTokens({ query: {} }) });
  const [clientName, setClientName] = useState('');
  const [lifetime, setLifetime] = useState<string | null>(null);
  const limits = tokens.data?.lifetime;
  const lifetimes = limits
    ? [...new Set([...LIFETIMES.filter((d) => d <= limits.max_days), limits.default_days, limits.max_days])].sort((a, b) => a - b)
    : [];
  const chosenDays = lifetime ?? (limits ? String(limits.default_days) : null);
  const [shown, setShown] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<OAuthToken | null>(null);
  const create = useMutation({
    mutationFn: () =>
      api.createOAuthToken({ body: { client_name: clientName.trim(), ...(chosenDays ? { expires_in_days: Number(chosenDays) } : {}) } }),
    onSuccess: (res) => {
      setShown(res.access_token);
      setClientName('');
      void queryClient.invalidateQueries({ queryKey: keys.tokens });
    },
  });
  const revoke = useMutation({
    mutationFn: (token: OAuthToken) => api.deleteOAuthToken({ params: { id: token.uuid } }),
    onSuccess: () => {
      toastSuccess(t('Token revoked'));
      setRevoking(null);
      void queryClient.invalidateQueries({ queryKey: keys.tokens });
    },
  });
  const locale = i18n.language === 'pt' ? 'pt-BR' : 'en-US';
  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={4}>{t('API tokens')}</Title>
        <Text size="sm" c="dimmed">
          {t(
            'Another system (Zapier, droz, your CRM) calls the API with a token, acting with your current roles until it expires, is revoked or you change your password.',
          )}
        </Text>
        <Group align="flex-end">
          <TextInput label={t('Client name')} value={clientName} maxLength={80} onChange={(e) => setClientName(e.currentTarget.value)} />
          <Select
            label={t('Expires in')}
            w={160}
            allowDeselect={false}
            data={lifetimes.map((d) => ({ value: String(d), label: t('{{count}} days', { count: d }) }))}
            value={chosenDays}
            onChange={setLifetime}
          />
          <Button disabled={!clientName.trim()} loading={create.isPending} onClick={() => create.mutate()}>
            {t('Create token')}
          </Button>
        </Group>
        {tokens.isPending ? (
          <LoadingState />
        ) : tokens.isError ? (
          <ErrorState onRetry={() => void tokens.refetch()} />
        ) : tokens.data.data.length === 0 ? (
          <EmptyState text={t('No tokens yet')} />
        ) : (
          <Table aria-label={t('API tokens')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Client name')}</Table.Th>
                <Table.Th>{t('Client id')}</Table.Th>
                <Table.Th>{t('Token')}</Table.Th>
                <Table.Th>{t('Last used')}</Table.Th>
                <Table.Th>{t('Expires')}</Table.Th>
                <Table.Th>{t('Actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {tokens.data.data.map((token) => (
                <Table.Tr key={token.uuid}>
                  <Table.Td>{token.client_name}</Table.Td>
                  <Table.Td>
                    <Code>{token.client_id}</Code>
                  </Table.Td>
                  <Table.Td>
                    <Code>{token.token_prefix}…</Code>
                  </Table.Td>
                  <Table.Td>{token.last_used_at ? new Date(token.last_used_at).toLocaleString(locale) : t('Never')}</Table.Td>
                  <Table.Td>{new Date(token.expires_at).toLocaleDateString(locale)}</Table.Td>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('Revoke {{name}}', { name: token.client_name })}
                      onClick={() => setRevoking(token)}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
      <Modal
        opened={shown !== null}
        onClose={() => setShown(null)}
        title={t('Your new token')}
        size="lg"
        closeButtonProps={{ 'aria-label': t('Close') }}
      >
        <Stack>
          <Alert color="yellow">{t('Copy it now: it is not shown again.')}</Alert>
          <Code block data-testid="new-api-token">
            {shown}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={shown ?? ''}>
              {({ copied, copy }) => <Button onClick={copy}>{copied ? t('Copied') : t('Copy')}</Button>}
            </CopyButton>
          </Group>
        </Stack>
      </Modal>
      <ConfirmModal
        opened={revoking !== null}
        title={t('Revoke token')}
        message={t('Systems using this token stop working at once. Are you sure?')}
        confirmLabel={t('Revoke')}
        loading={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking)}
        onClose={() => setRevoking(null)}
      />
    </Paper>
  );
}

function Connections() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const current = useQuery({ queryKey: keys.integrations, queryFn: async () => (await api.getIntegrations({})).data });
  const [draft, setDraft] = useState<{
    droz: { enabled: boolean; token: string };
    zapier: { enabled: boolean; token: string };
    voice_phone: { enabled: boolean; url: string };
  } | null>(null);
  // The form starts over from every new copy of the settings (loaded, or answered by a save, which
  // empties the token fields); done while rendering, so the form never shows an older copy.
  const [draftOf, setDraftOf] = useState<Integrations | undefined>(undefined);
  if (current.data && current.data !== draftOf) {
    setDraftOf(current.data);
    setDraft({
      droz: { enabled: current.data.droz.enabled, token: '' },
      zapier: { enabled: current.data.zapier.enabled, token: '' },
      voice_phone: { enabled: current.data.voice_phone.enabled, url: current.data.voice_phone.url ?? '' },
    });
  }
  const save = useMutation({
    mutationFn: () =>
      api.updateIntegrations({
        body: {
          droz: { enabled: draft!.droz.enabled, ...(draft!.droz.token ? { token: draft!.droz.token } : {}) },
          zapier: { enabled: draft!.zapier.enabled, ...(draft!.zapier.token ? { token: draft!.zapier.token } : {}) },
          voice_phone: { enabled: draft!.voice_phone.enabled, url: draft!.voice_phone.url.trim() || null },
        },
      }),
    onSuccess: (res) => {
      queryClient.setQueryData<Integrations>(keys.integrations, res.data);
      toastSuccess(t('Integrations saved'));
    },
  });
  if (current.isPending || !draft) return <LoadingState />;
  if (current.isError) return <ErrorState onRetry={() => void current.refetch()} />;
  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={4}>{t('Connections')}</Title>
        {TOKEN_INTEGRATIONS.map(({ key, title }) => (
          <Group key={key} align="flex-end">
            <Switch
              w={140}
              label={title}
              checked={draft[key].enabled}
              onChange={(e) => {
                const enabled = e.currentTarget.checked;
                setDraft((d) => d && { ...d, [key]: { ...d[key], enabled } });
              }}
            />
            <PasswordInput
              style={{ flex: 1 }}
              label={t('{{name}} API token', { name: title })}
              placeholder={current.data[key].token_set ? t('Stored; type to replace it') : undefined}
              value={draft[key].token}
              onChange={(e) => {
                const token = e.currentTarget.value;
                setDraft((d) => d && { ...d, [key]: { ...d[key], token } });
              }}
            />
            {current.data[key].token_set && (
              <Badge color="green" variant="light" mb={8}>
                {t('Token stored')}
              </Badge>
            )}
          </Group>
        ))}
        <Group align="flex-end">
          <Switch
            w={140}
            label={t('Voice phone')}
            checked={draft.voice_phone.enabled}
            onChange={(e) => {
              const enabled = e.currentTarget.checked;
              setDraft((d) => d && { ...d, voice_phone: { ...d.voice_phone, enabled } });
            }}
          />
          <TextInput
            style={{ flex: 1 }}
            label={t('Voice phone URL')}
            placeholder="https://"
            value={draft.voice_phone.url}
            onChange={(e) => {
              const url = e.currentTarget.value;
              setDraft((d) => d && { ...d, voice_phone: { ...d.voice_phone, url } });
            }}
          />
        </Group>
        <Group>
          <Button loading={save.isPending} onClick={() => save.mutate()}>
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
