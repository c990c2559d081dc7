import type { Contact } from '@atende/contract';
import type { FieldError } from '@atende/contract';
import { fieldText, formMessageText } from '../../api/errors';
import {
  CONTACT_FIELDS,
  contactFormSchema,
  type countryForCallingCode,
  contactFormValues,
  type ContactFieldKey,
  type ContactFormValues,
  type ContactUpdate,
} from '@atende/core';
import { ApiError } from '@atende/sdk';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Fieldset, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { useEffect, useMemo, type ChangeEvent } from 'react';
import { useForm, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { keepFocusOnPress } from '../../ui/keepFocus';
import { toastSuccess } from '../../ui/toasts';
import type { BindField } from './bindTargets';
import { CONTACT_FIELD_LABELS } from './fieldLabels';
import { useUpdateContact } from './queries';

/** Lets selected chat text be bound into the open form instead of saved at once. */
export interface ContactEditor {
  get(field: Exclude<BindField, { type: 'conversation' }>): string | null;
  set(field: Exclude<BindField, { type: 'conversation' }>, value: string): void;
}

const REQUIRED_FIELDS: ReadonlySet<ContactFieldKey> = new Set(['name', 'organization']);
const isContactField = (path: string): path is ContactFieldKey => CONTACT_FIELDS.some((f) => f.key === path);

interface Props {
  contact: Contact;
  country: ReturnType<typeof countryForCallingCode>;
  onDone(): void;
  onEditor(editor: ContactEditor | null): void;
}

/**
 * Edit form of the customer details: phone1 read-only, the rules and messages of
 * contactFormSchema; Save shows a spinner, then the contact is replaced everywhere and the panel
 * goes back to the read view.
 */
export function ContactForm({ contact, country, onDone, onEditor }: Props) {
  const { t } = useTranslation();
  const schema = useMemo(() => contactFormSchema(country), [country]);
  const form = useForm<ContactFormValues, unknown, ContactUpdate>({
    resolver: zodResolver(schema),
    defaultValues: contactFormValues(contact),
    // 'Número de telefone inválido' once touched.
    mode: 'onTouched',
  });
  const update = useUpdateContact(contact.uuid);
  const customRows = useMemo(() => contactFormValues(contact), [contact]);

  useEffect(() => {
    const path = (field: Exclude<BindField, { type: 'conversation' }>): FieldPath<ContactFormValues> | null => {
      if (field.type === 'contact') return field.key;
      const index = form.getValues(field.group).findIndex((row) => row.key === field.name);
      return index < 0 ? null : `${field.group}.${index}.value`;
    };
    onEditor({
      get: (field) => {
        const p = path(field);
        return p ? (form.getValues(p) as string) : null;
      },
      set: (field, value) => {
        const p = path(field);
        if (p) form.setValue(p, value, { shouldDirty: true, shouldTouch: true, shouldValidate: true });
      },
    });
    return () => onEditor(null);
  }, [form, onEditor]);

  const submit = form.handleSubmit(async (body) => {
    try {
      await update.mutateAsync(body);
      toastSuccess(t('Contact successfully updated'));
      onDone();
    } catch (error) {
      // The shared handler already showed the server's message; point at the fields it names.
      if (error instanceof ApiError) {
        const fields = (error.body as { fields?: FieldError[] } | undefined)?.fields ?? [];
        for (const f of fields) if (isContactField(f.path)) form.setError(f.path, { message: fieldText(f, t) });
      }
    }
  });

  const err = (name: FieldPath<ContactFormValues>) => {
    const message = form.getFieldState(name, form.formState).error?.message;
    return message ? formMessageText(message, t) : undefined;
  };
  const email = form.register('email');
  // The e-mail is lowercased as it is typed. (An email input has no selection API:
  // setSelectionRange throws there, which once left the form without the typed value.)
  const lowercase = (e: ChangeEvent<HTMLInputElement>) => {
    const input = e.currentTarget;
    const lower = input.value.toLowerCase();
    if (lower !== input.value) input.value = lower;
    void email.onChange(e);
  };
  const saving = form.formState.isSubmitting;

  return (
    <form onSubmit={submit} noValidate aria-label={t('Edit customer details')}>
      <Fieldset variant="unstyled" disabled={saving}>
        <Stack gap="xs">
          {CONTACT_FIELDS.map(({ key, kind }) => {
            const label = t(CONTACT_FIELD_LABELS[key]);
            const common = { label, size: 'sm' as const, withAsterisk: REQUIRED_FIELDS.has(key), error: err(key) };
            if (key === 'phone1')
              return <TextInput key={key} {...common} {...form.register(key)} readOnly description={t('Phone 1 cannot be edited')} />;
            if (key === 'email') return <TextInput key={key} {...common} {...email} onChange={lowercase} type="email" autoComplete="off" />;
            if (key === 'notes') return <Textarea key={key} {...common} {...form.register(key)} autosize minRows={2} maxRows={6} />;
            return (
              <TextInput
                key={key}
                {...common}
                {...form.register(key)}
                type={kind === 'telephone' ? 'tel' : 'text'}
                inputMode={kind === 'number' ? 'numeric' : undefined}
                autoComplete="off"
              />
            );
          })}
          {(['fields', 'livechat_custom_fields'] as const).flatMap((group) =>
            customRows[group].map((row, i) => (
              <Textarea
                key={`${group}.${row.key}`}
                label={row.key}
                size="sm"
                autosize
                minRows={1}
                maxRows={6}
                {...form.register(`${group}.${i}.value`)}
                error={err(`${group}.${i}.value`)}
              />
            )),
          )}
          <Group justify="flex-end" gap="xs" mt="xs">
            <Button variant="default" size="xs" onClick={onDone} disabled={saving}>
              {t('Cancel')}
            </Button>
            <Button type="submit" size="xs" loading={saving} onMouseDown={keepFocusOnPress}>
              {t('Save')}
            </Button>
          </Group>
        </Stack>
      </Fieldset>
    </form>
  );
}
