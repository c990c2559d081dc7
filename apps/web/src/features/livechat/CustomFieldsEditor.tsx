import { ActionIcon, Button, Checkbox, Group, NumberInput, Paper, Stack, Text, TextInput } from '@mantine/core';
import type { LivechatCustomField } from '@atende/contract';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

const emptyField = (index: number): LivechatCustomField => ({
  key: `field_${index + 1}`,
  label: '',
  required: false,
  max_length: 100,
  validator: null,
  validator_message: null,
});

/** The pre-chat form's custom fields (label, max length, validator regex), added and removed as rows. */
export function CustomFieldsEditor({
  fields,
  onChange,
  errorOf,
}: {
  fields: LivechatCustomField[];
  onChange: (fields: LivechatCustomField[]) => void;
  errorOf: (path: string) => string | undefined;
}) {
  const { t } = useTranslation();
  const set = (index: number, patch: Partial<LivechatCustomField>) =>
    onChange(fields.map((f, i) => (i === index ? { ...f, ...patch } : f)));
  return (
    <Stack gap="xs">
      <Text fw={500} size="sm">
        {t('Custom fields')}
      </Text>
      {fields.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('The pre-chat form asks only for the name and email.')}
        </Text>
      )}
      {fields.map((field, index) => (
        <Paper key={index} withBorder p="xs" aria-label={t('Custom field {{n}}', { n: index + 1 })} role="group">
          <Group align="flex-start" grow>
            <TextInput
              label={t('Key')}
              value={field.key}
              onChange={(e) => set(index, { key: e.currentTarget.value })}
              error={errorOf(`custom_fields.${index}.key`)}
            />
            <TextInput
              label={t('Label')}
              value={field.label}
              onChange={(e) => set(index, { label: e.currentTarget.value })}
              error={errorOf(`custom_fields.${index}.label`)}
            />
            <NumberInput
              label={t('Maximum length')}
              value={field.max_length}
              min={1}
              max={2000}
              allowDecimal={false}
              onChange={(v) => set(index, { max_length: typeof v === 'number' ? v : Number(v) || 0 })}
              error={errorOf(`custom_fields.${index}.max_length`)}
            />
          </Group>
          <Group align="flex-end" mt="xs" wrap="nowrap">
            <TextInput
              style={{ flex: 1 }}
              label={t('Validator (regular expression)')}
              value={field.validator ?? ''}
              onChange={(e) => set(index, { validator: e.currentTarget.value || null })}
              error={errorOf(`custom_fields.${index}.validator`)}
            />
            <TextInput
              style={{ flex: 1 }}
              label={t('Message when invalid')}
              value={field.validator_message ?? ''}
              onChange={(e) => set(index, { validator_message: e.currentTarget.value || null })}
              error={errorOf(`custom_fields.${index}.validator_message`)}
            />
            <Checkbox
              mb={8}
              label={t('Required')}
              checked={field.required}
              onChange={(e) => set(index, { required: e.currentTarget.checked })}
            />
            <ActionIcon
              mb={4}
              variant="subtle"
              color="red"
              aria-label={t('Remove field')}
              onClick={() => onChange(fields.filter((_, i) => i !== index))}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        </Paper>
      ))}
      <Group>
        <Button variant="default" size="xs" onClick={() => onChange([...fields, emptyField(fields.length)])} disabled={fields.length >= 20}>
          {t('Add field')}
        </Button>
      </Group>
    </Stack>
  );
}
