import { Button, Stack, TextInput } from '@mantine/core';
import type { FieldError, LivechatPublicConfig } from '@atende/contract';
import { livechatFieldIssue, livechatValidatorPlan } from '@atende/core';
import { ApiError } from '@atende/sdk';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, fieldText } from '../../api/errors';
import { widgetApi } from './widgetApi';

type Errors = Record<string, string>;

/** The pre-chat form: name, email and the channel's custom fields, checked by the rules the api applies. */
export function PreChatForm({ config, onStarted }: { config: LivechatPublicConfig; onStarted: (token: string) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const color = config.theme_data.primary_color;

  const check = (): Errors => {
    const found: Errors = {};
    if (!name.trim()) found.name = t('Your name is required');
    if (email.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) found.email = t('Invalid email');
    // The api's plan: the same validators run here as there.
    const plan = livechatValidatorPlan(config.custom_fields);
    for (const [index, field] of config.custom_fields.entries()) {
      // Worded by its code, as the api's answer would be (the field's own validator message as written).
      const issue = livechatFieldIssue(field, values[field.key], plan[index]);
      if (issue) found[`custom_fields.${field.key}`] = fieldText(issue, t);
    }
    return found;
  };
  const submit = async () => {
    const found = check();
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const res = await widgetApi.start(config.channel_uuid, {
        name: name.trim(),
        ...(email.trim() ? { email: email.trim() } : {}),
        custom_fields: values,
      });
      onStarted(res.data.visitor_token);
    } catch (error) {
      const fields = error instanceof ApiError ? (error.body as { fields?: FieldError[] } | undefined)?.fields : undefined;
      setErrors(
        fields?.length
          ? Object.fromEntries(fields.map((f) => [f.path, fieldText(f, t)]))
          : { form: error instanceof ApiError ? errorText(error, t) : t('Something went wrong') },
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack p="md" gap="sm" component="form" onSubmit={(e) => (e.preventDefault(), void submit())} aria-label={t('Start a chat')}>
      <TextInput
        label={t('Name')}
        required
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={errors.name}
        maxLength={120}
      />
      <TextInput
        label={t('Email')}
        type="email"
        value={email}
        onChange={(e) => setEmail(e.currentTarget.value)}
        error={errors.email}
        maxLength={254}
      />
      {config.custom_fields.map((field) => (
        <TextInput
          key={field.key}
          label={field.label}
          required={field.required}
          maxLength={field.max_length}
          value={values[field.key] ?? ''}
          onChange={(e) => {
            const value = e.currentTarget.value;
            setValues((v) => ({ ...v, [field.key]: value }));
          }}
          error={errors[`custom_fields.${field.key}`]}
        />
      ))}
      {errors.form && <div role="alert">{errors.form}</div>}
      <Button type="submit" loading={busy} color={color} style={{ color: config.theme_data.text_color }}>
        {t('Start chat')}
      </Button>
    </Stack>
  );
}
