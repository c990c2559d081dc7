import type { Template } from '@atende/contract';
import { renderTemplateText, templateTypeOf, templateVariables } from '@atende/core';
import { Alert, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingState } from '../../ui/states';
import { useStartTemplates } from './queries';

const bodyOf = (template: Template | undefined) => template?.config.components.find((c) => c.type === 'BODY')?.text ?? '';

/** The template's {{n}} parameters, all filled: what the api needs to send it. */
export function templateParametersComplete(template: Template | undefined, parameters: readonly string[]): boolean {
  return templateVariables(bodyOf(template)).every((n) => (parameters[n - 1] ?? '').trim() !== '');
}

interface Props {
  channelUuid: string;
  value: string;
  onChange(templateUuid: string): void;
  parameters: string[];
  onParametersChange(parameters: string[]): void;
  error?: string;
  parametersError?: string;
  onTemplates(templates: Template[]): void;
}

/**
 * The channel's approved templates; media or interactive ones are listed but cannot be
 * chosen; a single valid one is preselected; its body shows with the parameters filled in.
 */
export function StartTemplateFields({
  channelUuid,
  value,
  onChange,
  parameters,
  onParametersChange,
  error,
  parametersError,
  onTemplates,
}: Props) {
  const { t } = useTranslation();
  const templates = useStartTemplates(channelUuid);
  const list = templates.data;
  useEffect(() => {
    if (!list) return;
    onTemplates(list);
    const valid = list.filter((x) => templateTypeOf(x.config.components) === 'standard');
    if (!value && valid.length === 1) onChange(valid[0]!.uuid);
  }, [list, value, onChange, onTemplates]);
  if (templates.isPending) return <LoadingState />;
  if (!list?.length) {
    return (
      <Alert color="yellow" role="status">
        {t('There are no approved templates, request registration to the admin')}
      </Alert>
    );
  }
  const chosen = list.find((x) => x.uuid === value);
  const body = bodyOf(chosen);
  return (
    <Stack gap="xs">
      <Select
        label={t('Template')}
        required
        placeholder={t('Select a template')}
        data={list.map((x) => ({ value: x.uuid, label: x.name, disabled: templateTypeOf(x.config.components) !== 'standard' }))}
        value={value || null}
        onChange={(v) => {
          onChange(v ?? '');
          onParametersChange([]);
        }}
        error={error}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
      />
      {chosen &&
        templateVariables(body).map((n) => (
          <TextInput
            key={n}
            label={t('Parameter {{n}}', { n })}
            required
            maxLength={1024}
            value={parameters[n - 1] ?? ''}
            onChange={(e) => {
              const next = [...parameters];
              next[n - 1] = e.currentTarget.value;
              onParametersChange(next);
            }}
          />
        ))}
      {parametersError && (
        <Text size="sm" c="red">
          {parametersError}
        </Text>
      )}
      {chosen && (
        <Paper withBorder p="sm" bg="green.0" aria-label={t('Message preview')}>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {renderTemplateText(body, parameters)}
          </Text>
        </Paper>
      )}
    </Stack>
  );
}
