import { AUTOMATION_TRIGGERS, type Automation } from '@atende/contract';
import { roleCovers } from '@atende/core';
import { Badge, Modal, NumberInput, Select, Stack, Switch, Table, TextInput } from '@mantine/core';
import { IconAdjustments } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { phrase } from '../../i18n/phrase';
import { useMe } from '../../session/session';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { FormActions } from '../../ui/FormActions';
import { ListHeader } from '../../ui/ListHeader';
import { RowActions } from '../../ui/RowActions';
import { ListStates } from '../../ui/states';
import { toastSuccess } from '../../ui/toasts';
import { AutomationEditor, OPERATION_LABEL } from './AutomationEditor';

const keys = { all: ['automations'] as const };
type Trigger = (typeof AUTOMATION_TRIGGERS)[number];
const TRIGGER_LABEL: Record<Trigger, string> = {
  contact_inactive: phrase('The contact has not answered the agent for'),
  waiting_too_long: phrase('The conversation has waited in the queue for'),
};

/** Settings > Automations: timed rules the worker applies every 30 seconds. */
export function AutomationsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const me = useMe().data;
  const isAdmin =
    !!me &&
    roleCovers(
      me.roles.map((r) => r.name),
      'admin',
    );
  const list = useQuery({ queryKey: keys.all, queryFn: async () => (await api.listAutomations({})).data });
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Automation | null>(null);
  const [deleting, setDeleting] = useState<Automation | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: keys.all });
  const toggle = useMutation({
    mutationFn: (a: Automation) => api.updateAutomation({ params: { id: a.uuid }, body: { enabled: !a.enabled } }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (a: Automation) => api.deleteAutomation({ params: { id: a.uuid } }),
    onSuccess: () => {
      toastSuccess(t('Automation deleted successfully'));
      setDeleting(null);
      refresh();
    },
  });
  return (
    <Stack>
      <ListHeader title={t('Automations')} newLabel={t('New automation')} onNew={isAdmin ? () => setCreating(true) : undefined} />
      <ListStates query={list} empty={t('No automations yet')}>
        {(rows) => (
          <Table striped aria-label={t('Automations')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Name')}</Table.Th>
                <Table.Th>{t('When')}</Table.Th>
                <Table.Th>{t('Operations')}</Table.Th>
                <Table.Th>{t('State')}</Table.Th>
                {isAdmin && <Table.Th>{t('Actions')}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((a) => (
                <Table.Tr key={a.uuid}>
                  <Table.Td>{a.name}</Table.Td>
                  <Table.Td>
                    {t(TRIGGER_LABEL[a.trigger])} {t('{{n}} min', { n: a.minutes })}
                  </Table.Td>
                  <Table.Td>{a.operations.map((o) => t(OPERATION_LABEL[o.type])).join(' → ') || '--'}</Table.Td>
                  <Table.Td>
                    {isAdmin ? (
                      <Switch aria-label={t('Enabled')} checked={a.enabled} onChange={() => toggle.mutate(a)} />
                    ) : (
                      <Badge variant="light" color={a.enabled ? 'green' : 'gray'}>
                        {a.enabled ? t('Enabled') : t('Disabled')}
                      </Badge>
                    )}
                  </Table.Td>
                  {isAdmin && (
                    <Table.Td>
                      <RowActions
                        name={a.name}
                        onEdit={() => setEditing(a)}
                        onDelete={() => setDeleting(a)}
                        editIcon={<IconAdjustments size={16} />}
                      />
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </ListStates>
      {creating && (
        <NewAutomationModal
          onClose={() => setCreating(false)}
          onCreated={(a) => {
            refresh();
            setCreating(false);
            setEditing(a);
          }}
        />
      )}
      {editing && (
        <AutomationEditor
          automation={editing}
          onClose={() => setEditing(null)}
          onChanged={(a) => {
            setEditing(a);
            refresh();
          }}
        />
      )}
      <ConfirmModal
        opened={deleting !== null}
        title={t('Delete automation')}
        message={t('Are you sure? This cannot be undone.')}
        confirmLabel={t('Delete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}

function NewAutomationModal({ onClose, onCreated }: { onClose(): void; onCreated(a: Automation): void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [trigger, setTrigger] = useState<Trigger>('contact_inactive');
  const [minutes, setMinutes] = useState<number | string>(30);
  const create = useMutation({
    mutationFn: () => api.createAutomation({ body: { name: name.trim(), trigger, minutes: Number(minutes) } }),
    onSuccess: (res) => {
      toastSuccess(t('Automation created successfully'));
      onCreated(res.data);
    },
  });
  const valid = name.trim() !== '' && Number.isInteger(Number(minutes)) && Number(minutes) >= 1;
  return (
    <Modal opened onClose={onClose} title={t('New automation')} closeButtonProps={{ 'aria-label': t('Close') }}>
      <Stack>
        <TextInput label={t('Name')} value={name} maxLength={120} onChange={(e) => setName(e.currentTarget.value)} data-autofocus />
        <Select
          label={t('When')}
          data={AUTOMATION_TRIGGERS.map((v) => ({ value: v, label: t(TRIGGER_LABEL[v]) }))}
          value={trigger}
          onChange={(v) => setTrigger((v as Trigger) ?? 'contact_inactive')}
          allowDeselect={false}
        />
        <NumberInput
          label={t('Minutes')}
          min={1}
          max={43200}
          value={minutes}
          onChange={setMinutes}
          error={Number(minutes) >= 1 ? undefined : t('At least 1 minute')}
        />
        <FormActions
          onCancel={onClose}
          disabled={!valid}
          loading={create.isPending}
          onSubmit={() => create.mutate()}
          submitLabel={t('Create')}
        />
      </Stack>
    </Modal>
  );
}
