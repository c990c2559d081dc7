import { CAMPAIGN_STATES, FINAL_CAMPAIGN_STATES, type Campaign } from '@atende/contract';
import { ActionIcon, Anchor, Button, Checkbox, Group, Select, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useDebouncedValue, useLocalStorage } from '@mantine/hooks';
import { IconAlertTriangle, IconEdit, IconPlus, IconTrash, IconUsers } from '@tabler/icons-react';
import { ActionsOutdatedBadge } from './ActionsOutdatedBadge';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { useMe } from '../../session/session';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { PagedFooter } from '../../ui/PagedFooter';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { toastSuccess } from '../../ui/toasts';
import { CampaignMoreMenu } from './CampaignMoreMenu';
import { CampaignProgress } from './CampaignProgress';
import { CampaignWizard } from './CampaignWizard';
import { STATE_LABEL } from './phrases';
import { campaignKeys, useCampaigns, useLiveCampaigns } from './queries';

/** The start/stop control of a state and desired state, and why Start may be disabled. */
export function campaignControl(c: Campaign): { label: string; desired: 'running' | 'stopped' | null; reason: string | null } {
  if (c.state === 'running' && c.desired_state === 'running') return { label: 'Stop', desired: 'stopped', reason: null };
  if (c.desired_state === 'stopped' && c.state === 'running') return { label: 'Stopping', desired: null, reason: null };
  if (c.desired_state !== c.state) return { label: 'Starting', desired: null, reason: null };
  // A finished campaign starts again only as a run for newly added subscribers.
  const finished = (FINAL_CAMPAIGN_STATES as readonly string[]).includes(c.state);
  const reason = c.template.deleted
    ? 'Você não pode iniciar uma campanha que usa um modelo que foi deletado.'
    : c.template.config.status !== 'APPROVED'
      ? 'Você só poderá iniciar a campanha se o modelo estiver aprovado.'
      : c.valid_subscriber_count === 0
        ? 'There are no valid subscribers for this campaign'
        : c.actions_outdated
          ? "The template's buttons changed: save the campaign's button actions again before starting it"
          : finished && c.progress.remaining === 0
            ? 'Every subscriber of this campaign has been sent to: add new subscribers to send again'
            : null;
  return { label: 'Start', desired: 'running', reason };
}

/** The campaign list: filters, paged table, live state, wizard, subscribers, start/stop, delete. */
export function CampaignsPage() {
  const { t, i18n } = useTranslation();
  const me = useMe().data;
  const queryClient = useQueryClient();
  useLiveCampaigns();
  const [onlyMine, setOnlyMine] = useLocalStorage({ key: `atende:campaigns:only-mine:${me?.uuid ?? ''}`, defaultValue: true });
  const [state, setState] = useState<Campaign['state'] | null>(null);
  const [name, setName] = useState('');
  const [debounced] = useDebouncedValue(name.trim(), 400);
  const [limit, setLimit] = useState(10);
  const [page, setPage] = useState(1);
  const campaigns = useCampaigns({
    only_my_campaigns: onlyMine,
    state: state ?? undefined,
    name: debounced,
    limit,
    offset: (page - 1) * limit,
  });
  const [wizard, setWizard] = useState<{ campaign: Campaign | null } | null>(null);
  const [deleting, setDeleting] = useState<Campaign | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: campaignKeys.all });
  const control = useMutation({
    mutationFn: (v: { id: string; desired: 'running' | 'stopped' }) =>
      api.setCampaignDesiredState({ params: { id: v.id }, body: { desired_state: v.desired } }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.deleteCampaign({ params: { id } }),
    onSuccess: () => {
      toastSuccess(t('Campaign deleted successfully'));
      setDeleting(null);
      refresh();
    },
  });
  const date = (iso: string | null) =>
    iso ? new Date(iso).toLocaleString(i18n.language === 'pt' ? 'pt-BR' : 'en-US', { dateStyle: 'short', timeStyle: 'short' }) : '--';
  const total = campaigns.data?.pagination.total ?? 0;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>{t('Campaigns')}</Title>
        <Group>
          <Anchor component={Link} to="whatsapp-templates">
            {t('Manage templates')}
          </Anchor>
          <Anchor component={Link} to="dnd-list">
            {t('Do not disturb lists')}
          </Anchor>
          <Anchor component={Link} to="report">
            {t('Campaign report')}
          </Anchor>
          <Button leftSection={<IconPlus size={16} />} onClick={() => setWizard({ campaign: null })}>
            {t('Add campaign')}
          </Button>
        </Group>
      </Group>
      <Group align="flex-end">
        <Select
          label={t('State')}
          placeholder={t('All')}
          clearable
          data={CAMPAIGN_STATES.map((s) => ({ value: s, label: t(STATE_LABEL[s]) }))}
          value={state}
          onChange={(v) => {
            setState(v as Campaign['state'] | null);
            setPage(1);
          }}
          comboboxProps={{ withinPortal: true }}
        />
        <TextInput
          label={t('Name')}
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            setPage(1);
          }}
        />
        <Checkbox
          mb={8}
          label={t('Show only my campaigns')}
          checked={onlyMine}
          onChange={(e) => {
            setOnlyMine(e.currentTarget.checked);
            setPage(1);
          }}
        />
      </Group>
      {campaigns.isPending ? (
        <LoadingState />
      ) : campaigns.isError ? (
        <ErrorState onRetry={() => void campaigns.refetch()} />
      ) : campaigns.data.data.length === 0 ? (
        <EmptyState text={t('There are no campaigns.')} />
      ) : (
        <Table striped aria-label={t('Campaigns')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Name')}</Table.Th>
              <Table.Th>{t('Channel')}</Table.Th>
              <Table.Th>{t('Template')}</Table.Th>
              <Table.Th>{t('Send date')}</Table.Th>
              <Table.Th>{t('Progress')}</Table.Th>
              <Table.Th>{t('Actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {campaigns.data.data.map((c) => {
              const ctl = campaignControl(c);
              const importing = c.import_status === 'pending' || c.import_status === 'in_progress';
              const running = c.state === 'running' || c.desired_state === 'running';
              return (
                <Table.Tr key={c.uuid}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Text size="sm" fw={500}>
                        {c.name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        ({t('{{count}} valid subscribers', { count: c.valid_subscriber_count })})
                      </Text>
                      <ActionsOutdatedBadge campaign={c} />
                      {c.state === 'failed' && c.scheduled_start_errors.length > 0 && (
                        <Tooltip label={c.scheduled_start_errors.map((e) => t(e)).join(' · ')} multiline w={280}>
                          <IconAlertTriangle size={16} color="var(--mantine-color-orange-6)" aria-label={t('Start failed')} />
                        </Tooltip>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>{c.channel.name}</Table.Td>
                  <Table.Td>{c.template.name}</Table.Td>
                  <Table.Td>{date(c.started_at ?? c.start_at)}</Table.Td>
                  <Table.Td>
                    <CampaignProgress campaign={c} compact />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Tooltip
                        label={
                          c.template.deleted ? t('Você não pode editar uma campanha que usa um template que foi deletado.') : t('Edit')
                        }
                      >
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('Edit {{name}}', { name: c.name })}
                          disabled={c.template.deleted}
                          onClick={() => setWizard({ campaign: c })}
                        >
                          <IconEdit size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Button
                        size="compact-sm"
                        variant="light"
                        leftSection={<IconUsers size={14} />}
                        component={Link}
                        to={`${c.uuid}/subscribers`}
                        disabled={importing}
                        aria-label={t('Subscribers of {{name}}', { name: c.name })}
                      >
                        {importing ? t('Importing subscribers') : t('Subscribers')}
                      </Button>
                      <Tooltip label={ctl.reason ? t(ctl.reason) : ''} disabled={!ctl.reason}>
                        <Button
                          size="compact-sm"
                          color={ctl.desired === 'stopped' ? 'red' : 'green'}
                          disabled={!ctl.desired || Boolean(ctl.reason)}
                          loading={control.isPending && control.variables?.id === c.uuid}
                          aria-label={`${t(ctl.label, { context: 'campaign' })} ${c.name}`}
                          onClick={() => ctl.desired && control.mutate({ id: c.uuid, desired: ctl.desired })}
                        >
                          {t(ctl.label, { context: 'campaign' })}
                        </Button>
                      </Tooltip>
                      <CampaignMoreMenu campaign={c} onDuplicated={refresh} />
                      <Tooltip label={running ? t('Você não pode deletar uma campanha que está rodando.') : t('Delete')}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          disabled={running}
                          aria-label={t('Delete {{name}}', { name: c.name })}
                          onClick={() => setDeleting(c)}
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      {campaigns.data && total > 0 && <PagedFooter total={total} limit={limit} page={page} onLimit={setLimit} onPage={setPage} />}
      {wizard && (
        <CampaignWizard
          campaign={wizard.campaign}
          onClose={() => setWizard(null)}
          onSaved={() => {
            setWizard(null);
            refresh();
          }}
        />
      )}
      <ConfirmModal
        opened={deleting !== null}
        title={t('Delete campaign')}
        message={t('Deleted campaigns will no longer appear on the system.')}
        confirmLabel={t('Delete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.uuid)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
