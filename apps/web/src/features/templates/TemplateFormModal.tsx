import { ErrorBodySchema, type Channel, type Template } from '@atende/contract';
import { fieldText, formMessageText } from '../../api/errors';
import { TEMPLATE_MESSAGES } from '@atende/core';
import { ApiError } from '@atende/sdk';
import { Badge, Button, Grid, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { toastSuccess } from '../../ui/toasts';
import { TemplateBubble } from './TemplateBubble';
import { missingExamples, TemplateExamples } from './TemplateExamples';
import { TemplateFormFields } from './TemplateFormFields';
import { emptyForm, fieldErrors, fromTemplate, toInput, type TemplateFormState } from './form';
import { campaignsUsingTemplate, templateApi } from './templateInUse';

interface Props {
  mode: 'create' | 'edit';
  template: Template | null;
  channels: Channel[];
  onClose(): void;
  onSaved(): void;
}

/**
 * The two-step create/edit modal: the form (with a live preview), then the examples
 * of its variables; Submit (or Edit) sends it, and the server checks the same rules again.
 */
export function TemplateFormModal({ mode, template, channels, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [form, setForm] = useState<TemplateFormState>(() =>
    template ? fromTemplate(template) : emptyForm(channels.length === 1 ? channels[0]!.uuid : ''),
  );
  const [step, setStep] = useState<1 | 2>(1);
  const [tried, setTried] = useState<{ 1: boolean; 2: boolean }>({ 1: false, 2: false });
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const channelType = channels.find((c) => c.uuid === form.channel_uuid)?.type ?? (template?.channel.type || null);
  // Worded here, by the catalogue code of each message, as the server's are: the fields show them as they are.
  const errors = useMemo(() => {
    if (!tried[step]) return serverErrors;
    const own = { ...fieldErrors(form, channelType, mode, step), ...(step === 2 ? missingExamples(form) : {}) };
    const worded = Object.fromEntries(Object.entries(own).map(([path, message]) => [path, formMessageText(message, t)]));
    return { ...serverErrors, ...worded };
  }, [form, channelType, mode, step, tried, serverErrors, t]);
  const change = (next: TemplateFormState) => {
    setServerErrors({});
    setForm(next);
  };

  // Campaigns using the template, named by the server when the buttons changed.
  const [inUse, setInUse] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (confirm: boolean) => {
      const body = toInput(form);
      const params = { id: form.channel_uuid };
      return mode === 'create'
        ? api.createTemplate({ params, body })
        : templateApi.updateTemplate({ params, body, query: confirm ? { confirm: true } : {} });
    },
    onSuccess: () => {
      setInUse(null);
      toastSuccess(t(mode === 'create' ? TEMPLATE_MESSAGES.created : TEMPLATE_MESSAGES.edited));
      onSaved();
    },
    // The message itself is toasted by the shared handler; the fields it names show under them.
    onError: (error) => {
      const campaigns = campaignsUsingTemplate(error);
      if (campaigns !== null) return setInUse(campaigns);
      if (!(error instanceof ApiError)) return;
      const fields = ErrorBodySchema.safeParse(error.body).data?.fields ?? [];
      setServerErrors(Object.fromEntries(fields.map((f) => [f.path, fieldText(f, t)])));
      if (fields.some((f) => !f.path.startsWith('header.example'))) setStep(1);
    },
  });

  const next = () => {
    setTried((s) => ({ ...s, 1: true }));
    if (Object.keys(fieldErrors(form, channelType, mode, 1)).length === 0) setStep(2);
  };
  const submit = () => {
    setTried((s) => ({ ...s, 2: true }));
    if (Object.keys(fieldErrors(form, channelType, mode, 2)).length === 0 && Object.keys(missingExamples(form)).length === 0)
      save.mutate(false);
  };

  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={
        <Group gap="xs">
          <Text fw={600}>{t(mode === 'create' ? 'New template' : 'Edit template')}</Text>
          <Badge variant="light">{t('Step {{n}} of 2', { n: step })}</Badge>
        </Group>
      }
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      <Grid>
        <Grid.Col span={{ base: 12, md: 7 }}>
          {step === 1 ? (
            <TemplateFormFields form={form} onChange={change} channels={channels} mode={mode} errors={errors} />
          ) : (
            <TemplateExamples form={form} onChange={change} errors={errors} />
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="xs">
            <Text size="sm" fw={500}>
              {t('Preview')}
            </Text>
            <TemplateBubble components={toInput(form).components} />
          </Stack>
        </Grid.Col>
      </Grid>
      <Group justify="flex-end" mt="lg">
        {step === 1 ? (
          <>
            <Button variant="default" onClick={onClose}>
              {t('Cancel')}
            </Button>
            <Button onClick={next}>{t('Next')}</Button>
          </>
        ) : (
          <>
            <Button variant="default" onClick={() => setStep(1)}>
              {t('Back')}
            </Button>
            <Button onClick={submit} loading={save.isPending}>
              {t(mode === 'create' ? 'Submit' : 'Edit')}
            </Button>
          </>
        )}
      </Group>
      <ConfirmModal
        opened={inUse !== null}
        title={t('Campaigns use this template')}
        message={t(
          "These campaigns use this template's buttons: {{campaigns}}. Replies to a changed button would get the default action, so their button actions will be marked outdated until you save them again. Save anyway?",
          { campaigns: inUse },
        )}
        confirmLabel={t('Save anyway')}
        loading={save.isPending}
        onConfirm={() => save.mutate(true)}
        onClose={() => setInUse(null)}
      />
    </Modal>
  );
}
