import { AUTOMATION_OPERATIONS, type Automation } from '@atende/contract';
import { ActionIcon, Button, Group, Modal, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { phrase } from '../../i18n/phrase';

type OperationType = (typeof AUTOMATION_OPERATIONS)[number];
export const OPERATION_LABEL: Record<OperationType, string> = {
  send_message: phrase('Send a message'),
  transfer_to_sector: phrase('Transfer to a sector'),
  return_to_queue: phrase('Return to the queue'),
  close: phrase('Close the conversation'),
};
const FIELD_LABEL = { sector: phrase('Sector'), channel: phrase('Channel') } as const;
const OPERATOR_LABEL = { equals: phrase('is'), not_equals: phrase('is not') } as const;

/** Conditions (all must hold) and operations (in order) of one automation; each change is saved at once. */
export function AutomationEditor({
  automation,
  onClose,
  onChanged,
}: {
  automation: Automation;
  onClose(): void;
  onChanged(a: Automation): void;
}) {
  const { t } = useTranslation();
  const sectors = useQuery({ queryKey: ['sectors', 'all'], queryFn: async () => (await api.listSectors({ query: { _limit: 0 } })).data });
  const channels = useQuery({
    queryKey: ['channels', 'all'],
    queryFn: async () => (await api.listChannels({ query: { _limit: 0 } })).data,
  });
  const nameOf = (field: 'sector' | 'channel', uuid: string) =>
    (field === 'sector' ? sectors.data : channels.data)?.find((x) => x.uuid === uuid)?.name ?? '…';
  const [field, setField] = useState<'sector' | 'channel'>('sector');
  const [operator, setOperator] = useState<'equals' | 'not_equals'>('equals');
  const [value, setValue] = useState<string | null>(null);
  const [opType, setOpType] = useState<OperationType | null>(null);
  const [opValue, setOpValue] = useState('');
  const done = (res: { data: Automation }) => onChanged(res.data);
  const addCondition = useMutation({
    mutationFn: () => api.addAutomationCondition({ params: { id: automation.uuid }, body: { field, operator, value: value! } }),
    onSuccess: (res) => {
      setValue(null);
      done(res);
    },
  });
  const removeCondition = useMutation({
    mutationFn: (item: string) => api.removeAutomationCondition({ params: { id: automation.uuid, item } }),
    onSuccess: done,
  });
  const addOperation = useMutation({
    mutationFn: () =>
      api.addAutomationOperation({ params: { id: automation.uuid }, body: { type: opType!, value: opValue.trim() || null } }),
    onSuccess: (res) => {
      setOpType(null);
      setOpValue('');
      done(res);
    },
  });
  const removeOperation = useMutation({
    mutationFn: (item: string) => api.removeAutomationOperation({ params: { id: automation.uuid, item } }),
    onSuccess: done,
  });
  const options = (field === 'sector' ? sectors.data : channels.data)?.map((x) => ({ value: x.uuid, label: x.name })) ?? [];
  const needsValue = opType === 'send_message' || opType === 'transfer_to_sector';
  return (
    <Modal opened onClose={onClose} title={automation.name} size="xl" closeButtonProps={{ 'aria-label': t('Close') }}>
      <Stack>
        <Title order={5}>{t('Conditions (all must hold)')}</Title>
        {automation.conditions.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('No conditions: every conversation of the workspace')}
          </Text>
        ) : (
          <Table aria-label={t('Conditions')}>
            <Table.Tbody>
              {automation.conditions.map((c) => (
                <Table.Tr key={c.uuid}>
                  <Table.Td>
                    {t(FIELD_LABEL[c.field])} {t(OPERATOR_LABEL[c.operator])} {nameOf(c.field, c.value)}
                  </Table.Td>
                  <Table.Td w={40}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('Remove condition')}
                      onClick={() => removeCondition.mutate(c.uuid)}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Group align="flex-end">
          <Select
            w={130}
            label={t('Field')}
            data={[
              { value: 'sector', label: t('Sector') },
              { value: 'channel', label: t('Channel') },
            ]}
            value={field}
            onChange={(v) => (setField((v as 'sector' | 'channel') ?? 'sector'), setValue(null))}
            allowDeselect={false}
          />
          <Select
            w={110}
            label={t('Comparison')}
            data={[
              { value: 'equals', label: t('is') },
              { value: 'not_equals', label: t('is not') },
            ]}
            value={operator}
            onChange={(v) => setOperator((v as 'equals' | 'not_equals') ?? 'equals')}
            allowDeselect={false}
          />
          <Select style={{ flex: 1 }} label={t('Value')} data={options} value={value} onChange={setValue} searchable />
          <Button variant="light" disabled={!value} loading={addCondition.isPending} onClick={() => addCondition.mutate()}>
            {t('Add condition')}
          </Button>
        </Group>

        <Title order={5} mt="md">
          {t('Operations (in order)')}
        </Title>
        {automation.operations.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('No operations yet: the automation does nothing until it has one')}
          </Text>
        ) : (
          <Table aria-label={t('Operations')}>
            <Table.Tbody>
              {automation.operations.map((o, i) => (
                <Table.Tr key={o.uuid}>
                  <Table.Td>
                    {i + 1}. {t(OPERATION_LABEL[o.type])}
                    {o.value ? `: ${o.type === 'transfer_to_sector' ? nameOf('sector', o.value) : o.value}` : ''}
                  </Table.Td>
                  <Table.Td w={40}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('Remove operation {{n}}', { n: i + 1 })}
                      onClick={() => removeOperation.mutate(o.uuid)}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Group align="flex-end">
          <Select
            w={220}
            label={t('Operation')}
            data={AUTOMATION_OPERATIONS.map((o) => ({ value: o, label: t(OPERATION_LABEL[o]) }))}
            value={opType}
            onChange={(v) => (setOpType(v as OperationType | null), setOpValue(''))}
          />
          {opType === 'send_message' && (
            <TextInput style={{ flex: 1 }} label={t('Message')} value={opValue} onChange={(e) => setOpValue(e.currentTarget.value)} />
          )}
          {opType === 'transfer_to_sector' && (
            <Select
              style={{ flex: 1 }}
              label={t('Sector')}
              data={(sectors.data ?? []).map((s) => ({ value: s.uuid, label: s.name }))}
              value={opValue || null}
              onChange={(v) => setOpValue(v ?? '')}
            />
          )}
          <Button
            variant="light"
            disabled={!opType || (needsValue && !opValue.trim())}
            loading={addOperation.isPending}
            onClick={() => addOperation.mutate()}
          >
            {t('Add operation')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
