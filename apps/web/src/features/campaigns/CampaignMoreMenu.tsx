import type { Campaign } from '@atende/contract';
import { templateParameterNames } from '@atende/core';
import { ApiError } from '@atende/sdk';
import { ActionIcon, Alert, Button, Checkbox, Group, Menu, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconCopy, IconDots, IconSend } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiHandling } from '../../api/client';
import { errorText } from '../../api/errors';
import { LoadingState } from '../../ui/states';
import { toastSuccess } from '../../ui/toasts';
import { useApprovedTemplates } from './queries';

/** Calls whose refusals the modals show themselves (a session or permission problem still goes to the shared handler). */
const answered = apiHandling(400, 404, 409, 422, 429, 503);

/** A campaign row's further actions: duplicate it, send its template as a test. */
export function CampaignMoreMenu({ campaign, onDuplicated }: { campaign: Campaign; onDuplicated(): void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<'duplicate' | 'test' | null>(null);
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" aria-label={t('More actions for {{name}}', { name: campaign.name })}>
            <IconDots size={16} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconCopy size={14} />} disabled={campaign.template.deleted} onClick={() => setOpen('duplicate')}>
            {t('Duplicate')}
          </Menu.Item>
          <Menu.Item
            leftSection={<IconSend size={14} />}
            disabled={campaign.template.deleted || campaign.template.config.status !== 'APPROVED'}
            onClick={() => setOpen('test')}
          >
            {t('Send a test')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {open === 'duplicate' && (
        <DuplicateModal
          campaign={campaign}
          onClose={() => setOpen(null)}
          onDone={() => {
            setOpen(null);
            onDuplicated();
          }}
        />
      )}
      {open === 'test' && <TestSendModal campaign={campaign} onClose={() => setOpen(null)} />}
    </>
  );
}

/** The failure of a call as the modal shows it (the catalogue's words, in the UI's language). */
function useProblem() {
  const { t } = useTranslation();
  return (error: unknown): string => (error instanceof ApiError ? errorText(error, t) : t('Something went wrong'));
}

function DuplicateModal({ campaign, onClose, onDone }: { campaign: Campaign; onClose(): void; onDone(): void }) {
  const { t } = useTranslation();
  const problem = useProblem();
  const [name, setName] = useState(t('Copy of {{name}}', { name: campaign.name }).slice(0, 80));
  const [withSubscribers, setWithSubscribers] = useState(true);
  const copy = useMutation({
    mutationFn: () =>
      answered.duplicateCampaign({ params: { id: campaign.uuid }, body: { name: name.trim(), with_subscribers: withSubscribers } }),
    onSuccess: () => {
      toastSuccess(t('Campaign duplicated'));
      onDone();
    },
  });
  return (
    <Modal opened onClose={onClose} title={t('Duplicate campaign')} closeButtonProps={{ 'aria-label': t('Close') }}>
      <Stack>
        <Text size="sm">
          {t(
            'The copy keeps the channel, template, reply actions, do-not-disturb lists and entry point. It starts stopped, without a schedule.',
          )}
        </Text>
        <TextInput
          label={t('Name')}
          required
          maxLength={80}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={name.trim() ? undefined : t('Name is required')}
        />
        <Checkbox
          label={t('Copy the subscribers (as pending; numbers now on a do-not-disturb list stay out)')}
          checked={withSubscribers}
          onChange={(e) => setWithSubscribers(e.currentTarget.checked)}
        />
        {copy.isError && <Alert color="red">{problem(copy.error)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button loading={copy.isPending} disabled={!name.trim()} onClick={() => copy.mutate()}>
            {t('Duplicate')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function TestSendModal({ campaign, onClose }: { campaign: Campaign; onClose(): void }) {
  const { t } = useTranslation();
  const problem = useProblem();
  const templates = useApprovedTemplates(campaign.channel.uuid);
  const template = templates.data?.find((x) => x.uuid === campaign.template.uuid);
  const names = template ? templateParameterNames(template.config.components) : [];
  const [phone, setPhone] = useState('');
  const [values, setValues] = useState<string[]>([]);
  const send = useMutation({
    mutationFn: () =>
      answered.testSendCampaign({
        params: { id: campaign.uuid },
        body: { phone_number: phone.trim(), parameters: names.map((_, i) => values[i]?.trim() ?? '') },
      }),
    onSuccess: (res) => toastSuccess(t('Test message sent to {{phone}}', { phone: res.data.phone_number })),
  });
  const missing = names.findIndex((_, i) => !values[i]?.trim());
  return (
    <Modal opened onClose={onClose} title={t('Send a test')} closeButtonProps={{ 'aria-label': t('Close') }}>
      {templates.isPending ? (
        <LoadingState />
      ) : (
        <Stack>
          <Text size="sm">
            {t('The template {{name}} goes to this number now, as the campaign will send it. It is not added to the subscribers.', {
              name: campaign.template.name,
            })}
          </Text>
          <TextInput
            label={t('Phone number')}
            required
            value={phone}
            onChange={(e) => setPhone(e.currentTarget.value)}
            placeholder="+55 11 99999-0000"
          />
          {names.map((n, i) => (
            <TextInput
              key={n}
              label={n}
              required
              value={values[i] ?? ''}
              onChange={(e) => {
                const next = [...values];
                next[i] = e.currentTarget.value;
                setValues(next);
              }}
            />
          ))}
          {!template && <Alert color="yellow">{t('Você só poderá iniciar a campanha se o modelo estiver aprovado.')}</Alert>}
          {send.isError && <Alert color="red">{problem(send.error)}</Alert>}
          {send.isSuccess && <Alert color="green">{t('Test message sent to {{phone}}', { phone: send.data.data.phone_number })}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('Close')}
            </Button>
            <Button loading={send.isPending} disabled={!template || !phone.trim() || missing >= 0} onClick={() => send.mutate()}>
              {t('Send')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
