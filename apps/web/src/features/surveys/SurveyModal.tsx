import type { Survey } from '@atende/contract';
import { surveyIssues, SURVEY_LIMITS } from '@atende/core';
import { ActionIcon, Button, Group, Modal, MultiSelect, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { FormActions } from '../../ui/FormActions';
import { toastSuccess } from '../../ui/toasts';
import { useRuleForm } from '../../ui/useRuleForm';

interface Draft {
  name: string;
  question: string;
  options: string[];
  greeting_message: string;
  sector_uuids: string[];
  enabled: boolean;
}
const EMPTY: Draft = { name: '', question: '', options: ['', ''], greeting_message: '', sector_uuids: [], enabled: true };

/** Create or edit a survey; the rules of packages/core (the api checks the same) show under each field once submitted. */
export function SurveyModal({ survey, onClose, onSaved }: { survey: Survey | null; onClose(): void; onSaved(): void }) {
  const { t } = useTranslation();
  const { draft, set, errorOf, submit } = useRuleForm<Draft>(() => (survey ? { ...survey } : EMPTY), surveyIssues);
  const sectors = useQuery({ queryKey: ['sectors', 'all'], queryFn: async () => (await api.listSectors({ query: { _limit: 0 } })).data });
  const save = useMutation({
    mutationFn: () => (survey ? api.updateSurvey({ params: { id: survey.uuid }, body: draft }) : api.createSurvey({ body: draft })),
    onSuccess: () => {
      toastSuccess(survey ? t('Survey edited successfully') : t('Survey created successfully'));
      onSaved();
      onClose();
    },
  });
  const setOption = (i: number, value: string) => set({ options: draft.options.map((o, j) => (j === i ? value : o)) });
  return (
    <Modal
      opened
      onClose={onClose}
      title={survey ? t('Edit survey') : t('New survey')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      <Stack>
        <TextInput
          label={t('Name')}
          value={draft.name}
          maxLength={SURVEY_LIMITS.name}
          onChange={(e) => set({ name: e.currentTarget.value })}
          error={errorOf('name')}
          data-autofocus
        />
        <Textarea
          label={t('Question')}
          autosize
          minRows={2}
          value={draft.question}
          onChange={(e) => set({ question: e.currentTarget.value })}
          error={errorOf('question')}
        />
        <Stack gap={6}>
          <Text size="sm" fw={500}>
            {t('Answers')}
          </Text>
          {draft.options.map((option, i) => (
            <Group key={i} gap="xs" align="flex-start">
              <Text w={24} pt={6} size="sm" c="dimmed">
                {i + 1}.
              </Text>
              <TextInput
                style={{ flex: 1 }}
                aria-label={t('Answer {{n}}', { n: i + 1 })}
                value={option}
                onChange={(e) => setOption(i, e.currentTarget.value)}
                error={errorOf(`options.${i}`)}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                mt={4}
                aria-label={t('Remove answer {{n}}', { n: i + 1 })}
                onClick={() => set({ options: draft.options.filter((_, j) => j !== i) })}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
          {errorOf('options') && (
            <Text size="xs" c="red">
              {errorOf('options')}
            </Text>
          )}
          <Button
            variant="subtle"
            w="fit-content"
            leftSection={<IconPlus size={14} />}
            disabled={draft.options.length >= SURVEY_LIMITS.maxOptions}
            onClick={() => set({ options: [...draft.options, ''] })}
          >
            {t('Add answer')}
          </Button>
        </Stack>
        <Textarea
          label={t('Greeting message')}
          description={t('Sent to the contact after they answer')}
          autosize
          minRows={2}
          value={draft.greeting_message}
          onChange={(e) => set({ greeting_message: e.currentTarget.value })}
          error={errorOf('greeting_message')}
        />
        <MultiSelect
          label={t('Sectors')}
          description={t('Finished conversations of these sectors receive the survey')}
          data={(sectors.data ?? []).map((s) => ({ value: s.uuid, label: s.name }))}
          value={draft.sector_uuids}
          onChange={(v) => set({ sector_uuids: v })}
          searchable
        />
        <Switch label={t('Enabled')} checked={draft.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} />
        <FormActions onCancel={onClose} loading={save.isPending} onSubmit={() => submit(() => save.mutate())} />
      </Stack>
    </Modal>
  );
}
