import { BOT_HTTP_TIMEOUT_DEFAULT_S, BOT_NODE_TYPES, botFlowIssues, type BotNode, type BotNodeType } from '@atende/core';
import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../api/client';
import { phrase } from '../../i18n/phrase';
import { ErrorState, LoadingState } from '../../ui/states';
import { toastSuccess } from '../../ui/toasts';
import { useRuleForm } from '../../ui/useRuleForm';
import { botKeys } from './BotsPage';

const NODE_LABEL: Record<BotNodeType, string> = {
  start: phrase('Start'),
  http: phrase('HTTP request'),
  options: phrase('Options menu'),
  prompt: phrase('Prompt'),
  router: phrase('Router'),
  set_variables: phrase('Set variables'),
  transfer: phrase('Transfer'),
  end: phrase('End'),
};
interface Draft {
  name: string;
  nodes: BotNode[];
}
const NEW_FLOW: Draft = { name: '', nodes: [{ id: 'start', type: 'start', next: null }] };
const rules = (d: Draft) => botFlowIssues(d.name, d.nodes);

/** Settings > Bots > bot editor (bots/bot-editor/:id, nodes, flow rules): the flow as a list of steps whose handles point at other steps. */
export function BotEditorPage() {
  const { id = 'new' } = useParams();
  const bot = useQuery({
    queryKey: botKeys.one(id),
    enabled: id !== 'new',
    queryFn: async () => (await api.getBot({ params: { id } })).data,
  });
  if (id !== 'new' && bot.isPending) return <LoadingState />;
  if (bot.isError) return <ErrorState onRetry={() => void bot.refetch()} />;
  return <Editor id={id} initial={bot.data ? { name: bot.data.name, nodes: bot.data.nodes } : NEW_FLOW} />;
}

function Editor({ id, initial }: { id: string; initial: Draft }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { draft, set, errorOf, submit } = useRuleForm<Draft>(() => initial, rules);
  const sectors = useQuery({ queryKey: ['sectors', 'all'], queryFn: async () => (await api.listSectors({ query: { _limit: 0 } })).data });
  const save = useMutation({
    mutationFn: () => (id === 'new' ? api.createBot({ body: draft }) : api.updateBot({ params: { id }, body: draft })),
    onSuccess: (res) => {
      toastSuccess(t('Bot saved successfully'));
      void queryClient.invalidateQueries({ queryKey: botKeys.all });
      if (id === 'new') void navigate(`../${res.data.uuid}`, { relative: 'path', replace: true });
    },
  });
  const patchNode = (i: number, patch: Partial<BotNode>) => set({ nodes: draft.nodes.map((n, j) => (j === i ? { ...n, ...patch } : n)) });
  const targets = draft.nodes.map((n) => ({ value: n.id, label: `${n.id} (${t(NODE_LABEL[n.type])})` }));
  const addNode = (type: BotNodeType) => {
    let n = draft.nodes.length + 1;
    while (draft.nodes.some((x) => x.id === `${type}_${n}`)) n++;
    const node: BotNode = { id: `${type}_${n}`, type, next: null };
    if (type === 'options') Object.assign(node, { text: '', invalid_option_message: '', options: [{ key: '1', label: '', next: null }] });
    if (type === 'http')
      Object.assign(node, { url: '', method: 'GET', timeout_seconds: BOT_HTTP_TIMEOUT_DEFAULT_S, error_text: '', on_error: null });
    if (type === 'router') node.conditions = [{ expression: '', next: null }];
    if (type === 'set_variables') node.variables = [{ name: '', value: '' }];
    set({ nodes: [...draft.nodes, node] });
  };
  const handle = (label: string, value: string | null | undefined, onChange: (v: string | null) => void, error?: string) => (
    <Select w={220} label={label} data={targets} value={value ?? null} onChange={onChange} error={error} clearable />
  );

  return (
    <Stack maw={900}>
      <Anchor component={Link} to="../.." relative="path" size="sm">
        ← {t('Bots')}
      </Anchor>
      <Title order={3}>{id === 'new' ? t('New bot') : draft.name}</Title>
      <TextInput
        label={t('Name')}
        maxLength={120}
        value={draft.name}
        onChange={(e) => set({ name: e.currentTarget.value })}
        error={errorOf('name')}
      />
      {errorOf('nodes') && (
        <Text c="red" size="sm">
          {errorOf('nodes')}
        </Text>
      )}
      {draft.nodes.map((node, i) => {
        const at = `nodes.${i}`;
        return (
          <Paper key={i} withBorder p="sm" role="group" aria-label={`${t(NODE_LABEL[node.type])} ${node.id}`}>
            <Group justify="space-between" mb="xs">
              <Group gap="xs">
                <Badge variant="light">{t(NODE_LABEL[node.type])}</Badge>
                <Text size="sm" ff="monospace">
                  {node.id}
                </Text>
              </Group>
              {node.type !== 'start' && (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('Remove step {{id}}', { id: node.id })}
                  onClick={() => set({ nodes: draft.nodes.filter((_, j) => j !== i) })}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              )}
            </Group>
            <Stack gap="xs">
              {(node.type === 'options' || node.type === 'prompt' || node.type === 'end' || node.type === 'transfer') && (
                <Textarea
                  label={t('Text')}
                  autosize
                  minRows={1}
                  value={node.text ?? ''}
                  onChange={(e) => patchNode(i, { text: e.currentTarget.value })}
                  error={errorOf(`${at}.text`)}
                />
              )}
              {node.type === 'options' && (
                <>
                  <TextInput
                    label={t('Invalid option message')}
                    value={node.invalid_option_message ?? ''}
                    onChange={(e) => patchNode(i, { invalid_option_message: e.currentTarget.value })}
                    error={errorOf(`${at}.invalid_option_message`)}
                  />
                  {(node.options ?? []).map((o, j) => (
                    <Group key={j} align="flex-start" gap="xs">
                      <TextInput
                        w={80}
                        label={t('Option')}
                        value={o.key}
                        onChange={(e) =>
                          patchNode(i, { options: node.options!.map((x, k) => (k === j ? { ...x, key: e.currentTarget.value } : x)) })
                        }
                        error={errorOf(`${at}.options.${j}.key`)}
                      />
                      <TextInput
                        style={{ flex: 1 }}
                        label={t('Description')}
                        value={o.label}
                        onChange={(e) =>
                          patchNode(i, { options: node.options!.map((x, k) => (k === j ? { ...x, label: e.currentTarget.value } : x)) })
                        }
                      />
                      {handle(
                        t('Goes to'),
                        o.next,
                        (v) => patchNode(i, { options: node.options!.map((x, k) => (k === j ? { ...x, next: v } : x)) }),
                        errorOf(`${at}.options.${j}.next`),
                      )}
                    </Group>
                  ))}
                  <Button
                    variant="subtle"
                    w="fit-content"
                    size="xs"
                    onClick={() =>
                      patchNode(i, {
                        options: [...(node.options ?? []), { key: String((node.options?.length ?? 0) + 1), label: '', next: null }],
                      })
                    }
                  >
                    {t('Add option')}
                  </Button>
                </>
              )}
              {node.type === 'prompt' && (
                <TextInput
                  label={t('Variable')}
                  value={node.variable ?? ''}
                  onChange={(e) => patchNode(i, { variable: e.currentTarget.value })}
                  error={errorOf(`${at}.variable`)}
                />
              )}
              {node.type === 'http' && (
                <Group align="flex-start">
                  <Select
                    w={100}
                    label={t('Method')}
                    data={['GET', 'POST']}
                    value={node.method ?? 'GET'}
                    onChange={(v) => patchNode(i, { method: v === 'POST' ? 'POST' : 'GET' })}
                    allowDeselect={false}
                  />
                  <TextInput
                    style={{ flex: 1 }}
                    label={t('URL')}
                    value={node.url ?? ''}
                    onChange={(e) => patchNode(i, { url: e.currentTarget.value })}
                    error={errorOf(`${at}.url`)}
                  />
                  <NumberInput
                    w={130}
                    label={t('Timeout (s)')}
                    min={1}
                    max={30}
                    value={node.timeout_seconds ?? BOT_HTTP_TIMEOUT_DEFAULT_S}
                    onChange={(v) => patchNode(i, { timeout_seconds: Number(v) })}
                    error={errorOf(`${at}.timeout_seconds`)}
                  />
                  <TextInput
                    w="100%"
                    label={t('Error text')}
                    value={node.error_text ?? ''}
                    onChange={(e) => patchNode(i, { error_text: e.currentTarget.value })}
                    error={errorOf(`${at}.error_text`)}
                  />
                  {handle(t('On error goes to'), node.on_error, (v) => patchNode(i, { on_error: v }), errorOf(`${at}.on_error`))}
                </Group>
              )}
              {node.type === 'router' &&
                (node.conditions ?? []).map((c, j) => (
                  <Group key={j} align="flex-start" gap="xs">
                    <TextInput
                      style={{ flex: 1 }}
                      label={t('Condition')}
                      placeholder='status == "late"'
                      value={c.expression}
                      onChange={(e) =>
                        patchNode(i, {
                          conditions: node.conditions!.map((x, k) => (k === j ? { ...x, expression: e.currentTarget.value } : x)),
                        })
                      }
                      error={errorOf(`${at}.conditions.${j}.expression`)}
                    />
                    {handle(
                      t('Goes to'),
                      c.next,
                      (v) => patchNode(i, { conditions: node.conditions!.map((x, k) => (k === j ? { ...x, next: v } : x)) }),
                      errorOf(`${at}.conditions.${j}.next`),
                    )}
                  </Group>
                ))}
              {node.type === 'set_variables' &&
                (node.variables ?? []).map((v, j) => (
                  <Group key={j} align="flex-start" gap="xs">
                    <TextInput
                      label={t('Variable')}
                      value={v.name}
                      onChange={(e) =>
                        patchNode(i, { variables: node.variables!.map((x, k) => (k === j ? { ...x, name: e.currentTarget.value } : x)) })
                      }
                      error={errorOf(`${at}.variables.${j}.name`)}
                    />
                    <TextInput
                      style={{ flex: 1 }}
                      label={t('Value')}
                      value={v.value}
                      onChange={(e) =>
                        patchNode(i, { variables: node.variables!.map((x, k) => (k === j ? { ...x, value: e.currentTarget.value } : x)) })
                      }
                    />
                  </Group>
                ))}
              {node.type === 'transfer' && (
                <Select
                  w={260}
                  label={t('Sector')}
                  data={(sectors.data ?? []).map((s) => ({ value: s.uuid, label: s.name }))}
                  value={node.sector_uuid ?? null}
                  onChange={(v) => patchNode(i, { sector_uuid: v })}
                  error={errorOf(`${at}.sector_uuid`)}
                />
              )}
              {node.type !== 'options' &&
                node.type !== 'transfer' &&
                node.type !== 'end' &&
                handle(
                  node.type === 'router' ? t('Otherwise goes to') : t('Goes to'),
                  node.next,
                  (v) => patchNode(i, { next: v }),
                  errorOf(`${at}.next`),
                )}
            </Stack>
          </Paper>
        );
      })}
      <Group>
        <Select
          w={220}
          placeholder={t('Add a step')}
          aria-label={t('Add a step')}
          data={BOT_NODE_TYPES.filter((x) => x !== 'start').map((x) => ({ value: x, label: t(NODE_LABEL[x]) }))}
          value={null}
          onChange={(v) => v && addNode(v as BotNodeType)}
          leftSection={<IconPlus size={14} />}
        />
        <Button loading={save.isPending} onClick={() => submit(() => save.mutate())}>
          {t('Save')}
        </Button>
      </Group>
    </Stack>
  );
}
