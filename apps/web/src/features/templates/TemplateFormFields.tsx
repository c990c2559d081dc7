import { TEMPLATE_HEADER_FORMATS, type Channel, type TemplateCategory, type TemplateHeaderFormat } from '@atende/contract';
import { FORM_TEMPLATE_LANGUAGES, TEMPLATE_LIMITS, type TemplateType } from '@atende/core';
import { Group, SegmentedControl, Select, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TemplateButtonsEditor } from './TemplateButtonsEditor';
import { emptyForm, withButtonsKind, withType, type TemplateFormState } from './form';
import { CATEGORY_LABEL } from './phrases';

interface Props {
  form: TemplateFormState;
  onChange(form: TemplateFormState): void;
  channels: Channel[];
  mode: 'create' | 'edit';
  errors: Record<string, string>;
}

/** Step 1 of the template form; editing locks channel, name and category. */
export function TemplateFormFields({ form, onChange, channels, mode, errors }: Props) {
  const { t } = useTranslation();
  const editing = mode === 'edit';
  const channel = channels.find((c) => c.uuid === form.channel_uuid);
  const webOnly = channel?.type === 'whatsapp_web';
  // Already worded by the modal.
  const err = (path: string) => errors[path] || undefined;
  const rich = form.type === 'media_interactive';
  const categories: TemplateCategory[] = editing ? [form.category] : ['MARKETING', 'UTILITY'];
  return (
    <Stack gap="sm">
      <Select
        label={t('Channel')}
        required
        placeholder={t('Select a channel')}
        data={channels.map((c) => ({ value: c.uuid, label: c.name }))}
        value={form.channel_uuid || null}
        disabled={editing}
        // Changing the channel resets the form.
        onChange={(v) => onChange(emptyForm(v ?? ''))}
        error={err('channel')}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
      />
      <TextInput
        label={t('Name')}
        required
        disabled={editing}
        maxLength={TEMPLATE_LIMITS.name}
        value={form.name}
        onChange={(e) => onChange({ ...form, name: e.currentTarget.value })}
        error={err('name')}
      />
      <Group grow>
        <Select
          label={t('Language')}
          data={[...FORM_TEMPLATE_LANGUAGES]}
          value={form.language}
          allowDeselect={false}
          onChange={(v) => onChange({ ...form, language: v ?? form.language })}
          error={err('language')}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label={t('Category')}
          data={categories.map((c) => ({ value: c, label: t(CATEGORY_LABEL[c]) }))}
          value={form.category}
          disabled={editing}
          allowDeselect={false}
          onChange={(v) => onChange({ ...form, category: (v ?? form.category) as TemplateFormState['category'] })}
          error={err('category')}
          comboboxProps={{ withinPortal: true }}
        />
      </Group>
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {t('Template type')}
        </Text>
        <SegmentedControl
          aria-label={t('Template type')}
          value={form.type}
          onChange={(v) => onChange(withType(form, v as TemplateType))}
          data={[
            { value: 'standard', label: t('Standard (text only)') },
            { value: 'media_interactive', label: t('Media and interactive'), disabled: webOnly },
          ]}
        />
        {err('type') && (
          <Text size="sm" c="red">
            {err('type')}
          </Text>
        )}
      </Stack>
      {rich && (
        <>
          <Switch
            label={t('Header')}
            checked={form.header.enabled}
            onChange={(e) => onChange({ ...form, header: { ...form.header, enabled: e.currentTarget.checked } })}
          />
          {form.header.enabled && (
            <Group grow align="flex-start">
              <Select
                label={t('Header format')}
                data={TEMPLATE_HEADER_FORMATS.map((f) => ({ value: f, label: t(f) }))}
                value={form.header.format}
                allowDeselect={false}
                onChange={(v) => onChange({ ...form, header: { ...form.header, format: (v ?? 'TEXT') as TemplateHeaderFormat } })}
                comboboxProps={{ withinPortal: true }}
              />
              {form.header.format === 'TEXT' && (
                <TextInput
                  label={t('Header text')}
                  value={form.header.text}
                  onChange={(e) => onChange({ ...form, header: { ...form.header, text: e.currentTarget.value } })}
                  error={err('header.text')}
                  description={`${form.header.text.length}/${TEMPLATE_LIMITS.header}`}
                />
              )}
            </Group>
          )}
        </>
      )}
      <Textarea
        label={t('Body')}
        required
        autosize
        minRows={3}
        maxRows={10}
        value={form.body}
        onChange={(e) => onChange({ ...form, body: e.currentTarget.value })}
        error={err('body.text')}
        description={`${t('Variables: {{example}}', { example: '{{1}}, {{2}}, ...' })} · ${form.body.length}/${TEMPLATE_LIMITS.body}`}
      />
      {rich && (
        <>
          <Switch
            label={t('Footer')}
            checked={form.footer.enabled}
            onChange={(e) => onChange({ ...form, footer: { ...form.footer, enabled: e.currentTarget.checked } })}
          />
          {form.footer.enabled && (
            <TextInput
              label={t('Footer text')}
              value={form.footer.text}
              onChange={(e) => onChange({ ...form, footer: { ...form.footer, text: e.currentTarget.value } })}
              error={err('footer.text')}
              description={`${form.footer.text.length}/${TEMPLATE_LIMITS.footer}`}
            />
          )}
          <Switch
            label={t('Buttons')}
            checked={form.buttons.enabled}
            onChange={(e) => onChange({ ...form, buttons: { ...form.buttons, enabled: e.currentTarget.checked } })}
          />
          {form.buttons.enabled && (
            <TemplateButtonsEditor
              kind={form.buttons.kind}
              items={form.buttons.items}
              onKind={(kind) => onChange(withButtonsKind(form, kind))}
              onItems={(items) => onChange({ ...form, buttons: { ...form.buttons, items } })}
              errors={errors}
            />
          )}
        </>
      )}
      {err('components') && (
        <Text size="sm" c="red">
          {err('components')}
        </Text>
      )}
    </Stack>
  );
}
