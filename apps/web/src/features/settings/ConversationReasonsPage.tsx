import { ConversationReasonBodySchema, type ConversationReasonBody } from '@atende/contract';
import { Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { toastSuccess } from '../../ui/toasts';
import { fieldError, settingsApi, showServerErrors } from './formErrors';
import { settingsKeys } from './queries';
import { SettingsFormModal } from './SettingsFormModal';
import { SettingsHeader, SettingsTable } from './SettingsTable';

interface Reason {
  uuid: string;
  name: string;
}

/** Conversation (finish) reasons, admin only. */
export function ConversationReasonsPage() {
  const { t } = useTranslation();
  const reasons = useQuery({
    queryKey: settingsKeys.reasons,
    queryFn: async () => (await api.listConversationReasons({ query: {} })).data,
  });
  const [editing, setEditing] = useState<Reason | 'new' | null>(null);
  return (
    <Stack>
      <SettingsHeader title={t('Conversation reasons')} addLabel={t('New reason')} onAdd={() => setEditing('new')} />
      <SettingsTable
        label={t('Conversation reasons')}
        rows={reasons}
        columns={[{ header: t('Name'), cell: (r) => r.name }]}
        emptyText={t('There are no conversation reasons.')}
        nameOf={(r) => r.name}
        onEdit={setEditing}
        remove={{
          call: (r) => api.deleteConversationReason({ params: { id: r.uuid } }),
          invalidates: settingsKeys.reasons,
          successText: t('Reason successfully deleted'),
          confirmTitle: t('Delete reason'),
        }}
      />
      {editing && <ReasonModal reason={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}

function ReasonModal({ reason, onClose }: { reason: Reason | null; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<ConversationReasonBody>({
    resolver: zodResolver(ConversationReasonBodySchema),
    defaultValues: { name: reason?.name ?? '' },
  });
  const submit = form.handleSubmit(async (body) => {
    try {
      if (reason) await settingsApi.updateConversationReason({ params: { id: reason.uuid }, body });
      else await settingsApi.createConversationReason({ body });
      toastSuccess(reason ? t('Reason successfully edited') : t('Reason successfully created'));
      void queryClient.invalidateQueries({ queryKey: settingsKeys.reasons });
      onClose();
    } catch (error) {
      showServerErrors(error, form, ['name'], t);
    }
  });
  return (
    <SettingsFormModal
      title={reason ? t('Edit reason') : t('New reason')}
      submitting={form.formState.isSubmitting}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextInput label={t('Name')} required data-autofocus {...form.register('name')} error={fieldError(form, 'name', t)} />
    </SettingsFormModal>
  );
}
