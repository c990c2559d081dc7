import { NewPasswordSchema, type User } from '@atende/contract';
import { ApiError } from '@atende/sdk';
import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordField } from '../../../ui/PasswordField';
import { toastSuccess } from '../../../ui/toasts';
import { errorText, fieldText, formMessageText } from '../../../api/errors';
import { fieldsOf, settingsApi } from '../formErrors';

/**
 * An admin gives a user a new password. The user's sessions end at once, so the
 * modal says so before saving; the password rules are the contract's, checked here and by the api.
 */
export function SetPasswordModal({ user, onClose }: { user: User; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => settingsApi.resetUserPassword({ params: { id: user.uuid }, body: { password } }),
    onSuccess: () => {
      toastSuccess(t('Password changed successfully'));
      void queryClient.invalidateQueries({ queryKey: ['users'] });
      onClose();
    },
    onError: (error) => {
      const fields = error instanceof ApiError ? fieldsOf(error.body) : [];
      setProblem(fields[0] ? fieldText(fields[0], t) : error instanceof ApiError ? errorText(error, t) : 'Something went wrong');
    },
  });
  const submit = () => {
    const checked = NewPasswordSchema.safeParse(password);
    if (!checked.success) return setProblem(checked.error.issues[0]?.message ?? 'Invalid password');
    setProblem(null);
    save.mutate();
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('Set a new password for {{name}}', { name: user.username })}
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      <Stack>
        <Alert color="yellow">{t('Their sessions end at once: they sign in again with the new password.')}</Alert>
        <PasswordField
          label={t('New password')}
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={problem ? formMessageText(problem, t) : undefined}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button loading={save.isPending} onClick={submit}>
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
