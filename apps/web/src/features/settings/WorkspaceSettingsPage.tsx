import { DELIVERY_MODES, updateMyWorkspace, type Workspace } from '@atende/contract';
import { allows } from '@atende/core';
import { Anchor, Button, Group, NumberInput, Radio, Select, Stack, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { phrase } from '../../i18n/phrase';
import { queryKeys, useMe, useWorkspace } from '../../session/session';
import { ErrorState, LoadingState } from '../../ui/states';
import { toastSuccess } from '../../ui/toasts';
import { ChannelsSection } from './ChannelsSection';
import { formMessageText } from '../../api/errors';

export const DELIVERY_MODE_LABELS: Record<(typeof DELIVERY_MODES)[number], string> = {
  on_demand: phrase('On demand (agents pick conversations from the queue)'),
  round_robin: phrase('Round robin (automatic distribution in turns)'),
  fifo: phrase('FIFO (automatic distribution, longest idle agent first)'),
};
const ARCHIVED_LABELS: Record<Workspace['archived_conversation_behavior_on_new_messages'], string> = {
  unarchive: phrase('Unarchive the conversation'),
  keep_archived: phrase('Keep the conversation archived'),
};
// The contract's range (default 10), so the form and the api agree.
const maxRule = updateMyWorkspace.body.shape.max_conversation_per_user.unwrap();

/** Workspace settings: delivery mode, conversations per agent, archived conversations on new messages; its channels. */
export function WorkspaceSettingsPage() {
  const { t } = useTranslation();
  const workspace = useWorkspace();
  return (
    <Stack maw={960}>
      <Anchor component={Link} to=".." relative="path" size="sm">
        ← {t('Settings')}
      </Anchor>
      <Title order={3}>{t('Workspace')}</Title>
      {workspace.isPending ? (
        <LoadingState />
      ) : workspace.isError ? (
        <ErrorState onRetry={() => void workspace.refetch()} />
      ) : (
        <WorkspaceForm key={workspace.data.uuid} initial={workspace.data} />
      )}
      <ChannelsSection />
    </Stack>
  );
}

function WorkspaceForm({ initial }: { initial: Workspace }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const me = useMe().data;
  const canSave = me
    ? allows(
        me.roles.map((r) => r.name),
        'settings.workspace.write',
      )
    : false;
  const [mode, setMode] = useState(initial.conversation_delivery_mode);
  const [max, setMax] = useState<number | string>(initial.max_conversation_per_user);
  const [archived, setArchived] = useState(initial.archived_conversation_behavior_on_new_messages);
  const [maxError, setMaxError] = useState<string>();
  const save = useMutation({
    mutationFn: async (body: {
      conversation_delivery_mode: typeof mode;
      max_conversation_per_user: number;
      archived_conversation_behavior_on_new_messages: typeof archived;
    }) => (await api.updateMyWorkspace({ body })).data,
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.workspace, saved);
      toastSuccess(t('Workspace saved'));
    },
  });
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = maxRule.safeParse(typeof max === 'number' ? max : Number.NaN);
    if (!parsed.success) {
      setMaxError(parsed.error.issues[0]?.message ?? 'Invalid value');
      return;
    }
    setMaxError(undefined);
    save.mutate({
      conversation_delivery_mode: mode,
      max_conversation_per_user: parsed.data,
      archived_conversation_behavior_on_new_messages: archived,
    });
  };
  return (
    <form onSubmit={submit} noValidate aria-label={t('Workspace')}>
      <Stack>
        <Radio.Group label={t('Conversation delivery mode')} value={mode} onChange={(v) => setMode(v as typeof mode)}>
          <Stack gap="xs" mt="xs">
            {DELIVERY_MODES.map((m) => (
              <Radio key={m} value={m} label={t(DELIVERY_MODE_LABELS[m])} />
            ))}
          </Stack>
        </Radio.Group>
        <NumberInput
          label={t('Maximum conversations per agent')}
          description={t('Between 1 and 100 (default 10).')}
          value={max}
          onChange={setMax}
          allowDecimal={false}
          allowNegative={false}
          w={240}
          error={maxError && formMessageText(maxError, t)}
        />
        <Select
          label={t('When an archived conversation gets a new message')}
          data={(Object.keys(ARCHIVED_LABELS) as (keyof typeof ARCHIVED_LABELS)[]).map((value) => ({
            value,
            label: t(ARCHIVED_LABELS[value]),
          }))}
          value={archived}
          onChange={(v) => v && setArchived(v as typeof archived)}
          allowDeselect={false}
          w={360}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} disabled={!canSave}>
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
