import { ApiError } from '@atende/sdk';
import { Alert, Button, Group, Modal, NumberInput, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiHandling } from '../../api/client';
import { errorText } from '../../api/errors';
import { serverFieldErrors } from '../settings/formErrors';
import { queryKeys } from '../../session/session';
import { toastSuccess } from '../../ui/toasts';

/** Refusals the form shows next to its fields. */
const answered = apiHandling(400, 409);

/**
 * A new customer from the tenants screen (tenant_admin): its name, country code and
 * agent slots, and its first admin; the plan's features are switched on the tenant's page afterwards.
 */
export function NewTenantModal({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ name: '', country: '+55', slots: 10 as number | string, username: '', email: '', password: '' });
  const set = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }));
  const create = useMutation({
    mutationFn: () =>
      answered.createTenant({
        body: {
          name: form.name.trim(),
          default_country_code: form.country.trim(),
          agent: { max_slots: Number(form.slots) },
          admin: { username: form.username.trim(), email: form.email.trim(), password: form.password },
        },
      }),
    onSuccess: () => {
      toastSuccess(t('Tenant created'));
      void queryClient.invalidateQueries({ queryKey: queryKeys.tenants });
      onClose();
    },
  });
  const server = serverFieldErrors(create.error, t);
  const err = server.on;
  return (
    <Modal opened onClose={onClose} title={t('New tenant')} closeButtonProps={{ 'aria-label': t('Close') }}>
      <Stack gap="sm">
        <TextInput
          label={t('Name')}
          required
          value={form.name}
          onChange={(e) => set({ name: e.currentTarget.value })}
          error={err('name')}
        />
        <Group grow>
          <TextInput
            label={t('Default country code')}
            value={form.country}
            onChange={(e) => set({ country: e.currentTarget.value })}
            error={err('default_country_code')}
          />
          <NumberInput
            label={t('Agent slots')}
            min={1}
            max={100}
            value={form.slots}
            onChange={(v) => set({ slots: v })}
            error={err('max_slots')}
          />
        </Group>
        <Title order={6}>{t('First admin')}</Title>
        <TextInput
          label={t('Name')}
          aria-label={t('Admin name')}
          required
          value={form.username}
          onChange={(e) => set({ username: e.currentTarget.value })}
          error={err('username')}
        />
        <TextInput
          label={t('E-mail')}
          required
          value={form.email}
          onChange={(e) => set({ email: e.currentTarget.value })}
          error={err('email')}
        />
        <PasswordInput
          label={t('Password')}
          required
          value={form.password}
          onChange={(e) => set({ password: e.currentTarget.value })}
          error={err('password')}
        />
        {create.isError && !server.any && (
          <Alert color="red">{create.error instanceof ApiError ? errorText(create.error, t) : t('Something went wrong')}</Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button loading={create.isPending} onClick={() => create.mutate()}>
            {t('Create tenant')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
