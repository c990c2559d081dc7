import {
  CAMPAIGN_NAME_MAX,
  DEFAULT_ACTION,
  ENTRYPOINT_TYPES,
  type Campaign,
  type EntrypointType,
  type ReplyAction,
  type Template,
} from '@atende/contract';

/**
 * The campaign wizard's state: campaign data, the template, and one reply action
 * per quick-reply button plus the default one; its checks with the spec's messages.
 */
export type ActionKind = ReplyAction['action'];

export interface ActionState {
  action: ActionKind | '';
  /** Sector, bot or DND lists, by the action. */
  subAction: string[];
  message: string;
}

export interface WizardState {
  name: string;
  channel_uuid: string;
  schedule: boolean;
  start_at: string;
  dnd_list: string[];
  /** `type:uuid` (sector, menu or bot), '' for none: free text then runs the default action (docs/conversation-entry.md). */
  inbound_entrypoint: string;
  public: boolean;
  /** 'Fechar conversação após envio': broadcast mode. */
  closeAfterSend: boolean;
  template_uuid: string;
  actions: Record<string, ActionState>;
}

export const emptyAction = (): ActionState => ({ action: '', subAction: [], message: '' });

/** A new campaign starts with the tenant's default DND lists selected. */
export function emptyWizard(defaultLists: string[] = []): WizardState {
  return {
    name: '',
    channel_uuid: '',
    schedule: false,
    start_at: '',
    dnd_list: defaultLists,
    inbound_entrypoint: '',
    public: true,
    closeAfterSend: false,
    template_uuid: '',
    actions: { [DEFAULT_ACTION]: emptyAction() },
  };
}

function actionOf(a: ReplyAction): ActionState {
  if (a.action === 'end_dnd') return { action: a.action, subAction: a.dnd_list, message: a.message };
  if (a.action === 'transfer_to_sector') return { action: a.action, subAction: [a.sector_uuid], message: a.message ?? '' };
  if (a.action === 'chatbot_outbound') return { action: a.action, subAction: [a.bot_uuid], message: a.message ?? '' };
  return { action: a.action, subAction: [], message: a.message ?? '' };
}

/**
 * A stored UTC instant as the value of a `datetime-local` input, in the browser's time zone: the
 * input shows and gives back local wall time, so reading the UTC digits would shift the schedule
 * by the zone's offset on every save.
 */
export function localDateTimeInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

export function wizardOf(campaign: Campaign): WizardState {
  return {
    name: campaign.name,
    channel_uuid: campaign.channel.uuid,
    schedule: campaign.start_at !== null,
    start_at: campaign.start_at ? localDateTimeInput(campaign.start_at) : '',
    dnd_list: campaign.dnd_list.map((d) => d.uuid),
    inbound_entrypoint: campaign.inbound_entrypoint
      ? entrypointValue(campaign.inbound_entrypoint.type, campaign.inbound_entrypoint.uuid)
      : '',
    public: campaign.public,
    closeAfterSend: campaign.mode === 'broadcast',
    template_uuid: campaign.template.uuid,
    actions: {
      [DEFAULT_ACTION]: actionOf(campaign.config.default_action),
      ...Object.fromEntries(Object.entries(campaign.config.reply_actions).map(([k, a]) => [k, actionOf(a)])),
    },
  };
}

export const entrypointValue = (type: EntrypointType, uuid: string) => `${type}:${uuid}`;
/** The select's `type:uuid` as the payload's entry point. */
export function entrypointOf(value: string): { uuid: string; type: EntrypointType } | null {
  const [type, uuid] = value.split(':');
  return uuid && (ENTRYPOINT_TYPES as readonly string[]).includes(type ?? '') ? { uuid, type: type as EntrypointType } : null;
}

/** The quick-reply buttons of a template: one reply action each. */
export const quickReplies = (template: Template | undefined): string[] =>
  template?.config.components.flatMap((c) =>
    c.type === 'BUTTONS' ? c.buttons.filter((b) => b.type === 'QUICK_REPLY').map((b) => b.text) : [],
  ) ?? [];

export function dataErrors(s: WizardState): Record<string, string> {
  const e: Record<string, string> = {};
  if (!s.name.trim()) e.name = 'Name is required';
  else if (s.name.trim().length > CAMPAIGN_NAME_MAX) e.name = 'Name must have less than 80 characters';
  if (!s.channel_uuid) e.channel_uuid = 'Channel is required';
  if (s.schedule && !s.start_at) e.start_at = 'A data de agendamento é obrigatória.';
  return e;
}

export function templateErrors(s: WizardState): Record<string, string> {
  return s.template_uuid ? {} : { template_uuid: 'Please, select a template' };
}

export function actionErrors(s: WizardState, buttons: string[]): Record<string, string> {
  const e: Record<string, string> = {};
  for (const key of [DEFAULT_ACTION, ...buttons]) {
    const a = s.actions[key] ?? emptyAction();
    if (!a.action) e[`${key}.action`] = 'Action is required';
    else if (a.action !== 'end_with_message' && a.subAction.length === 0) e[`${key}.subAction`] = 'This field is required';
    if (a.action === 'end_dnd' && !a.message.trim()) e[`${key}.message`] = 'This field is required';
  }
  // A campaign with an opt-out (end_dnd) consults at least one DND list itself.
  const usesDnd = [DEFAULT_ACTION, ...buttons].some((key) => s.actions[key]?.action === 'end_dnd');
  if (usesDnd && s.dnd_list.length === 0) e.dnd_list = 'At least one DND list is required';
  return e;
}

function replyAction(a: ActionState): ReplyAction {
  const message = a.message.trim() || undefined;
  if (a.action === 'end_dnd') return { action: 'end_dnd', dnd_list: a.subAction, message: message ?? '' };
  if (a.action === 'transfer_to_sector') return { action: 'transfer_to_sector', sector_uuid: a.subAction[0]!, message };
  if (a.action === 'chatbot_outbound') return { action: 'chatbot_outbound', bot_uuid: a.subAction[0]!, message };
  return { action: 'end_with_message', message };
}

/** The create (and, without name/channel/template, the edit) payload. */
export function payloadOf(s: WizardState, buttons: string[], lists: { uuid: string; name: string }[]) {
  return {
    mode: s.closeAfterSend ? ('broadcast' as const) : ('conversation' as const),
    inbound_entrypoint: entrypointOf(s.inbound_entrypoint),
    dnd_list: s.dnd_list.map((uuid) => ({ uuid, name: lists.find((l) => l.uuid === uuid)?.name ?? uuid })),
    config: {
      default_action: replyAction(s.actions[DEFAULT_ACTION] ?? emptyAction()),
      reply_actions: Object.fromEntries(buttons.map((b) => [b, replyAction(s.actions[b] ?? emptyAction())])),
    },
    public: s.public,
    start_at: s.schedule && s.start_at ? new Date(s.start_at).toISOString() : null,
  };
}
