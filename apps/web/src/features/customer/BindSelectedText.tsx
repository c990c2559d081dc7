import { bindSelectedText, canAppend, type BindingTarget, type BindMode } from '@atende/core';
import { Button, CloseButton, Group, Paper, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useId } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formMessageText } from '../../api/errors';
import { toastSuccess } from '../../ui/toasts';

export interface BindOptionGroup {
  group: string;
  items: { value: string; label: string }[];
}

interface Props {
  text: string;
  options: BindOptionGroup[];
  /** The field behind an option, with its value now (the form's value while editing). */
  targetOf(id: string): BindingTarget | null;
  /** Stores the bound value; rejects when the save failed (the shared handler has shown why). */
  apply(id: string, value: string): Promise<void>;
  onDone(): void;
}

/**
 * Selected-text binding: the text selected in the chat, a field picker, replace or
 * append, and the rules of bindSelectedText with their messages.
 */
export function BindSelectedText({ text, options, targetOf, apply, onDone }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  const [fieldId, setFieldId] = useState<string | null>(null);
  const [mode, setMode] = useState<BindMode>('replace');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const target = fieldId ? targetOf(fieldId) : null;
  const appendable = target ? canAppend(target) : false;
  const effectiveMode: BindMode = appendable ? mode : 'replace';

  const bind = async () => {
    if (!fieldId) return setError(t('Choose a field'));
    const now = targetOf(fieldId);
    if (!now) return;
    const result = bindSelectedText(now, text, effectiveMode);
    if (!result.ok) return setError(formMessageText(result.error, t));
    setBusy(true);
    try {
      await apply(fieldId, result.value);
      toastSuccess(t('Text bound successfully!'));
      onDone();
    } catch {
      // the shared error handler showed the server's message
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper
      withBorder
      p="xs"
      radius="md"
      component="section"
      aria-labelledby={titleId}
      onKeyDown={(e) => {
        // Escape discards the text, unless it is closing the field picker's open list.
        const picker = e.target instanceof HTMLElement && e.target.getAttribute('aria-expanded') === 'true';
        if (e.key === 'Escape' && !picker) onDone();
      }}
    >
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
          <Text id={titleId} size="xs" fw={600}>
            {t('Bind selected text to a field')}
          </Text>
          <CloseButton size="sm" aria-label={t('Discard selected text')} onClick={onDone} />
        </Group>
        <Text size="sm" lineClamp={3} fs="italic" style={{ overflowWrap: 'anywhere' }} data-testid="bind-selected-text">
          “{text}”
        </Text>
        <Select
          label={t('Field')}
          placeholder={t('Select a field')}
          size="xs"
          searchable
          data={options}
          value={fieldId}
          onChange={(v) => {
            setFieldId(v);
            setError(null);
          }}
          error={error}
          nothingFoundMessage={t('No data found')}
        />
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <SegmentedControl
            size="xs"
            value={effectiveMode}
            onChange={(v) => setMode(v as BindMode)}
            aria-label={t('How to bind')}
            data={[
              { value: 'replace', label: t('Replace') },
              { value: 'append', label: t('Append'), disabled: !appendable },
            ]}
          />
          <Button size="compact-sm" onClick={() => void bind()} loading={busy}>
            {t('Bind')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
