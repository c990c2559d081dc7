import { TEMPLATE_CATEGORIES, type Template, type TemplateCategory } from '@atende/contract';
import { AUTHENTICATION_EDIT_MESSAGE, renderTemplateText, TEMPLATE_MESSAGES } from '@atende/core';
import { ActionIcon, Button, Group, Modal, Select, Stack, Table, Text, TextInput, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconEdit, IconEye, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formMessageText } from '../../api/errors';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { campaignsUsingTemplate, templateApi } from './templateInUse';
import { PagedFooter } from '../../ui/PagedFooter';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { toastError, toastSuccess } from '../../ui/toasts';
import { TemplateBubble } from './TemplateBubble';
import { TemplateFormModal } from './TemplateFormModal';
import { CATEGORY_LABEL } from './phrases';
import { rejectionReasonText, TemplateStatus } from './TemplateStatus';
import { templateKeys, useLiveTemplates, useTemplateChannels, useTemplates } from './queries';

const SEARCH_DEBOUNCE_MS = 400;

/** The body with its examples filled in, for the table's Preview column. */
function bodyPreview(template: Template): string {
  const body = template.config.components.find((c) => c.type === 'BODY');
  return body?.type === 'BODY' ? renderTemplateText(body.text, body.example?.body_text?.[0] ?? []) : '';
}
type Editing = { mode: 'create' } | { mode: 'edit'; template: Template } | null;

/** The WhatsApp template manager: filters, paged table, live status, preview, create/edit, delete. */
export function TemplatesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  useLiveTemplates();
  const [channel, setChannel] = useState<string | null>(null);
  const [category, setCategory] = useState<TemplateCategory | null>(null);
  const [name, setName] = useState('');
  const [debouncedName] = useDebouncedValue(name.trim(), SEARCH_DEBOUNCE_MS);
  const [limit, setLimit] = useState(10);
  const [page, setPage] = useState(1);
  // Other filters start on the first page (reset while rendering, so the old page is never asked).
  const filtersKey = JSON.stringify([channel, category, debouncedName]);
  const [pagedFor, setPagedFor] = useState(filtersKey);
  if (pagedFor !== filtersKey) {
    setPagedFor(filtersKey);
    setPage(1);
  }
  const channels = useTemplateChannels();
  const templates = useTemplates({
    channel_uuid: channel ?? undefined,
    category: category ?? undefined,
    name__contains: debouncedName,
    limit,
    offset: (page - 1) * limit,
  });
  const [previewing, setPreviewing] = useState<Template | null>(null);
  const [deleting, setDeleting] = useState<Template | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  // Campaigns using the template being deleted, named by the server: a second, explicit confirmation.
  const [inUse, setInUse] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: ({ template, confirm }: { template: Template; confirm: boolean }) =>
      templateApi.deleteTemplate({ params: { id: template.uuid }, query: confirm ? { confirm: true } : {} }),
    onSuccess: () => {
      toastSuccess(t(TEMPLATE_MESSAGES.deleted));
      setDeleting(null);
      setInUse(null);
      void queryClient.invalidateQueries({ queryKey: templateKeys.all });
    },
    onError: (error) => setInUse(campaignsUsingTemplate(error)),
  });
  const edit = (template: Template) => {
    // Authentication templates cannot be edited.
    if (template.config.category === 'AUTHENTICATION') toastError(formMessageText(AUTHENTICATION_EDIT_MESSAGE, t));
    else setEditing({ mode: 'edit', template });
  };
  const total = templates.data?.pagination.total ?? 0;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>{t('WhatsApp templates')}</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ mode: 'create' })}>
          {t('New template')}
        </Button>
      </Group>
      <Group align="flex-end">
        <Select
          label={t('Channel')}
          placeholder={t('All')}
          clearable
          data={(channels.data ?? []).map((c) => ({ value: c.uuid, label: c.name }))}
          value={channel}
          onChange={setChannel}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label={t('Category')}
          placeholder={t('All')}
          clearable
          data={TEMPLATE_CATEGORIES.map((c) => ({ value: c, label: t(CATEGORY_LABEL[c]) }))}
          value={category}
          onChange={(v) => setCategory(v as TemplateCategory | null)}
          comboboxProps={{ withinPortal: true }}
        />
        <TextInput label={t('Name')} leftSection={<IconSearch size={14} />} value={name} onChange={(e) => setName(e.currentTarget.value)} />
      </Group>
      {templates.isPending ? (
        <LoadingState />
      ) : templates.isError ? (
        <ErrorState onRetry={() => void templates.refetch()} />
      ) : templates.data.data.length === 0 ? (
        <EmptyState text={t(TEMPLATE_MESSAGES.empty)} />
      ) : (
        <Table striped aria-label={t('Templates')} aria-busy={templates.isFetching}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Name')}</Table.Th>
              <Table.Th>{t('Channel')}</Table.Th>
              <Table.Th>{t('Category')}</Table.Th>
              <Table.Th>{t('Preview')}</Table.Th>
              <Table.Th>{t('Status')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('Actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {templates.data.data.map((template) => (
              <Table.Tr key={template.uuid}>
                <Table.Td>{template.name}</Table.Td>
                <Table.Td>{template.channel.name}</Table.Td>
                <Table.Td>{t(CATEGORY_LABEL[template.config.category])}</Table.Td>
                <Table.Td maw={280}>
                  <Text size="sm" lineClamp={1}>
                    {bodyPreview(template)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <TemplateStatus status={template.config.status} />
                </Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <Tooltip label={t('Preview')}>
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('Preview {{name}}', { name: template.name })}
                        onClick={() => setPreviewing(template)}
                      >
                        <IconEye size={16} />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label={t('Edit')}>
                      <ActionIcon variant="subtle" aria-label={t('Edit {{name}}', { name: template.name })} onClick={() => edit(template)}>
                        <IconEdit size={16} />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label={t('Delete')}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('Delete {{name}}', { name: template.name })}
                        onClick={() => setDeleting(template)}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {templates.data && total > 0 && <PagedFooter total={total} limit={limit} page={page} onLimit={setLimit} onPage={setPage} />}

      <Modal
        opened={previewing !== null}
        onClose={() => setPreviewing(null)}
        title={previewing?.name}
        closeButtonProps={{ 'aria-label': t('Close') }}
      >
        {previewing && (
          <Stack>
            <TemplateBubble components={previewing.config.components} />
            <Group gap="xs">
              <Text size="sm">{t('Status')}:</Text>
              <TemplateStatus status={previewing.config.status} />
            </Group>
            {previewing.config.rejected_reason && (
              <Text size="sm" c="red">
                {rejectionReasonText(previewing.config.rejected_reason, t)}
              </Text>
            )}
          </Stack>
        )}
      </Modal>
      <ConfirmModal
        opened={deleting !== null && inUse === null}
        title={t('Delete template')}
        message={t(TEMPLATE_MESSAGES.confirmDelete)}
        confirmLabel={t('Delete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ template: deleting, confirm: false })}
        onClose={() => setDeleting(null)}
      />
      <ConfirmModal
        opened={deleting !== null && inUse !== null}
        title={t('Campaigns use this template')}
        message={t(
          'These campaigns use this template: {{campaigns}}. Once it is deleted they can no longer be started or edited. Delete it anyway?',
          { campaigns: inUse },
        )}
        confirmLabel={t('Delete anyway')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ template: deleting, confirm: true })}
        onClose={() => {
          setInUse(null);
          setDeleting(null);
        }}
      />
      {editing && (
        <TemplateFormModal
          mode={editing.mode}
          template={editing.mode === 'edit' ? editing.template : null}
          channels={channels.data ?? []}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void queryClient.invalidateQueries({ queryKey: templateKeys.all });
          }}
        />
      )}
    </Stack>
  );
}
