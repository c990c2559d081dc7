import type { AutomatedMenu, MenuAnswer } from '@atende/contract';
import { MENU_LIMITS, menuIssues, type MenuActionType } from '@atende/core';
import { ActionIcon, Button, Group, Modal, Paper, Select, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { phrase } from '../../i18n/phrase';
import { FormActions } from '../../ui/FormActions';
import { toastSuccess } from '../../ui/toasts';
import { useRuleForm } from '../../ui/useRuleForm';

interface Draft {
  name: string;
  message: string;
  invalid_option_message: string;
  answers: MenuAnswer[];
  enabled: boolean;
}
const newAnswer = (n: number): MenuAnswer => ({ key: String(n), label: '', action: { type: '' } });
const ACTION_LABEL: Record<MenuActionType, string> = {
  transfer_to_sector: phrase('Transfer to a sector'),
  go_to_menu: phrase('Go to another menu'),
  end_conversation: phrase('End the conversation'),
};

/** Create or edit an automated menu; the rules of packages/core show under each field once submitted. */
export function MenuModal({
  menu,
  menus,
  onClose,
  onSaved,
}: {
  menu: AutomatedMenu | null;
  menus: AutomatedMenu[];
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const { draft, set, errorOf, submit } = useRuleForm<Draft>(
    () => (menu ? { ...menu } : { name: '', message: '', invalid_option_message: '', answers: [newAnswer(1)], enabled: true }),
    menuIssues,
  );
  const sectors = useQuery({ queryKey: ['sectors', 'all'], queryFn: async () => (await api.listSectors({ query: { _limit: 0 } })).data });
  const save = useMutation({
    mutationFn: () =>
      menu ? api.updateAutomatedMenu({ params: { id: menu.uuid }, body: draft }) : api.createAutomatedMenu({ body: draft }),
    onSuccess: () => {
      toastSuccess(menu ? t('Menu edited successfully') : t('Menu created successfully'));
      onSaved();
      onClose();
    },
  });
  const setAnswer = (i: number, patch: Partial<MenuAnswer>) =>
    set({ answers: draft.answers.map((a, j) => (j === i ? { ...a, ...patch } : a)) });
  const bound = (menu?.channels.length ?? 0) > 0;
  const others = menus.filter((m) => m.uuid !== menu?.uuid);
  return (
    <Modal opened onClose={onClose} title={menu ? t('Edit menu') : t('New menu')} size="xl" closeButtonProps={{ 'aria-label': t('Close') }}>
      <Stack>
        <TextInput
          label={t('Name')}
          value={draft.name}
          maxLength={MENU_LIMITS.name}
          onChange={(e) => set({ name: e.currentTarget.value })}
          error={errorOf('name')}
          data-autofocus
        />
        <Textarea
          label={t('Message')}
          autosize
          minRows={2}
          value={draft.message}
          onChange={(e) => set({ message: e.currentTarget.value })}
          error={errorOf('message')}
        />
        <Textarea
          label={t('Invalid option message')}
          autosize
          minRows={1}
          value={draft.invalid_option_message}
          onChange={(e) => set({ invalid_option_message: e.currentTarget.value })}
          error={errorOf('invalid_option_message')}
        />
        <Text size="sm" fw={500}>
          {t('Answers')}
        </Text>
        {errorOf('answers') && (
          <Text size="xs" c="red">
            {errorOf('answers')}
          </Text>
        )}
        {draft.answers.map((answer, i) => (
          <Paper key={i} withBorder p="xs" aria-label={t('Answer {{n}}', { n: i + 1 })} role="group">
            <Group align="flex-start" gap="xs" wrap="nowrap">
              <TextInput
                w={80}
                label={t('Option')}
                value={answer.key}
                onChange={(e) => setAnswer(i, { key: e.currentTarget.value })}
                error={errorOf(`answers.${i}.key`)}
              />
              <TextInput
                style={{ flex: 1 }}
                label={t('Description')}
                value={answer.label}
                onChange={(e) => setAnswer(i, { label: e.currentTarget.value })}
                error={errorOf(`answers.${i}.label`)}
              />
              <Select
                w={200}
                label={t('Action')}
                placeholder={t('Choose')}
                data={(Object.keys(ACTION_LABEL) as MenuActionType[]).map((a) => ({ value: a, label: t(ACTION_LABEL[a]) }))}
                value={answer.action.type || null}
                onChange={(v) => setAnswer(i, { action: { type: (v as MenuActionType | null) ?? '', message: answer.action.message } })}
                error={errorOf(`answers.${i}.action`)}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                mt={28}
                aria-label={t('Remove answer {{n}}', { n: i + 1 })}
                onClick={() => set({ answers: draft.answers.filter((_, j) => j !== i) })}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
            <Group gap="xs" mt="xs" align="flex-start" wrap="nowrap">
              {answer.action.type === 'transfer_to_sector' && (
                <Select
                  w={220}
                  label={t('Sector')}
                  data={(sectors.data ?? []).map((s) => ({ value: s.uuid, label: s.name }))}
                  value={answer.action.sector_uuid ?? null}
                  onChange={(v) => setAnswer(i, { action: { ...answer.action, sector_uuid: v } })}
                />
              )}
              {answer.action.type === 'go_to_menu' && (
                <Select
                  w={220}
                  label={t('Menu')}
                  data={others.map((m) => ({ value: m.uuid, label: m.name }))}
                  value={answer.action.menu_uuid ?? null}
                  onChange={(v) => setAnswer(i, { action: { ...answer.action, menu_uuid: v } })}
                />
              )}
              {answer.action.type && (
                <TextInput
                  style={{ flex: 1 }}
                  label={t('Message to send (optional)')}
                  value={answer.action.message ?? ''}
                  onChange={(e) => setAnswer(i, { action: { ...answer.action, message: e.currentTarget.value } })}
                />
              )}
            </Group>
          </Paper>
        ))}
        <Button
          variant="subtle"
          w="fit-content"
          leftSection={<IconPlus size={14} />}
          disabled={draft.answers.length >= MENU_LIMITS.maxAnswers}
          onClick={() => set({ answers: [...draft.answers, newAnswer(draft.answers.length + 1)] })}
        >
          {t('Add answer')}
        </Button>
        <Switch
          label={t('Enabled')}
          checked={draft.enabled}
          disabled={bound && draft.enabled}
          description={bound ? t('Menus used by channels cannot be disabled') : undefined}
          onChange={(e) => set({ enabled: e.currentTarget.checked })}
        />
        <FormActions onCancel={onClose} loading={save.isPending} onSubmit={() => submit(() => save.mutate())} />
      </Stack>
    </Modal>
  );
}
