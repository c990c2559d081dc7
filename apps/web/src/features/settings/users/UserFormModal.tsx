import { createUser, ROLES, type Role, type User } from '@atende/contract';
import { ROLE_LABELS } from '@atende/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Checkbox, Group, Modal, MultiSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { PasswordField } from '../../../ui/PasswordField';
import { toastSuccess } from '../../../ui/toasts';
import { useCreateUser, useEditUser, useSectorChoices, useSetUserSectors, useUserSectors } from './queries';
import { formMessageText } from '../../../api/errors';

// One validation, two sides: the contract's rules of POST /api/v1/users.
const createSchema = createUser.body;
// Editing keeps the password out (it is the user's own, changed in their profile).
const editSchema = z.object(createUser.body.shape).omit({ password: true });
type Values = z.input<typeof createSchema>;

/**
 * The roles this admin may hand out, as the api decides (users/service.ts): tenant_admin only by
 * one who holds it, owner only by an owner.
 */
export function grantableRoles(myRoles: readonly Role[]): Role[] {
  return ROLES.filter((r) => (r === 'tenant_admin' ? myRoles.includes('tenant_admin') : r === 'owner' ? myRoles.includes('owner') : true));
}

interface Props {
  /** The user being edited, or null to create one. */
  user: User | null;
  myRoles: readonly Role[];
  onClose(): void;
}

/** Create or edit a user (md modal): name, email, password on create only, roles as checkboxes. */
export function UserFormModal({ user, myRoles, onClose }: Props) {
  const { t } = useTranslation();
  const editing = user !== null;
  const form = useForm<Values>({
    resolver: zodResolver(editing ? (editSchema as unknown as typeof createSchema) : createSchema),
    defaultValues: { username: user?.username ?? '', email: user?.email ?? '', password: '', roles: user?.roles.map((r) => r.name) ?? [] },
    mode: 'onSubmit',
  });
  const create = useCreateUser();
  const edit = useEditUser(user?.uuid ?? '');
  // Sectors are saved by their own call after the user; null: not changed here.
  const sectorChoices = useSectorChoices();
  const currentSectors = useUserSectors(user?.uuid ?? null);
  const [chosenSectors, setChosenSectors] = useState<string[] | null>(null);
  const setSectors = useSetUserSectors();
  // Roles the user already holds stay visible (checked) even when this admin could not grant them.
  const offered = ROLES.filter((r) => grantableRoles(myRoles).includes(r) || user?.roles.some((h) => h.name === r));

  const submit = form.handleSubmit(async (values) => {
    const body = { username: values.username, email: values.email, roles: values.roles as Role[] };
    try {
      const saved = editing ? await edit.mutateAsync(body) : await create.mutateAsync({ ...body, password: values.password });
      if (chosenSectors !== null) await setSectors.mutateAsync({ id: saved.uuid, sectorUuids: chosenSectors });
      toastSuccess(editing ? t('User updated successfully') : t('User created successfully'));
      onClose();
    } catch {
      // The shared handler already showed the server's message (e.g. 'Email already being used').
    }
  });
  const err = (name: keyof Values) => {
    const message = form.formState.errors[name]?.message;
    return message ? formMessageText(message, t) : undefined;
  };
  const saving = form.formState.isSubmitting;

  return (
    <Modal
      opened
      onClose={onClose}
      size="md"
      title={editing ? t('Edit user') : t('New user')}
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      <form onSubmit={submit} noValidate aria-label={editing ? t('Edit user') : t('New user')}>
        <Stack>
          <TextInput
            label={t('Name')}
            withAsterisk
            {...form.register('username')}
            error={err('username')}
            data-autofocus
            autoComplete="off"
          />
          <TextInput label={t('Email')} withAsterisk type="email" {...form.register('email')} error={err('email')} autoComplete="off" />
          {!editing && (
            <PasswordField
              label={t('Password')}
              withAsterisk
              autoComplete="new-password"
              {...form.register('password')}
              error={err('password')}
            />
          )}
          <Controller
            control={form.control}
            name="roles"
            render={({ field, fieldState }) => (
              <Checkbox.Group
                label={t('Roles')}
                // The user's open sessions keep the roles they signed in with.
                description={editing ? t('Changing the roles signs the user out: the new roles apply from their next sign-in.') : undefined}
                withAsterisk
                value={field.value as string[]}
                onChange={field.onChange}
                error={fieldState.error?.message ? formMessageText(fieldState.error.message, t) : undefined}
              >
                <SimpleGrid cols={2} mt="xs" spacing="xs">
                  {offered.map((role) => (
                    <Checkbox key={role} value={role} label={t(ROLE_LABELS[role] ?? role)} />
                  ))}
                </SimpleGrid>
              </Checkbox.Group>
            )}
          />
          <MultiSelect
            label={t('Sectors')}
            description={t('An agent with no sector serves every sector.')}
            searchable
            data={(sectorChoices.data ?? []).map((s) => ({ value: s.uuid, label: s.name }))}
            value={chosenSectors ?? currentSectors.data ?? []}
            onChange={setChosenSectors}
            disabled={editing && currentSectors.data === undefined}
            nothingFoundMessage={t('No data found')}
            comboboxProps={{ withinPortal: true }}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={saving}>
              {t('Cancel')}
            </Button>
            <Button type="submit" loading={saving}>
              {t('Save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
