import { DEFAULT_ACTION, REPLY_ACTIONS, type Campaign } from '@atende/contract';
import { Alert, Badge, Button, Group, Modal, MultiSelect, Radio, Select, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { LoadingState } from '../../ui/states';
import { toastSuccess } from '../../ui/toasts';
import { TemplateBubble } from '../templates/TemplateBubble';
import { ACTION_LABEL, ENTRY_GROUP } from './phrases';
import { useApprovedTemplates, useWizardLookups } from './queries';
import {
  actionErrors,
  dataErrors,
  emptyAction,
  emptyWizard,
  entrypointValue,
  payloadOf,
  quickReplies,
  templateErrors,
  wizardOf,
  type ActionState,
  type WizardState,
} from './wizard';

type Step = 'data' | 'template' | 'actions';

/**
 * The campaign wizard: create in three steps (data, template, button actions), edit
 * in two (the template is settled). Back from the actions goes to the template when creating and to
 * the data when editing; closing a changed form asks first, then drops everything.
 */
export function CampaignWizard({ campaign, onClose, onSaved }: { campaign: Campaign | null; onClose(): void; onSaved(): void }) {
  const { t } = useTranslation();
  const editing = campaign !== null;
  const lookups = useWizardLookups();
  const [s, setS] = useState<WizardState>(() => (campaign ? wizardOf(campaign) : emptyWizard()));
  // A new campaign starts with the default DND lists, once they are loaded.
  const defaultLists = (lookups.data?.lists ?? []).filter((l) => l.default);
  // Applied while rendering (not in an effect) the first time the lists are there, so the form never
  // shows without them; `initial` below is still the form as first rendered.
  const [preselected, setPreselected] = useState(editing);
  if (!preselected && lookups.data) {
    setPreselected(true);
    setS((cur) => ({ ...cur, dnd_list: defaultLists.map((l) => l.uuid) }));
  }
  const [step, setStep] = useState<Step>('data');
  // Escape, the close button or Cancel ask before a changed form is dropped.
  const [initial] = useState(s);
  const [discarding, setDiscarding] = useState(false);
  const requestClose = () => (JSON.stringify(s) === JSON.stringify(initial) ? onClose() : setDiscarding(true));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const templates = useApprovedTemplates(s.channel_uuid);
  const template = templates.data?.find((x) => x.uuid === s.template_uuid);
  const buttons = quickReplies(template);
  const err = (k: string) => (errors[k] ? t(errors[k]) : undefined);
  const set = (patch: Partial<WizardState>) => setS((cur) => ({ ...cur, ...patch }));
  const setAction = (key: string, patch: Partial<ActionState>) =>
    setS((cur) => ({ ...cur, actions: { ...cur.actions, [key]: { ...(cur.actions[key] ?? emptyAction()), ...patch } } }));

  const save = useMutation({
    mutationFn: async () => {
      const body = payloadOf(s, buttons, lookups.data?.lists ?? []);
      if (campaign)
        return api.updateCampaign({
          params: { id: campaign.uuid },
          body: { ...body, campaignUuid: campaign.uuid, ...(campaign.started_at ? { start_at: undefined } : {}) },
        });
      return api.createCampaign({
        body: { ...body, name: s.name.trim(), channel_uuid: s.channel_uuid, whatsapp_template_uuid: s.template_uuid },
      });
    },
    onSuccess: () => {
      toastSuccess(t(editing ? 'Campaign successfully edited' : 'Campaign successfully created'));
      onSaved();
    },
  });
  const go = (check: Record<string, string>, next: Step | 'save') => {
    setErrors(check);
    if (Object.keys(check).length) return;
    if (next === 'save') save.mutate();
    else setStep(next);
  };
  const stepNumber = step === 'data' ? 1 : step === 'template' ? 2 : editing ? 2 : 3;
  const lists = (lookups.data?.lists ?? []).map((l) => ({ value: l.uuid, label: l.name }));
  const sectors = (lookups.data?.sectors ?? []).map((x) => ({ value: x.uuid, label: x.name }));
  const bots = (lookups.data?.bots ?? []).map((b) => ({ value: b.uuid, label: b.name }));
  // Sectors, menus and bots, grouped as on the channel screen (a switched-off menu cannot be chosen).
  const entries = lookups.data?.entrypoints ?? [];
  const entryOptions = (['sector', 'menu', 'bot'] as const).map((type) => ({
    group: t(ENTRY_GROUP[type]),
    items: entries
      .filter((e) => e.type === type)
      .map((e) => ({ value: entrypointValue(e.type, e.uuid), label: e.name, disabled: !e.enabled })),
  }));

  return (
    <Modal
      opened
      onClose={requestClose}
      size="lg"
      title={
        <Group gap="xs">
          <Text fw={600}>{t(editing ? 'Edit campaign' : 'Add campaign')}</Text>
          <Badge variant="light">{t('Step {{n}} of {{total}}', { n: stepNumber, total: editing ? 2 : 3 })}</Badge>
        </Group>
      }
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      {discarding ? (
        <Stack gap="sm">
          <Text>{t('Discard the changes made to this campaign?')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDiscarding(false)}>
              {t('Keep editing')}
            </Button>
            <Button color="red" onClick={onClose}>
              {t('Discard')}
            </Button>
          </Group>
        </Stack>
      ) : lookups.isPending ? (
        <LoadingState />
      ) : step === 'data' ? (
        <Stack gap="sm">
          <TextInput
            label={t('Name')}
            required
            disabled={editing}
            value={s.name}
            onChange={(e) => set({ name: e.currentTarget.value })}
            error={err('name')}
          />
          <Select
            label={t('Channel')}
            required
            disabled={editing}
            data={(lookups.data?.channels ?? []).map((c) => ({ value: c.uuid, label: c.name }))}
            value={s.channel_uuid || null}
            onChange={(v) => set({ channel_uuid: v ?? '', template_uuid: '' })}
            error={err('channel_uuid')}
            comboboxProps={{ withinPortal: true }}
          />
          <Switch
            label={t('Schedule')}
            checked={s.schedule}
            disabled={Boolean(campaign?.started_at)}
            onChange={(e) => set({ schedule: e.currentTarget.checked, start_at: e.currentTarget.checked ? s.start_at : '' })}
          />
          {s.schedule && (
            <TextInput
              type="datetime-local"
              label={t('Start date')}
              value={s.start_at}
              disabled={Boolean(campaign?.started_at)}
              onChange={(e) => set({ start_at: e.currentTarget.value })}
              error={err('start_at')}
            />
          )}
          <MultiSelect
            label={t('Do not disturb lists')}
            description={
              editing
                ? undefined
                : defaultLists.length
                  ? t(
                      'Preselected: the lists marked default on the Do not disturb lists screen ({{names}}). Contacts on them are never sent this campaign.',
                      { names: defaultLists.map((l) => l.name).join(', ') },
                    )
                  : t('No list is marked default on the Do not disturb lists screen, so none is preselected.')
            }
            data={lists}
            value={s.dnd_list}
            onChange={(v) => set({ dnd_list: v })}
            error={err('dnd_list')}
            nothingFoundMessage={t('You have no Do not disturb lists')}
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label={t('Inbound entry point')}
            description={t(
              'Where a free-text reply, or a button without its own action, opens the conversation; empty: the default action runs',
            )}
            clearable
            data={entryOptions}
            value={s.inbound_entrypoint || null}
            onChange={(v) => set({ inbound_entrypoint: v ?? '' })}
            comboboxProps={{ withinPortal: true }}
          />
          <Switch label={t('Public')} checked={s.public} onChange={(e) => set({ public: e.currentTarget.checked })} />
          <Switch
            label={t('Fechar conversação após envio')}
            description={t(
              'Each message sent is kept in the contact’s history as a closed conversation; a reply opens a new conversation through the entry point.',
            )}
            checked={s.closeAfterSend}
            onChange={(e) => set({ closeAfterSend: e.currentTarget.checked })}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={requestClose}>
              {t('Cancel')}
            </Button>
            <Button onClick={() => go(dataErrors(s), editing ? 'actions' : 'template')}>{t('Next')}</Button>
          </Group>
        </Stack>
      ) : step === 'template' ? (
        <Stack gap="sm">
          {templates.isPending ? (
            <LoadingState />
          ) : !templates.data?.length ? (
            <Text c="dimmed">{t('You have no templates available.')}</Text>
          ) : (
            <Radio.Group
              label={t('Template')}
              value={s.template_uuid}
              onChange={(v) => set({ template_uuid: v })}
              error={err('template_uuid')}
            >
              <Stack gap={4} mt={4}>
                {templates.data.map((x) => (
                  <Radio key={x.uuid} value={x.uuid} label={x.name} />
                ))}
              </Stack>
            </Radio.Group>
          )}
          {template ? (
            <TemplateBubble components={template.config.components} />
          ) : (
            <Text size="sm" c="dimmed">
              {t('No template selected')}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setStep('data')}>
              {t('Back')}
            </Button>
            <Button onClick={() => go(templateErrors(s), 'actions')}>{t('Next')}</Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="md">
          {campaign?.actions_outdated && (
            <Alert color="orange" icon={<IconAlertTriangle size={16} />}>
              {t("The template's buttons changed: choose the action of each current button and save.")}
            </Alert>
          )}
          {[...buttons, DEFAULT_ACTION].map((key) => {
            const a = s.actions[key] ?? emptyAction();
            return (
              <Stack key={key} gap={6} p="sm" style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8 }}>
                <Text fw={600} size="sm">
                  {key === DEFAULT_ACTION ? t('Default action') : t('Button: {{text}}', { text: key })}
                </Text>
                <Select
                  aria-label={t('Action for {{key}}', { key: key === DEFAULT_ACTION ? t('Default action') : key })}
                  placeholder={t('Action')}
                  data={REPLY_ACTIONS.map((r) => ({
                    value: r,
                    label: t(ACTION_LABEL[r]),
                    disabled: r === 'chatbot_outbound' && bots.length === 0,
                  }))}
                  value={a.action || null}
                  onChange={(v) => setAction(key, { action: (v ?? '') as ActionState['action'], subAction: [] })}
                  error={err(`${key}.action`)}
                  comboboxProps={{ withinPortal: true }}
                />
                {(a.action === 'transfer_to_sector' || a.action === 'chatbot_outbound') && (
                  <Select
                    aria-label={a.action === 'chatbot_outbound' ? t('Bot for {{key}}', { key }) : t('Sector for {{key}}', { key })}
                    placeholder={a.action === 'chatbot_outbound' ? t('Bot') : t('Sector')}
                    data={a.action === 'chatbot_outbound' ? bots : sectors}
                    value={a.subAction[0] ?? null}
                    onChange={(v) => setAction(key, { subAction: v ? [v] : [] })}
                    error={err(`${key}.subAction`)}
                    comboboxProps={{ withinPortal: true }}
                  />
                )}
                {a.action === 'end_dnd' && (
                  <MultiSelect
                    aria-label={t('Lists for {{key}}', { key })}
                    placeholder={t('Do not disturb lists')}
                    data={lists}
                    value={a.subAction}
                    onChange={(v) => setAction(key, { subAction: v })}
                    error={err(`${key}.subAction`)}
                    nothingFoundMessage={lists.length ? t('You have selected all lists') : t('You have no Do not disturb lists')}
                    comboboxProps={{ withinPortal: true }}
                  />
                )}
                {a.action && (
                  <Textarea
                    aria-label={t('Message for {{key}}', { key })}
                    placeholder={t('Message')}
                    autosize
                    minRows={2}
                    value={a.message}
                    onChange={(e) => setAction(key, { message: e.currentTarget.value })}
                    error={err(`${key}.message`)}
                  />
                )}
              </Stack>
            );
          })}
          {errors.dnd_list && (
            <Text size="sm" c="red">
              {t('A button ends with Do not disturb: choose at least one DND list in the campaign data.')}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setStep(editing ? 'data' : 'template')}>
              {t('Back')}
            </Button>
            <Button loading={save.isPending} onClick={() => go(actionErrors(s, buttons), 'save')}>
              {t(editing ? 'Save' : 'Create campaign')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
