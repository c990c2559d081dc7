import { CannedResponseBodySchema, type CannedResponse, type CannedResponseBody } from '@atende/contract';
import { ActionIcon, FileInput, Group, MultiSelect, Select, Text, Textarea, TextInput } from '@mantine/core';
import { IconPaperclip, IconX } from '@tabler/icons-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { api } from '../../api/client';
import { toastSuccess } from '../../ui/toasts';
import { useCategories } from './CannedCategoriesPanel';
import { fieldError, settingsApi, showServerErrors } from './formErrors';
import { settingsKeys } from './queries';
import { SettingsFormModal } from './SettingsFormModal';

type CannedInput = z.input<typeof CannedResponseBodySchema>;
const FIELDS = ['keyword', 'message', 'category_uuid', 'annex_uuid', 'sector_uuids'] as const;

/**
 * Create or edit a canned response: keyword (no spaces or numbers), message, category,
 * the sectors that may use it (none: every sector) and a file, uploaded when chosen.
 */
export function CannedResponseModal({ canned, onClose }: { canned: CannedResponse | null; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const categories = useCategories();
  const sectors = useQuery({ queryKey: settingsKeys.sectors, queryFn: async () => (await api.listSectors({ query: { _limit: 0 } })).data });
  const [annexName, setAnnexName] = useState(canned?.annex?.original_filename ?? null);
  const [uploading, setUploading] = useState(false);
  const form = useForm<CannedInput, unknown, CannedResponseBody>({
    resolver: zodResolver(CannedResponseBodySchema),
    defaultValues: {
      keyword: canned?.keyword ?? '',
      message: canned?.message ?? '',
      category_uuid: canned?.category?.uuid ?? null,
      annex_uuid: canned?.annex?.uuid ?? null,
      sector_uuids: canned?.sector_uuids ?? [],
    },
  });
  const upload = async (file: File | null) => {
    if (!file) return;
    setUploading(true);
    try {
      const body = new FormData();
      body.append('file', file);
      const stored = (await api.uploadFile({ body })).data.data;
      form.setValue('annex_uuid', stored.uuid);
      form.clearErrors('annex_uuid');
      setAnnexName(stored.original_filename);
    } finally {
      setUploading(false);
    }
  };
  const submit = form.handleSubmit(async (body) => {
    try {
      if (canned) await settingsApi.updateCannedResponse({ params: { id: canned.uuid }, body });
      else await settingsApi.createCannedResponse({ body });
      toastSuccess(canned ? t('Canned response successfully edited') : t('Canned response successfully created'));
      void queryClient.invalidateQueries({ queryKey: settingsKeys.canned });
      // The composer's suggestions of this browser read the new list.
      void queryClient.invalidateQueries({ queryKey: ['canned-responses'] });
      onClose();
    } catch (error) {
      showServerErrors(error, form, FIELDS, t);
    }
  });
  return (
    <SettingsFormModal
      title={canned ? t('Edit canned response') : t('New canned response')}
      size="md"
      submitting={form.formState.isSubmitting || uploading}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextInput
        label={t('Keyword')}
        description={t('Typed after "/" in the composer; no spaces or numbers')}
        required
        data-autofocus
        {...form.register('keyword')}
        error={fieldError(form, 'keyword', t)}
      />
      <Textarea
        label={t('Message')}
        required
        autosize
        minRows={3}
        maxRows={10}
        {...form.register('message')}
        error={fieldError(form, 'message', t)}
      />
      <Controller
        control={form.control}
        name="category_uuid"
        render={({ field }) => (
          <Select
            label={t('Category')}
            clearable
            searchable
            data={(categories.data ?? []).map((c) => ({ value: c.uuid, label: c.name }))}
            value={field.value ?? null}
            onChange={(v) => field.onChange(v)}
            error={fieldError(form, 'category_uuid', t)}
            nothingFoundMessage={t('No data found')}
            comboboxProps={{ withinPortal: true }}
          />
        )}
      />
      <Controller
        control={form.control}
        name="sector_uuids"
        render={({ field }) => (
          <MultiSelect
            label={t('Sectors')}
            description={t('None chosen: every sector')}
            searchable
            data={(sectors.data ?? []).map((s) => ({ value: s.uuid, label: s.name }))}
            value={field.value ?? []}
            onChange={field.onChange}
            error={fieldError(form, 'sector_uuids', t)}
            comboboxProps={{ withinPortal: true }}
          />
        )}
      />
      {annexName ? (
        <Group gap="xs">
          <IconPaperclip size={16} />
          <Text size="sm">{annexName}</Text>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={t('Remove file')}
            onClick={() => {
              form.setValue('annex_uuid', null);
              setAnnexName(null);
            }}
          >
            <IconX size={14} />
          </ActionIcon>
        </Group>
      ) : (
        <FileInput
          label={t('File')}
          placeholder={t('Choose a file (5 MB maximum)')}
          leftSection={<IconPaperclip size={16} />}
          onChange={(file) => void upload(file)}
          disabled={uploading}
          error={fieldError(form, 'annex_uuid', t)}
        />
      )}
    </SettingsFormModal>
  );
}
