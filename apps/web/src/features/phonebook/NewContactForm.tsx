import type { Contact } from '@atende/contract';
import type { FieldError } from '@atende/contract';
import {
  countryForCallingCode,
  newContactFormSchema,
  type NewContactForm as NewContactValues,
  type NewContactFormInput,
} from '@atende/core';
import { ApiError } from '@atende/sdk';
import { Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { apiHandling } from '../../api/client';
import { errorText, fieldText, formMessageText } from '../../api/errors';
import { keepFocusOnPress } from '../../ui/keepFocus';
import { toastError, toastSuccess } from '../../ui/toasts';
import { phonebookKeys } from './queries';

// A 400 or 409 about a field (invalid or already used phone) is shown on that field; anything else
// goes to the shared handler, or to the same toast when it carries no field.
const contactsApi = apiHandling(400, 409);
const FIELDS = ['name', 'phone1', 'organization'] as const;

/** New contact of the phonebook (POST /api/v1/contacts with name, phone1, organization). */
export function NewContactForm({
  defaultCallingCode,
  onCreated,
  onCancel,
}: {
  defaultCallingCode: string;
  onCreated(contact: Contact): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const schema = useMemo(() => newContactFormSchema(countryForCallingCode(defaultCallingCode)), [defaultCallingCode]);
  const form = useForm<NewContactFormInput, unknown, NewContactValues>({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    defaultValues: { name: '', phone1: '', organization: '' },
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      const { data } = await contactsApi.createContact({ body: values });
      void queryClient.invalidateQueries({ queryKey: phonebookKeys.all });
      toastSuccess(t('Contact successfully created'));
      onCreated(data);
    } catch (error) {
      if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 409)) return;
      const fields = fieldErrors(error.body).filter((f) => (FIELDS as readonly string[]).includes(f.path));
      if (fields.length === 0) toastError(errorText(error, t));
      for (const field of fields) form.setError(field.path as (typeof FIELDS)[number], { message: fieldText(field, t) });
    }
  });
  const err = (name: (typeof FIELDS)[number]) => {
    const message = form.formState.errors[name]?.message;
    return message ? formMessageText(message, t) : undefined;
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="phonebook-new-contact-title">
      <Stack>
        <Title order={5} id="phonebook-new-contact-title">
          {t('New contact')}
        </Title>
        <TextInput label={t('Name')} required autoComplete="off" data-autofocus {...form.register('name')} error={err('name')} />
        <TextInput
          label={t('Phone')}
          description={t('A number of the default country, or with + and the country code')}
          required
          type="tel"
          autoComplete="off"
          {...form.register('phone1')}
          error={err('phone1')}
        />
        <TextInput label={t('Organization')} required autoComplete="off" {...form.register('organization')} error={err('organization')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('Cancel')}
          </Button>
          <Button type="submit" loading={form.formState.isSubmitting} onMouseDown={keepFocusOnPress}>
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function fieldErrors(body: unknown): FieldError[] {
  if (typeof body !== 'object' || body === null || !('fields' in body) || !Array.isArray(body.fields)) return [];
  return body.fields.filter((f): f is FieldError => typeof f?.path === 'string' && typeof f?.message === 'string');
}
