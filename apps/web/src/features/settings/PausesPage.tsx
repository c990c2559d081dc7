import { PauseBodySchema, type PauseBody } from '@atende/contract';
import { Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { toastSuccess } from '../../ui/toasts';
import { workstationKeys } from '../workstation/queries';
import { fieldError, settingsApi, showServerErrors } from './formErrors';
import { SettingsFormModal } from './SettingsFormModal';
import { SettingsHeader, SettingsTable } from './SettingsTable';

interface Pause {
  uuid: string;
  description: string;
}

/** Pause reasons: the list agents choose from in their pause control. */
export function PausesPage() {
  const { t } = useTranslation();
  // The same query as the agent's pause control, so a change shows there too.
  const pauses = useQuery({ queryKey: workstationKeys.pauses, queryFn: async () => (await api.listPauses()).data });
  const [editing, setEditing] = useState<Pause | 'new' | null>(null);
  return (
    <Stack>
      <SettingsHeader title={t('Pauses')} addLabel={t('New pause')} onAdd={() => setEditing('new')} />
      <SettingsTable
        label={t('Pauses')}
        rows={pauses}
        columns={[{ header: t('Description'), cell: (p) => p.description }]}
        emptyText={t('There are no pauses.')}
        nameOf={(p) => p.description}
        onEdit={setEditing}
        remove={{
          call: (p) => api.deletePause({ params: { id: p.uuid } }),
          invalidates: workstationKeys.pauses,
          successText: t('Pause successfully deleted'),
          confirmTitle: t('Delete pause'),
        }}
      />
      {editing && <PauseModal pause={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}

function PauseModal({ pause, onClose }: { pause: Pause | null; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<PauseBody>({ resolver: zodResolver(PauseBodySchema), defaultValues: { description: pause?.description ?? '' } });
  const submit = form.handleSubmit(async (body) => {
    try {
      if (pause) await settingsApi.updatePause({ params: { id: pause.uuid }, body });
      else await settingsApi.createPause({ body });
      toastSuccess(pause ? t('Pause successfully edited') : t('Pause successfully created'));
      void queryClient.invalidateQueries({ queryKey: workstationKeys.pauses });
      onClose();
    } catch (error) {
      showServerErrors(error, form, ['description'], t);
    }
  });
  return (
    <SettingsFormModal
      title={pause ? t('Edit pause') : t('New pause')}
      submitting={form.formState.isSubmitting}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextInput
        label={t('Description')}
        required
        data-autofocus
        {...form.register('description')}
        error={fieldError(form, 'description', t)}
      />
    </SettingsFormModal>
  );
}
