import { TEMPLATE_MESSAGES } from '@atende/core';
import { Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { variablesOf, type TemplateFormState } from './form';

const REQUIRED = 'This field is required';

/** Step 2's own rule: every variable (and a media header) needs its example before submitting. */
export function missingExamples(form: TemplateFormState): Record<string, string> {
  const vars = variablesOf(form);
  const errors: Record<string, string> = {};
  if (vars.header.length && !form.examples.header_text.trim()) errors['examples.header'] = REQUIRED;
  for (const n of vars.body) if (!(form.examples.body[n - 1] ?? '').trim()) errors[`examples.body.${n}`] = REQUIRED;
  for (const u of vars.urls) if (!(form.examples.urls[u.index] ?? '').trim()) errors[`examples.url.${u.index}`] = REQUIRED;
  return errors;
}

interface Props {
  form: TemplateFormState;
  onChange(form: TemplateFormState): void;
  errors: Record<string, string>;
}

/**
 * Step 2: an example for each {{n}} of the header and body, the media header's
 * sample and the URL buttons' variable part. Going back keeps what was entered.
 */
export function TemplateExamples({ form, onChange, errors }: Props) {
  const { t } = useTranslation();
  const vars = variablesOf(form);
  // Already worded by the modal.
  const err = (path: string) => errors[path] || undefined;
  const examples = form.examples;
  const none = !vars.header.length && !vars.body.length && !vars.urls.length && !vars.mediaHeader;
  if (none) return <Text>{t(TEMPLATE_MESSAGES.noVariables)}</Text>;
  return (
    <Stack gap="sm">
      {vars.mediaHeader && (
        <TextInput
          label={t('Header media URL ({{format}})', { format: form.header.format })}
          required
          placeholder="https://"
          value={examples.header_handle}
          onChange={(e) => onChange({ ...form, examples: { ...examples, header_handle: e.currentTarget.value } })}
          error={err('header.example')}
        />
      )}
      {vars.header.map((n) => (
        <TextInput
          key={`h${n}`}
          label={t('Header variable {{n}}', { n })}
          required
          value={examples.header_text}
          onChange={(e) => onChange({ ...form, examples: { ...examples, header_text: e.currentTarget.value } })}
          error={err('examples.header')}
        />
      ))}
      {vars.body.map((n) => (
        <TextInput
          key={`b${n}`}
          label={t('Body variable {{n}}', { n })}
          required
          value={examples.body[n - 1] ?? ''}
          onChange={(e) => {
            const body = [...examples.body];
            for (let i = 0; i < n; i++) body[i] ??= '';
            body[n - 1] = e.currentTarget.value;
            onChange({ ...form, examples: { ...examples, body } });
          }}
          error={err(`examples.body.${n}`)}
        />
      ))}
      {vars.urls.map((u) => (
        <TextInput
          key={`u${u.index}`}
          label={t('Example of the link of button {{n}}', { n: u.index + 1 })}
          required
          value={examples.urls[u.index] ?? ''}
          onChange={(e) => {
            const urls = [...examples.urls];
            urls[u.index] = e.currentTarget.value;
            onChange({ ...form, examples: { ...examples, urls } });
          }}
          error={err(`examples.url.${u.index}`)}
        />
      ))}
    </Stack>
  );
}
