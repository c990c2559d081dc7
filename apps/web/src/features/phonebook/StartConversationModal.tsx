import { isFeatureOn, type Contact, type Conversation, type Template } from '@atende/contract';
import {
  formatPhoneForDisplay,
  EMAIL_SUBJECT_MAX,
  isTemplateRequiredOnStart,
  needsSubjectOnStart,
  preselect,
  startConversationBody,
  startConversationFormSchema,
  type OutboundChannel,
  type StartConversationForm,
} from '@atende/core';
import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback, useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useTenant } from '../../session/session';
import { ErrorState, LoadingState } from '../../ui/states';
import { useStartChannels } from './queries';
import { StartTemplateFields, templateParametersComplete } from './StartTemplateFields';
import { formMessageText } from '../../api/errors';

interface StartConversationModalProps {
  contact: Contact | null;
  opened: boolean;
  onClose(): void;
  /** The conversation was created; it reaches the workstation by the realtime update-conversation event. */
  onStarted(conversation: Conversation): void;
  stackId?: string;
}

/** Start-conversation modal (POST /api/v1/contacts/{id}/conversations). */
export function StartConversationModal({ contact, opened, onClose, onStarted, stackId }: StartConversationModalProps) {
  const { t } = useTranslation();
  const channels = useStartChannels(opened && contact !== null);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      stackId={stackId}
      title={t('Start conversation')}
      size="md"
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      {contact &&
        (channels.isPending ? (
          <LoadingState />
        ) : channels.isError ? (
          <ErrorState onRetry={() => void channels.refetch()} />
        ) : (
          // Keyed by contact: a new contact starts from a clean form and its own preselection.
          <StartForm key={contact.uuid} contact={contact} channels={channels.data} onCancel={onClose} onStarted={onStarted} />
        ))}
    </Modal>
  );
}

function StartForm({
  contact,
  channels,
  onCancel,
  onStarted,
}: {
  contact: Contact;
  channels: OutboundChannel[];
  onCancel(): void;
  onStarted(c: Conversation): void;
}) {
  const { t } = useTranslation();
  const tenant = useTenant().data;
  // The button is disabled unless feature start_new_conversation is on.
  const allowed = tenant ? isFeatureOn(tenant, 'start_new_conversation') : false;
  const schema = useMemo(() => startConversationFormSchema(channels), [channels]);
  const form = useForm<StartConversationForm>({
    resolver: zodResolver(schema),
    defaultValues: { channel_uuid: preselect(channels) ?? '', template_uuid: '', initial_message: '', subject: '' },
  });
  const [channelUuid, templateUuid] = useWatch({ control: form.control, name: ['channel_uuid', 'template_uuid'] });
  const channel = channels.find((c) => c.uuid === channelUuid);
  const templateRequired = channel ? isTemplateRequiredOnStart(channel) : false;
  const [parameters, setParameters] = useState<string[]>([]);
  const [templates, setTemplates] = useState<Template[]>([]);
  const [parametersError, setParametersError] = useState<string | undefined>();
  const onTemplates = useCallback((list: Template[]) => setTemplates(list), []);
  const setTemplate = useCallback(
    (uuid: string) => form.setValue('template_uuid', uuid, { shouldValidate: form.formState.isSubmitted }),
    [form],
  );
  const submit = form.handleSubmit(async (values) => {
    if (!channel) return;
    const template = templates.find((x) => x.uuid === values.template_uuid);
    if (templateRequired && !templateParametersComplete(template, parameters)) {
      setParametersError(t('Fill in every template parameter'));
      return;
    }
    setParametersError(undefined);
    try {
      // Failures ('Fail to create conversation', an open conversation on the channel) are toasted by the shared handler.
      const { data } = await api.startConversation({
        params: { id: contact.uuid },
        body: startConversationBody(values, channel, templateRequired ? parameters : []),
      });
      onStarted(data);
    } catch {
      // already shown by the shared handler; the form stays open to try again
    }
  });
  const err = (name: keyof StartConversationForm) => {
    const message = form.formState.errors[name]?.message;
    return message ? formMessageText(message, t) : undefined;
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm">
          {t('Contact')}: <strong>{contact.name}</strong> ·{' '}
          {channel && needsSubjectOnStart(channel)
            ? (contact.email ?? t('This contact has no e-mail address'))
            : formatPhoneForDisplay(contact.phone_number)}
        </Text>
        {channels.length === 0 && (
          <Alert color="yellow" role="status">
            {t('There are no channels available to start a conversation')}
          </Alert>
        )}
        <Controller
          control={form.control}
          name="channel_uuid"
          render={({ field }) => (
            <Select
              label={t('Channel')}
              required
              placeholder={t('Select a channel')}
              data={channels.map((c) => ({ value: c.uuid, label: c.name }))}
              value={field.value || null}
              onChange={(value) => {
                field.onChange(value ?? '');
                form.setValue('template_uuid', '');
                setParameters([]);
              }}
              onBlur={field.onBlur}
              ref={field.ref}
              error={err('channel_uuid')}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
            />
          )}
        />
        {channel && templateRequired && (
          <StartTemplateFields
            key={channel.uuid}
            channelUuid={channel.uuid}
            value={templateUuid}
            onChange={setTemplate}
            parameters={parameters}
            onParametersChange={setParameters}
            error={err('template_uuid')}
            parametersError={parametersError}
            onTemplates={onTemplates}
          />
        )}
        {channel && needsSubjectOnStart(channel) && (
          // A new e-mail has a subject; the contact's replies thread under it.
          <TextInput label={t('Subject')} required maxLength={EMAIL_SUBJECT_MAX} {...form.register('subject')} error={err('subject')} />
        )}
        {channel && !templateRequired && (
          <Textarea
            label={t('Initial message')}
            required
            autosize
            minRows={3}
            maxRows={8}
            maxLength={4096}
            {...form.register('initial_message')}
            error={err('initial_message')}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('Cancel')}
          </Button>
          <Button
            type="submit"
            disabled={!allowed}
            loading={form.formState.isSubmitting}
            title={allowed ? undefined : t('Funcionalidade não ativada')}
          >
            {t('Start conversation')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
