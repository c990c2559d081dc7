import {
  fieldMessage,
  HASH_CHANNEL_KIND,
  type ChannelType,
  type TemplateButton,
  type TemplateComponent,
  type TemplateInput,
} from '@atende/contract';
import { maxCharactersMessage } from './text-rules';
import { channelKind, CUSTOM_CHANNEL_TYPES } from './start-conversation';

/**
 * WhatsApp template rules, run by the template form and again by the
 * api, with the spec's messages.
 */
export const TEMPLATE_LIMITS = {
  header: 60,
  footer: 60,
  body: 1024,
  buttonLabel: 25,
  url: 2000,
  phone: 20,
  quickReplies: 3,
  callToActions: 2,
  name: 512,
} as const;
/**
 * Channels offered by the template form; the api takes templates only on these.
 * HASH_CHANNEL_KIND stands for every hash-typed provider channel and 'custom' for the custom API channel's
 * three types (custom, droz, API).
 */
export const TEMPLATE_CHANNEL_TYPES = [
  'whatsapp_360dialog',
  HASH_CHANNEL_KIND,
  'whatsapp_web',
  'custom',
] as const satisfies readonly ChannelType[];
export const isTemplateChannel = (type: string): boolean =>
  (TEMPLATE_CHANNEL_TYPES as readonly string[]).includes(channelKind(type)) || CUSTOM_CHANNEL_TYPES.includes(type);
export const TEMPLATE_URL_HTTPS = fieldMessage('template_button_url_https');
export const TEMPLATE_NAME_PATTERN = /^[a-z0-9]+(_[a-z0-9]+)*$/;
export const TEMPLATE_LANGUAGES = [
  'af',
  'sq',
  'ar',
  'az',
  'bn',
  'bg',
  'ca',
  'zh_CN',
  'zh_HK',
  'zh_TW',
  'hr',
  'cs',
  'da',
  'nl',
  'en',
  'en_GB',
  'en_US',
  'et',
  'fil',
  'fi',
  'fr',
  'ka',
  'de',
  'el',
  'gu',
  'ha',
  'he',
  'hi',
  'hu',
  'id',
  'ga',
  'it',
  'ja',
  'kn',
  'kk',
  'rw_RW',
  'ko',
  'ky_KG',
  'lo',
  'lv',
  'lt',
  'mk',
  'ms',
  'ml',
  'mr',
  'nb',
  'fa',
  'pl',
  'pt_BR',
  'pt_PT',
  'pa',
  'ro',
  'ru',
  'sr',
  'sk',
  'sl',
  'es',
  'es_AR',
  'es_ES',
  'es_MX',
  'sw',
  'sv',
  'ta',
  'te',
  'th',
  'tr',
  'uk',
  'ur',
  'uz',
  'vi',
  'zu',
] as const;
/** Only pt_BR is offered in the form. */
export const FORM_TEMPLATE_LANGUAGES = ['pt_BR'] as const;
export const TEMPLATE_DEFAULTS = { language: 'pt_BR', category: 'MARKETING', type: 'standard', buttonsType: 'QUICK_REPLY' } as const;
export const AUTHENTICATION_EDIT_MESSAGE = fieldMessage('template_authentication_edit');
export const EDIT_LOCKED_FIELDS = ['channel', 'name', 'category'] as const;
export const TEMPLATE_MESSAGES = {
  created: 'Template criado com sucesso',
  edited: 'Template editado com sucesso',
  deleted: 'Template deletado com sucesso',
  confirmDelete: 'Are you sure? This cannot be undone.',
  empty: 'No templates found',
  noVariables: 'No variables are used in this template',
} as const;

export type TemplateType = 'standard' | 'media_interactive';
/** Standard templates are text only: a body and nothing else. */
export const templateTypeOf = (components: readonly TemplateComponent[]): TemplateType =>
  components.every((c) => c.type === 'BODY') ? 'standard' : 'media_interactive';

/** APPROVED online (green); PENDING, IN_APPEAL, PENDING_DELETION paused (amber); others offline (red). */
export function templateStatusTone(status: string): 'online' | 'paused' | 'offline' {
  const s = status.toUpperCase();
  if (s === 'APPROVED') return 'online';
  return s === 'PENDING' || s === 'IN_APPEAL' || s === 'PENDING_DELETION' ? 'paused' : 'offline';
}

const VARIABLE = /\{\{(\d+)\}\}/g;
/** The distinct {{n}} numbers of a text, in order of first appearance. */
export function templateVariables(text: string): number[] {
  const seen: number[] = [];
  for (const match of text.matchAll(VARIABLE)) {
    const n = Number(match[1]);
    if (!seen.includes(n)) seen.push(n);
  }
  return seen;
}

/** {{n}} replaced by params[n-1] when that is a non-empty string; other placeholders stay. */
export function renderTemplateText(text: string, params: readonly (string | null | undefined)[]): string {
  return text.replace(VARIABLE, (whole, n: string) => {
    const value = params[Number(n) - 1];
    return typeof value === 'string' && value !== '' ? value : whole;
  });
}

const MEDIA_FORMATS = new Set(['IMAGE', 'VIDEO', 'DOCUMENT']);

/** Examples no longer needed are removed before submit. */
export function withoutUnusedExamples(input: TemplateInput): TemplateInput {
  const components = input.components.map((c): TemplateComponent => {
    if (c.type === 'HEADER') {
      const headerText = c.format === 'TEXT' && templateVariables(c.text ?? '').length > 0 ? c.example?.header_text : undefined;
      const handle = MEDIA_FORMATS.has(c.format) ? c.example?.header_handle : undefined;
      const { example: _example, ...rest } = c;
      const example = { ...(headerText ? { header_text: headerText } : {}), ...(handle ? { header_handle: handle } : {}) };
      return Object.keys(example).length ? { ...rest, example } : rest;
    }
    if (c.type === 'BODY') {
      const count = templateVariables(c.text).length;
      const { example: _example, ...rest } = c;
      const row = c.example?.body_text?.[0];
      return count > 0 && row ? { ...rest, example: { body_text: [row.slice(0, count)] } } : rest;
    }
    if (c.type === 'BUTTONS') {
      return {
        ...c,
        buttons: c.buttons.map((b): TemplateButton => {
          const { example, ...rest } = b;
          return b.type === 'URL' && templateVariables(b.url ?? '').length > 0 && example?.length ? { ...rest, example } : rest;
        }),
      };
    }
    return c;
  });
  return { ...input, components };
}

export interface TemplateIssue {
  path: string;
  message: string;
}

const REQUIRED = fieldMessage('field_required');
const blank = (s: string | undefined) => !s || s.trim() === '';

/** Variables numbered {{1}}..{{n}} without gaps. */
function sequenceIssue(text: string, path: string): TemplateIssue[] {
  const vars = [...templateVariables(text)].sort((a, b) => a - b);
  return vars.some((n, i) => n !== i + 1) ? [{ path, message: fieldMessage('template_variables_sequence', { first: '{{1}}' }) }] : [];
}

function buttonIssues(buttons: readonly TemplateButton[]): TemplateIssue[] {
  const issues: TemplateIssue[] = [];
  if (buttons.length === 0) return [{ path: 'buttons', message: fieldMessage('template_buttons_required') }];
  const quick = buttons.filter((b) => b.type === 'QUICK_REPLY').length;
  const cta = buttons.length - quick;
  if (quick > 0 && cta > 0) issues.push({ path: 'buttons', message: fieldMessage('template_buttons_mixed') });
  if (quick > TEMPLATE_LIMITS.quickReplies)
    issues.push({ path: 'buttons', message: fieldMessage('template_quick_replies_too_many', { max: TEMPLATE_LIMITS.quickReplies }) });
  if (cta > TEMPLATE_LIMITS.callToActions)
    issues.push({ path: 'buttons', message: fieldMessage('template_call_to_actions_too_many', { max: TEMPLATE_LIMITS.callToActions }) });
  if (buttons.filter((b) => b.type === 'URL').length > 1 || buttons.filter((b) => b.type === 'PHONE_NUMBER').length > 1) {
    issues.push({ path: 'buttons', message: fieldMessage('template_call_to_action_repeated') });
  }
  buttons.forEach((b, i) => {
    if (blank(b.text)) issues.push({ path: `buttons.${i}.text`, message: REQUIRED });
    else if (b.text.length > TEMPLATE_LIMITS.buttonLabel)
      issues.push({ path: `buttons.${i}.text`, message: maxCharactersMessage(TEMPLATE_LIMITS.buttonLabel) });
    else if (b.text.includes('.')) issues.push({ path: `buttons.${i}.text`, message: fieldMessage('template_button_dots') });
    if (b.type === 'URL') {
      if (blank(b.url)) issues.push({ path: `buttons.${i}.url`, message: REQUIRED });
      else if (b.url!.length > TEMPLATE_LIMITS.url)
        issues.push({ path: `buttons.${i}.url`, message: maxCharactersMessage(TEMPLATE_LIMITS.url) });
      // Customers tap it on their phone: only an https page, never javascript:, data: or plain http.
      else if (!/^https:\/\/[^\s/?#]+/i.test(b.url!.trim())) issues.push({ path: `buttons.${i}.url`, message: TEMPLATE_URL_HTTPS });
    }
    if (b.type === 'PHONE_NUMBER') {
      if (blank(b.phone_number)) issues.push({ path: `buttons.${i}.phone_number`, message: REQUIRED });
      else if (b.phone_number!.length > TEMPLATE_LIMITS.phone)
        issues.push({ path: `buttons.${i}.phone_number`, message: maxCharactersMessage(TEMPLATE_LIMITS.phone) });
    }
  });
  return issues;
}

function componentIssues(components: readonly TemplateComponent[]): TemplateIssue[] {
  const issues: TemplateIssue[] = [];
  for (const c of components) {
    if (c.type === 'HEADER') {
      if (c.format === 'TEXT') {
        const text = c.text ?? '';
        if (blank(text)) issues.push({ path: 'header.text', message: REQUIRED });
        else if (text.length > TEMPLATE_LIMITS.header)
          issues.push({ path: 'header.text', message: maxCharactersMessage(TEMPLATE_LIMITS.header) });
        else if (templateVariables(text).length > 1)
          issues.push({ path: 'header.text', message: fieldMessage('template_header_one_variable') });
        else issues.push(...sequenceIssue(text, 'header.text'));
      } else if (MEDIA_FORMATS.has(c.format) && !(c.example?.header_handle ?? []).some((h) => !blank(h))) {
        issues.push({ path: 'header.example', message: REQUIRED });
      }
    } else if (c.type === 'BODY') {
      if (blank(c.text)) issues.push({ path: 'body.text', message: REQUIRED });
      else if (c.text.length > TEMPLATE_LIMITS.body)
        issues.push({ path: 'body.text', message: fieldMessage('template_body_too_long', { max: TEMPLATE_LIMITS.body }) });
      else issues.push(...sequenceIssue(c.text, 'body.text'));
    } else if (c.type === 'FOOTER') {
      if (blank(c.text)) issues.push({ path: 'footer.text', message: REQUIRED });
      else if (c.text.length > TEMPLATE_LIMITS.footer)
        issues.push({ path: 'footer.text', message: maxCharactersMessage(TEMPLATE_LIMITS.footer) });
    } else {
      issues.push(...buttonIssues(c.buttons));
    }
  }
  return issues;
}

/** Every rule of the input breaks, with the field it belongs to. */
export function templateIssues(input: TemplateInput, ctx: { channelType: string | null; mode: 'create' | 'edit' }): TemplateIssue[] {
  const issues: TemplateIssue[] = [];
  if (!ctx.channelType) issues.push({ path: 'channel', message: fieldMessage('campaign_channel_required') });
  else if (!isTemplateChannel(ctx.channelType)) issues.push({ path: 'channel', message: fieldMessage('template_channel_unsupported') });
  if (blank(input.name)) issues.push({ path: 'name', message: REQUIRED });
  else if (input.name.length > TEMPLATE_LIMITS.name) issues.push({ path: 'name', message: maxCharactersMessage(TEMPLATE_LIMITS.name) });
  else if (!TEMPLATE_NAME_PATTERN.test(input.name)) issues.push({ path: 'name', message: fieldMessage('template_name_format') });
  if (!(TEMPLATE_LANGUAGES as readonly string[]).includes(input.language))
    issues.push({ path: 'language', message: fieldMessage('language_invalid') });
  if (input.category === 'AUTHENTICATION') {
    issues.push({
      path: 'category',
      message: ctx.mode === 'create' ? fieldMessage('template_authentication_create') : AUTHENTICATION_EDIT_MESSAGE,
    });
  }
  const count = (type: TemplateComponent['type']) => input.components.filter((c) => c.type === type).length;
  if (count('BODY') !== 1 || count('HEADER') > 1 || count('FOOTER') > 1 || count('BUTTONS') > 1)
    issues.push({ path: 'components', message: fieldMessage('template_components_invalid') });
  if (ctx.channelType === 'whatsapp_web' && templateTypeOf(input.components) !== 'standard') {
    issues.push({ path: 'type', message: fieldMessage('template_standard_only') });
  }
  issues.push(...componentIssues(input.components));
  return issues;
}

/**
 * A campaign subscriber's numbered parameters, in the order of the import file's columns 1..n:
 * the header text's variable, the body's variables, then each URL button's variable part.
 */
export function templateParameterSlots(
  components: readonly TemplateComponent[],
): ({ part: 'header' | 'body'; n: number } | { part: 'url'; button: number })[] {
  const slots: ({ part: 'header' | 'body'; n: number } | { part: 'url'; button: number })[] = [];
  const header = components.find((c) => c.type === 'HEADER');
  if (header?.type === 'HEADER' && header.format === 'TEXT')
    for (const n of templateVariables(header.text ?? '').sort((a, b) => a - b)) slots.push({ part: 'header', n });
  const body = components.find((c) => c.type === 'BODY');
  if (body?.type === 'BODY') for (const n of templateVariables(body.text).sort((a, b) => a - b)) slots.push({ part: 'body', n });
  const buttons = components.find((c) => c.type === 'BUTTONS');
  if (buttons?.type === 'BUTTONS')
    buttons.buttons.forEach(
      (b, i) => b.type === 'URL' && templateVariables(b.url ?? '').length > 0 && slots.push({ part: 'url', button: i }),
    );
  return slots;
}

/** The body a subscriber received: the template's body with the body slots of their parameters. */
export function templateBodyFor(components: readonly TemplateComponent[], parameters: readonly string[]): string {
  const body = components.find((c) => c.type === 'BODY');
  if (body?.type !== 'BODY') return '';
  const values = templateParameterSlots(components).flatMap((slot, i) => (slot.part === 'body' ? [parameters[i] ?? ''] : []));
  return renderTemplateText(body.text, values);
}

/**
 * Why a subscriber row is refused, as stored on the row: written by the import and by
 * dispatch, read back by a campaign's duplicate (a refused row stays refused in the copy).
 */
export const SUBSCRIBER_REFUSALS = {
  noName: 'Name is required',
  badPhone: 'Número de telefone inválido',
  parameter: (n: number) => `Parameter ${n} is required`,
  /** The parameter refusal as a SQL LIKE pattern. */
  parameterLike: 'Parameter % is required',
} as const;

/** The 1-based number of the first parameter a subscriber lacks (empty or absent), or null. */
export function missingParameter(parameters: readonly string[], needed: number): number | null {
  for (let i = 0; i < needed; i++) if (!parameters[i]?.trim()) return i + 1;
  return null;
}

export const templateParameterCount = (components: readonly TemplateComponent[]): number => templateParameterSlots(components).length;

/**
 * The import file's column of each parameter slot, named after the template's placeholder
 *: header_N and body_N for {{N}} of the header text and body, button_N_url for the
 * variable part of the URL of button N. Files may still name them 1..n (their position).
 */
export const templateParameterNames = (components: readonly TemplateComponent[]): string[] =>
  templateParameterSlots(components).map((slot) => (slot.part === 'url' ? `button_${slot.button + 1}_url` : `${slot.part}_${slot.n}`));

/** The texts of a template's quick-reply buttons: the keys of a campaign's reply actions. */
export function quickReplyTexts(components: readonly { type: string; buttons?: readonly { type: string; text: string }[] }[]): string[] {
  return components.flatMap((c) =>
    c.type === 'BUTTONS' ? (c.buttons ?? []).filter((b) => b.type === 'QUICK_REPLY').map((b) => b.text) : [],
  );
}
