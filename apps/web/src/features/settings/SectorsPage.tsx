import { SectorBodySchema, SLA_MAX_SECONDS, type Sector, type SectorBody } from '@atende/contract';
import { allows } from '@atende/core';
import { NumberInput, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { api } from '../../api/client';
import { useMe } from '../../session/session';
import { toastSuccess } from '../../ui/toasts';
import { fieldError, settingsApi, showServerErrors } from './formErrors';
import { settingsKeys } from './queries';
import { SettingsFormModal } from './SettingsFormModal';
import { SettingsHeader, SettingsTable } from './SettingsTable';

type SectorInput = z.input<typeof SectorBodySchema>;
const FIELDS = ['name', 'sla_first_response_seconds', 'sla_session_seconds', 'ticket_announce', 'ticket_message'] as const;

/** An SLA as hh:mm:ss (the dashboard's time format), or a dash when unset. */
export function formatSla(seconds: number | null): string {
  if (seconds === null) return '—';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`;
}

/** Sectors: queues with SLA times. Supervisors read; admins write. */
export function SectorsPage() {
  const { t } = useTranslation();
  const canWrite = allows(
    (useMe().data?.roles ?? []).map((r) => r.name),
    'settings.sectors.write',
  );
  const sectors = useQuery({ queryKey: settingsKeys.sectors, queryFn: async () => (await api.listSectors({ query: { _limit: 0 } })).data });
  const [editing, setEditing] = useState<Sector | 'new' | null>(null);
  return (
    <Stack>
      <SettingsHeader title={t('Sectors')} addLabel={t('New sector')} onAdd={canWrite ? () => setEditing('new') : undefined} />
      <SettingsTable
        label={t('Sectors')}
        rows={sectors}
        columns={[
          { header: t('Name'), cell: (s) => s.name },
          { header: t('First response SLA'), cell: (s) => formatSla(s.sla_first_response_seconds) },
          { header: t('Session SLA'), cell: (s) => formatSla(s.sla_session_seconds) },
          { header: t('Ticket announced'), cell: (s) => (s.ticket_announce ? t('Yes') : t('No')) },
        ]}
        emptyText={t('There are no sectors.')}
        nameOf={(s) => s.name}
        onEdit={canWrite ? setEditing : undefined}
        remove={
          canWrite
            ? {
                call: (s) => api.deleteSector({ params: { id: s.uuid } }),
                invalidates: settingsKeys.sectors,
                successText: t('Sector successfully deleted'),
                confirmTitle: t('Delete sector'),
              }
            : undefined
        }
      />
      {editing && <SectorModal sector={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}

function SectorModal({ sector, onClose }: { sector: Sector | null; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<SectorInput, unknown, SectorBody>({
    resolver: zodResolver(SectorBodySchema),
    defaultValues: {
      name: sector?.name ?? '',
      sla_first_response_seconds: sector?.sla_first_response_seconds ?? null,
      sla_session_seconds: sector?.sla_session_seconds ?? null,
      ticket_announce: sector?.ticket_announce ?? false,
      ticket_message: sector?.ticket_message ?? '',
    },
  });
  const submit = form.handleSubmit(async (values) => {
    const body = { ...values, ticket_message: values.ticket_message?.trim() || null };
    try {
      if (sector) await settingsApi.updateSector({ params: { id: sector.uuid }, body });
      else await settingsApi.createSector({ body });
      toastSuccess(sector ? t('Sector successfully edited') : t('Sector successfully created'));
      void queryClient.invalidateQueries({ queryKey: settingsKeys.sectors });
      onClose();
    } catch (error) {
      showServerErrors(error, form, FIELDS, t);
    }
  });
  return (
    <SettingsFormModal
      title={sector ? t('Edit sector') : t('New sector')}
      size="md"
      submitting={form.formState.isSubmitting}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextInput label={t('Name')} required data-autofocus {...form.register('name')} error={fieldError(form, 'name', t)} />
      <SlaInput
        control={form.control}
        name="sla_first_response_seconds"
        label={t('First response SLA (seconds)')}
        error={fieldError(form, 'sla_first_response_seconds', t)}
      />
      <SlaInput
        control={form.control}
        name="sla_session_seconds"
        label={t('Session SLA (seconds)')}
        error={fieldError(form, 'sla_session_seconds', t)}
      />
      <Controller
        control={form.control}
        name="ticket_announce"
        render={({ field }) => (
          <Switch
            label={t('Announce the ticket number')}
            checked={field.value ?? false}
            onChange={(e) => field.onChange(e.currentTarget.checked)}
          />
        )}
      />
      <Textarea
        label={t('Ticket message')}
        description={t(
          "Sent to the contact when a conversation enters this sector's queue. {{number}} is the number and {{name}} the sector; without {{number}}, the number follows the message.",
          { number: '{{ticket}}', name: '{{sector}}' },
        )}
        autosize
        minRows={2}
        {...form.register('ticket_message')}
        error={fieldError(form, 'ticket_message', t)}
      />
    </SettingsFormModal>
  );
}

function SlaInput({
  control,
  name,
  label,
  error,
}: {
  control: Control<SectorInput, unknown, SectorBody>;
  name: 'sla_first_response_seconds' | 'sla_session_seconds';
  label: string;
  error?: string;
}) {
  const { t } = useTranslation();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <NumberInput
          label={label}
          description={t('Empty: no SLA')}
          min={1}
          max={SLA_MAX_SECONDS}
          allowDecimal={false}
          value={field.value ?? ''}
          onChange={(v) => field.onChange(typeof v === 'number' ? v : null)}
          onBlur={field.onBlur}
          error={error}
        />
      )}
    />
  );
}
