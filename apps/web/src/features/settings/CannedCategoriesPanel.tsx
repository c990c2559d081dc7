import { CannedCategoryBodySchema, type CannedCategory, type CannedCategoryBody } from '@atende/contract';
import { TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { api } from '../../api/client';
import { toastSuccess } from '../../ui/toasts';
import { fieldError, settingsApi, showServerErrors } from './formErrors';
import { settingsKeys } from './queries';
import { SettingsFormModal } from './SettingsFormModal';
import { SettingsTable } from './SettingsTable';

/** The workspace's canned response categories: the label (no spaces or numbers) and a description. */
export function CannedCategoriesPanel({ creating, onCreated }: { creating: boolean; onCreated(): void }) {
  const { t } = useTranslation();
  const categories = useCategories();
  const [editing, setEditing] = useState<CannedCategory | null>(null);
  return (
    <>
      <SettingsTable
        label={t('Categories')}
        rows={categories}
        columns={[
          { header: t('Label'), cell: (c) => c.name },
          { header: t('Description'), cell: (c) => c.description ?? '—' },
        ]}
        emptyText={t('There are no categories.')}
        nameOf={(c) => c.name}
        onEdit={setEditing}
        remove={{
          call: (c) => api.deleteCannedCategory({ params: { id: c.uuid } }),
          // Its responses lose the category: both lists change.
          invalidates: ['settings'],
          successText: t('Category successfully deleted'),
          confirmTitle: t('Delete category'),
        }}
      />
      {(creating || editing) && (
        <CategoryModal
          category={editing}
          onClose={() => {
            setEditing(null);
            onCreated();
          }}
        />
      )}
    </>
  );
}

export function useCategories() {
  return useQuery({ queryKey: settingsKeys.categories, queryFn: async () => (await api.listCannedCategories()).data });
}

function CategoryModal({ category, onClose }: { category: CannedCategory | null; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<z.input<typeof CannedCategoryBodySchema>, unknown, CannedCategoryBody>({
    resolver: zodResolver(CannedCategoryBodySchema),
    defaultValues: { name: category?.name ?? '', description: category?.description ?? '' },
  });
  const submit = form.handleSubmit(async (values) => {
    const body = { ...values, description: values.description?.trim() || null };
    try {
      if (category) await settingsApi.updateCannedCategory({ params: { id: category.uuid }, body });
      else await settingsApi.createCannedCategory({ body });
      toastSuccess(category ? t('Category successfully edited') : t('Category successfully created'));
      void queryClient.invalidateQueries({ queryKey: ['settings'] });
      onClose();
    } catch (error) {
      showServerErrors(error, form, ['name', 'description'], t);
    }
  });
  return (
    <SettingsFormModal
      title={category ? t('Edit category') : t('New category')}
      submitting={form.formState.isSubmitting}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextInput label={t('Label')} required data-autofocus {...form.register('name')} error={fieldError(form, 'name', t)} />
      <TextInput label={t('Description')} {...form.register('description')} error={fieldError(form, 'description', t)} />
    </SettingsFormModal>
  );
}
