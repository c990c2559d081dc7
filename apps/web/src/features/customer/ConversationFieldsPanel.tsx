import type { Conversation } from '@atende/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Accordion, ActionIcon, Button, Group, Select, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { IconPencil, IconPencilOff } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../ui/states';
import { toastSuccess } from '../../ui/toasts';
import {
  AddConversationFieldSchema,
  EditConversationFieldSchema,
  type AddConversationField,
  type EditConversationField,
} from './conversationFieldForms';
import { PanelLoading } from './PanelLoading';
import { useConversationFields, useFieldDefinitions, useSetConversationField } from './queries';
import { formMessageText } from '../../api/errors';

export const FIELDS_ITEM = 'fields';

interface Props {
  conversation: Conversation;
  /** Add and edit controls only on /app. */
  showControls: boolean;
  /** Opens the panel when the pencil is used on a collapsed panel. */
  onExpand(): void;
}

/** Conversation fields panel (flag conversation_fields): values, edit, add. */
export function ConversationFieldsPanel({ conversation, showControls, onExpand }: Props) {
  const { t } = useTranslation();
  const fields = useConversationFields(conversation.uuid, true);
  const definitions = useFieldDefinitions(showControls);
  const [editingState, setEditing] = useState(false);
  const editing = editingState && showControls;
  const label = t('Edit conversation fields');

  let body;
  if (fields.isError) body = <ErrorState onRetry={() => void fields.refetch()} />;
  else if (!fields.data) body = <PanelLoading />;
  else if (editing) {
    const present = new Set(fields.data.map((f) => f.field_uuid));
    const available = (definitions.data ?? []).filter((d) => !present.has(d.uuid));
    body = (
      <Stack gap="sm">
        {fields.data.map((f) => (
          <EditFieldRow key={`${f.field_uuid}:${f.field_value}`} conversationUuid={conversation.uuid} field={f} />
        ))}
        {definitions.isLoading ? <PanelLoading /> : <AddFieldForm conversationUuid={conversation.uuid} available={available} />}
      </Stack>
    );
  } else if (fields.data.length === 0) {
    body = (
      <Text size="sm" c="dimmed">
        {showControls ? t('No extra fields. Select a text in the chat or click on edit button to insert more fields.') : t('No data found')}
      </Text>
    );
  } else {
    body = (
      <Stack component="dl" gap={6} m={0}>
        {fields.data.map((f) => (
          <div key={f.field_uuid}>
            <Text component="dt" size="xs" c="dimmed">
              {f.name}
            </Text>
            <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
              {f.field_value}
            </Text>
          </div>
        ))}
      </Stack>
    );
  }

  return (
    <Accordion.Item value={FIELDS_ITEM}>
      <Group wrap="nowrap" gap={0} pr={4}>
        <Accordion.Control>
          <Text fw={600} size="sm">
            {t('Conversation fields')}
          </Text>
        </Accordion.Control>
        {showControls && fields.data && (
          <Tooltip label={label}>
            <ActionIcon
              variant={editing ? 'light' : 'subtle'}
              color="gray"
              size="lg"
              aria-label={label}
              aria-pressed={editing}
              onClick={() => {
                setEditing(!editing);
                onExpand();
              }}
            >
              {editing ? <IconPencilOff size={18} aria-hidden /> : <IconPencil size={18} aria-hidden />}
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
      <Accordion.Panel>{body}</Accordion.Panel>
    </Accordion.Item>
  );
}

function EditFieldRow({
  conversationUuid,
  field,
}: {
  conversationUuid: string;
  field: { field_uuid: string; name: string; field_value: string };
}) {
  const { t } = useTranslation();
  const set = useSetConversationField(conversationUuid);
  const form = useForm<EditConversationField>({
    resolver: zodResolver(EditConversationFieldSchema),
    defaultValues: { field_value: field.field_value },
  });
  const submit = form.handleSubmit(async ({ field_value }) => {
    try {
      await set.mutateAsync({ field_uuid: field.field_uuid, field_value });
      toastSuccess(t('Informações editadas com sucesso'));
      form.reset({ field_value });
    } catch {
      // shown by the shared error handler
    }
  });
  const error = form.formState.errors.field_value?.message;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap={4}>
        <Textarea
          label={field.name}
          size="sm"
          autosize
          minRows={1}
          maxRows={6}
          withAsterisk
          {...form.register('field_value')}
          error={error ? formMessageText(error, t) : undefined}
        />
        <Group justify="flex-end">
          <Button
            type="submit"
            size="compact-sm"
            variant="light"
            loading={form.formState.isSubmitting}
            aria-label={t('Save {{field}}', { field: field.name })}
          >
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function AddFieldForm({ conversationUuid, available }: { conversationUuid: string; available: { uuid: string; name: string }[] }) {
  const { t } = useTranslation();
  const set = useSetConversationField(conversationUuid);
  const form = useForm<AddConversationField>({
    resolver: zodResolver(AddConversationFieldSchema),
    defaultValues: { field_uuid: '', field_value: '' },
  });
  const submit = form.handleSubmit(async (body) => {
    try {
      await set.mutateAsync(body);
      toastSuccess(t('Campo adicionado com sucesso'));
      form.reset({ field_uuid: '', field_value: '' });
    } catch {
      // shown by the shared error handler
    }
  });
  const err = (name: keyof AddConversationField) => {
    const message = form.formState.errors[name]?.message;
    return message ? formMessageText(message, t) : undefined;
  };
  if (available.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('Every conversation field already has a value.')}
      </Text>
    );
  }
  return (
    <form onSubmit={submit} noValidate aria-label={t('Add conversation field')}>
      <Stack gap={4}>
        <Controller
          control={form.control}
          name="field_uuid"
          render={({ field }) => (
            <Select
              label={t('Field')}
              placeholder={t('Select a field')}
              size="sm"
              withAsterisk
              searchable
              data={available.map((d) => ({ value: d.uuid, label: d.name }))}
              value={field.value || null}
              onChange={(v) => field.onChange(v ?? '')}
              onBlur={field.onBlur}
              ref={field.ref}
              error={err('field_uuid')}
              nothingFoundMessage={t('No data found')}
            />
          )}
        />
        <Textarea
          label={t('Value')}
          size="sm"
          autosize
          minRows={1}
          maxRows={6}
          withAsterisk
          {...form.register('field_value')}
          error={err('field_value')}
        />
        <Group justify="flex-end">
          <Button type="submit" size="compact-sm" loading={form.formState.isSubmitting}>
            {t('Add field')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
