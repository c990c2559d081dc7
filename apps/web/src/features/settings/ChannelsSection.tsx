import { channelTypeFacts, type BodyInput, type Channel, type createChannel } from '@atende/contract';
import { allows } from '@atende/core';
import { ApiError } from '@atende/sdk';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Divider,
  Group,
  Modal,
  PasswordInput,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { api, apiHandling } from '../../api/client';
import { errorText, fieldText } from '../../api/errors';
import type { FieldError } from '@atende/contract';
import { useMe } from '../../session/session';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { toastSuccess } from '../../ui/toasts';
import { phrase } from '../../i18n/phrase';
import { CopyableValue } from '../../ui/CopyableValue';
import { EntryPointSelect } from '../menus/EntryPointSelect';
import { entryPointOf } from '../menus/useEntryPointOptions';
import {
  AVAILABILITY,
  CHANNEL_FORMS,
  channelBody,
  channelFormErrors,
  channelTypeLabel,
  isRequiredField,
  switchOn,
  type ChannelField,
  type ChannelForm,
} from './channelForms';

/** Creation refusals the modal words itself, next to the fields. */
const answered = apiHandling(400, 409, 422);
type CreateChannelBody = BodyInput<typeof createChannel>;

export const channelKeys = { all: ['channels'] as const, list: ['channels', 'admin-list'] as const };

/**
 * The channels admin screen: every channel of the workspace with its type,
 * availability and entry point, switched on and off here; a new channel of any type the desk can
 * run, asking only what that type needs and showing the address to give the provider.
 */
export function ChannelsSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const roles = (useMe().data?.roles ?? []).map((r) => r.name);
  const canWrite = allows(roles, 'settings.channels.write');
  const [creating, setCreating] = useState(false);
  // Availability follows the agents' presence: refreshed while the screen is open.
  const channels = useQuery({
    queryKey: channelKeys.list,
    queryFn: async () => (await api.listChannels({ query: { _limit: 0 } })).data,
    refetchInterval: 30_000,
  });
  const toggle = useMutation({
    mutationFn: (c: Channel) => api.updateChannel({ params: { id: c.uuid }, body: { enabled: !c.enabled } }),
    onSuccess: (res) => {
      toastSuccess(t(res.data.enabled ? 'Channel enabled' : 'Channel disabled'));
      void queryClient.invalidateQueries({ queryKey: channelKeys.all });
    },
  });
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={4}>{t('Channels')}</Title>
        {canWrite && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            {t('New channel')}
          </Button>
        )}
      </Group>
      {channels.isPending ? (
        <LoadingState />
      ) : channels.isError ? (
        <ErrorState onRetry={() => void channels.refetch()} />
      ) : channels.data.length === 0 ? (
        <EmptyState text={t('No data found')} />
      ) : (
        <Table aria-label={t('Channels')} highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Name')}</Table.Th>
              <Table.Th>{t('Type')}</Table.Th>
              <Table.Th>{t('Availability')}</Table.Th>
              <Table.Th>{t('Entry point')}</Table.Th>
              <Table.Th>{t('Enabled')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {channels.data.map((c) => {
              const availability = AVAILABILITY[c.availability];
              return (
                <Table.Tr key={c.uuid}>
                  <Table.Td>
                    <Anchor component={Link} to={`channels/${c.uuid}`}>
                      {c.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{t(channelTypeLabel(c.type))}</Table.Td>
                  <Table.Td>
                    <Tooltip label={t(availability.help)}>
                      <Badge color={availability.color} variant="light">
                        {t(availability.label, { context: 'channel' })}
                      </Badge>
                    </Tooltip>
                  </Table.Td>
                  <Table.Td>{c.entry_point ? c.entry_point.name : t('Workspace queue')}</Table.Td>
                  <Table.Td>
                    <Switch
                      aria-label={t('{{name}} enabled', { name: c.name })}
                      checked={c.enabled}
                      disabled={!canWrite || (toggle.isPending && toggle.variables?.uuid === c.uuid)}
                      onChange={() => toggle.mutate(c)}
                    />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      {creating && <NewChannelModal onClose={() => setCreating(false)} />}
    </Stack>
  );
}

/** The creation form: the type first, then only that type's fields; then the address to give the provider. */
function NewChannelModal({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [type, setType] = useState<string>(CHANNEL_FORMS[0]!.type);
  const form: ChannelForm = CHANNEL_FORMS.find((f) => f.type === type) ?? CHANNEL_FORMS[0]!;
  const facts = channelTypeFacts(form.type);
  const setupPath = facts?.setupPath;
  const [name, setName] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [entry, setEntry] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => {
      const { entry_point, entry_point_type } = entryPointOf(entry);
      return answered.createChannel({
        body: { ...channelBody(form, name, values), ...(entry_point ? { entry_point, entry_point_type } : {}) } as CreateChannelBody,
      });
    },
    onSuccess: () => {
      toastSuccess(t('Channel created'));
      void queryClient.invalidateQueries({ queryKey: channelKeys.all });
    },
    onError: (error) => {
      if (!(error instanceof ApiError)) return;
      const fields = (error.body as { fields?: FieldError[] } | null)?.fields ?? [];
      setErrors(Object.fromEntries(fields.map((f) => [f.path, fieldText(f, t)])));
    },
  });
  const submit = () => {
    const problems = channelFormErrors(form, name, values);
    setErrors(problems);
    if (Object.keys(problems).length === 0) create.mutate();
  };
  const created = create.data;
  return (
    <Modal opened onClose={onClose} title={t('New channel')} size="lg" closeButtonProps={{ 'aria-label': t('Close') }}>
      {created ? (
        <Stack>
          <Text>{t('The channel {{name}} was created.', { name: created.data.name })}</Text>
          {form.after && <Text size="sm">{t(form.after)}</Text>}
          {created.data.webhook_url && <CopyableValue label={t('Address to give the provider')} value={created.data.webhook_url} />}
          {created.inbound_token && (
            <CopyableValue
              label={t(form.shownOnceLabel ?? (facts?.inbound === 'token' ? phrase('Inbound token') : phrase('Webhook secret')))}
              value={created.inbound_token}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('Close')}
            </Button>
            <Button onClick={() => void navigate(`channels/${created.data.uuid}`)}>{t('Open channel settings')}</Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Select
            label={t('Type')}
            data={CHANNEL_FORMS.map((f) => ({ value: f.type, label: t(channelTypeLabel(f.type)) }))}
            value={type}
            allowDeselect={false}
            onChange={(v) => {
              setType(v ?? CHANNEL_FORMS[0]!.type);
              setValues({});
              setErrors({});
            }}
            comboboxProps={{ withinPortal: true }}
          />
          {setupPath && (
            <Alert color="blue" title={t('Connect with Facebook')}>
              <Stack gap="xs" align="flex-start">
                <Text size="sm">
                  {t("Log in with Facebook and choose the page: no token to copy. Or fill in the page's details below.")}
                </Text>
                <Button size="xs" onClick={() => void navigate(setupPath)}>
                  {t('Connect with Facebook')}
                </Button>
              </Stack>
            </Alert>
          )}
          <TextInput
            label={t('Name')}
            required
            maxLength={120}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name ? t(errors.name) : undefined}
          />
          {form.fields.map((field, index) => (
            <Fragment key={field.key}>
              {/* A group of fields opens with its heading (e-mail's "Mailbox (IMAP)"). */}
              {field.section && field.section !== form.fields[index - 1]?.section && (
                <Divider label={t(field.section)} labelPosition="left" mt="sm" />
              )}
              <ChannelFieldInput
                form={form}
                field={field}
                values={values}
                error={errors[field.key]}
                onChange={(value) => setValues({ ...values, [field.key]: value })}
              />
            </Fragment>
          ))}
          <EntryPointSelect value={entry} onChange={setEntry} error={errors.entry_point ? t(errors.entry_point) : undefined} />
          {create.isError && !Object.keys(errors).length && (
            <Alert color="red">{create.error instanceof ApiError ? errorText(create.error, t) : t('Something went wrong')}</Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('Cancel')}
            </Button>
            <Button loading={create.isPending} onClick={submit}>
              {t('Create channel')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** One field of the creation form: a switch, a choice among options, or a text (hidden for a secret). */
function ChannelFieldInput({
  form,
  field,
  values,
  error,
  onChange,
}: {
  form: ChannelForm;
  field: ChannelField;
  values: Record<string, string>;
  error: string | undefined;
  onChange(value: string): void;
}) {
  const { t } = useTranslation();
  const description = field.description ? t(field.description) : undefined;
  if (field.switch) {
    return (
      <Switch
        label={t(field.label)}
        description={description}
        checked={switchOn(field, values)}
        onChange={(e) => onChange(e.currentTarget.checked ? 'true' : 'false')}
      />
    );
  }
  if (field.options) {
    return (
      <Select
        label={t(field.label)}
        description={description}
        data={field.options.map((o) => ({ value: o.value, label: t(o.label) }))}
        value={values[field.key] ?? ''}
        allowDeselect={false}
        onChange={(v) => onChange(v ?? '')}
        error={error ? t(error) : undefined}
        comboboxProps={{ withinPortal: true }}
      />
    );
  }
  const Input = field.secret ? PasswordInput : TextInput;
  return (
    <Input
      label={t(field.label)}
      description={description}
      placeholder={field.placeholder}
      required={isRequiredField(form, field)}
      autoComplete="off"
      value={values[field.key] ?? ''}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error ? t(error) : undefined}
    />
  );
}
