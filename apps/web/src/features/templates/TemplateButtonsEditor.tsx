import type { TemplateButtonType } from '@atende/contract';
import { TEMPLATE_LIMITS } from '@atende/core';
import { ActionIcon, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { emptyButton, type ButtonsKind, type FormButton } from './form';

interface Props {
  kind: ButtonsKind;
  items: FormButton[];
  onKind(kind: ButtonsKind): void;
  onItems(items: FormButton[]): void;
  errors: Record<string, string>;
}

/**
 * Template buttons: quick replies (up to 3) or call to action (up to 2: one URL, one phone
 * number). Changing the type clears the buttons (the caller's onKind does).
 */
export function TemplateButtonsEditor({ kind, items, onKind, onItems, errors }: Props) {
  const { t } = useTranslation();
  const quick = kind === 'QUICK_REPLY';
  const max = quick ? TEMPLATE_LIMITS.quickReplies : TEMPLATE_LIMITS.callToActions;
  const used = new Set(items.map((b) => b.type));
  const nextType: TemplateButtonType = quick ? 'QUICK_REPLY' : used.has('URL') ? 'PHONE_NUMBER' : 'URL';
  const set = (i: number, patch: Partial<FormButton>) => onItems(items.map((b, j) => (j === i ? { ...b, ...patch } : b)));
  // Already worded by the modal.
  const err = (path: string) => errors[path] || undefined;
  return (
    <Stack gap="xs">
      <Select
        label={t('Buttons type')}
        data={[
          { value: 'QUICK_REPLY', label: t('Quick reply') },
          { value: 'CALL_TO_ACTION', label: t('Call to action') },
        ]}
        value={kind}
        allowDeselect={false}
        onChange={(v) => onKind((v ?? 'QUICK_REPLY') as ButtonsKind)}
        comboboxProps={{ withinPortal: true }}
      />
      {items.map((b, i) => (
        <Group key={i} align="flex-start" wrap="nowrap" gap="xs">
          {!quick && (
            <Select
              w={150}
              aria-label={t('Button {{n}} type', { n: i + 1 })}
              data={[
                { value: 'URL', label: t('Link'), disabled: b.type !== 'URL' && used.has('URL') },
                { value: 'PHONE_NUMBER', label: t('Phone number'), disabled: b.type !== 'PHONE_NUMBER' && used.has('PHONE_NUMBER') },
              ]}
              value={b.type}
              allowDeselect={false}
              onChange={(v) => set(i, { type: (v ?? 'URL') as TemplateButtonType })}
              comboboxProps={{ withinPortal: true }}
            />
          )}
          <TextInput
            flex={1}
            label={t('Button {{n}} text', { n: i + 1 })}
            value={b.text}
            onChange={(e) => set(i, { text: e.currentTarget.value })}
            error={err(`buttons.${i}.text`)}
          />
          {b.type === 'URL' && (
            <TextInput
              flex={1}
              label={t('URL')}
              value={b.url}
              onChange={(e) => set(i, { url: e.currentTarget.value })}
              error={err(`buttons.${i}.url`)}
            />
          )}
          {b.type === 'PHONE_NUMBER' && (
            <TextInput
              flex={1}
              label={t('Phone number')}
              value={b.phone_number}
              onChange={(e) => set(i, { phone_number: e.currentTarget.value })}
              error={err(`buttons.${i}.phone_number`)}
            />
          )}
          <ActionIcon
            mt={26}
            variant="subtle"
            color="red"
            aria-label={t('Remove button {{n}}', { n: i + 1 })}
            onClick={() => onItems(items.filter((_, j) => j !== i))}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconPlus size={14} />}
          disabled={items.length >= max}
          onClick={() => onItems([...items, emptyButton(nextType)])}
        >
          {t('Add button')}
        </Button>
        {errors.buttons && (
          <Text size="sm" c="red">
            {errors.buttons}
          </Text>
        )}
      </Group>
    </Stack>
  );
}
