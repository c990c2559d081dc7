import { ProfilePasswordFormSchema, type ProfilePasswordForm } from '@atende/core';
import type { User } from '@atende/contract';
import { ApiError } from '@atende/sdk';
import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { PasswordField } from '../../ui/PasswordField';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { apiHandling } from '../../api/client';
import { toastSuccess } from '../../ui/toasts';
import { formMessageText } from '../../api/errors';

// The form answers a 400 itself; other failures go to the shared handler.
const profileApi = apiHandling(400);

/** Profile modal: name and email read-only, password change with the spec's rules. */
export function ProfileModal({ me, opened, onClose }: { me: User; opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<ProfilePasswordForm>({
    resolver: zodResolver(ProfilePasswordFormSchema),
    defaultValues: { old_password: '', password: '', confirm_password: '' },
  });
  const close = () => {
    form.reset();
    setServerError(null);
    onClose();
  };
  const submit = form.handleSubmit(async (values) => {
    setServerError(null);
    if (!values.password) return close(); // nothing to change
    try {
      await profileApi.updateUser({
        params: { id: String(me.id) },
        body: { password: values.password, old_password: values.old_password },
      });
      toastSuccess(t('Password changed successfully'));
      close();
    } catch (error) {
      // A 400 answer shows 'Wrong current password'.
      if (error instanceof ApiError && error.status === 400) setServerError('Wrong current password');
    }
  });
  const err = (name: keyof ProfilePasswordForm) => {
    const message = form.formState.errors[name]?.message;
    return message ? formMessageText(message, t) : undefined;
  };
  return (
    <Modal opened={opened} onClose={close} title={t('Profile')} size="sm" closeButtonProps={{ 'aria-label': t('Close') }}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label={t('Name')} value={me.username} readOnly />
          <TextInput label={t('Email')} value={me.email} readOnly />
          {serverError && (
            <Alert color="red" role="alert">
              {t(serverError)}
            </Alert>
          )}
          <PasswordField
            label={t('Current password')}
            autoComplete="current-password"
            {...form.register('old_password')}
            error={err('old_password')}
          />
          <PasswordField label={t('New password')} autoComplete="new-password" {...form.register('password')} error={err('password')} />
          <PasswordField
            label={t('Confirm new password')}
            autoComplete="new-password"
            {...form.register('confirm_password')}
            error={err('confirm_password')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('Cancel')}
            </Button>
            <Button type="submit" loading={form.formState.isSubmitting}>
              {t('Save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
