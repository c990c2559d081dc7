import type {
  Template,
  TemplateButtonType,
  TemplateCategory,
  TemplateComponent,
  TemplateHeaderFormat,
  TemplateInput,
} from '@atende/contract';
import {
  TEMPLATE_DEFAULTS,
  templateIssues,
  templateTypeOf,
  templateVariables,
  withoutUnusedExamples,
  type TemplateIssue,
  type TemplateType,
} from '@atende/core';

/**
 * The template form's state and its conversion to and from the submit payload. The
 * rules live in @atende/core (templateIssues); this only shapes the state the way the form edits it.
 */
export type ButtonsKind = 'QUICK_REPLY' | 'CALL_TO_ACTION';

export interface FormButton {
  type: TemplateButtonType;
  text: string;
  url: string;
  phone_number: string;
}

export interface TemplateFormState {
  channel_uuid: string;
  name: string;
  language: string;
  category: TemplateCategory;
  type: TemplateType;
  header: { enabled: boolean; format: TemplateHeaderFormat; text: string };
  body: string;
  footer: { enabled: boolean; text: string };
  buttons: { enabled: boolean; kind: ButtonsKind; items: FormButton[] };
  /** Step 2: examples of the variables ({{n}} values) and the media header's sample link. */
  examples: { header_text: string; header_handle: string; body: string[]; urls: string[] };
}

export const emptyButton = (type: TemplateButtonType): FormButton => ({ type, text: '', url: '', phone_number: '' });

export function emptyForm(channelUuid = ''): TemplateFormState {
  return {
    channel_uuid: channelUuid,
    name: '',
    language: TEMPLATE_DEFAULTS.language,
    category: TEMPLATE_DEFAULTS.category,
    type: TEMPLATE_DEFAULTS.type,
    header: { enabled: false, format: 'TEXT', text: '' },
    body: '',
    footer: { enabled: false, text: '' },
    buttons: { enabled: false, kind: TEMPLATE_DEFAULTS.buttonsType, items: [] },
    examples: { header_text: '', header_handle: '', body: [], urls: [] },
  };
}

/** Standard means the body only; the optional components go. */
export function withType(form: TemplateFormState, type: TemplateType): TemplateFormState {
  if (type === 'media_interactive') return { ...form, type };
  const blank = emptyForm();
  return { ...form, type, header: blank.header, footer: blank.footer, buttons: blank.buttons };
}

/** Changing the buttons type clears the buttons. */
export function withButtonsKind(form: TemplateFormState, kind: ButtonsKind): TemplateFormState {
  return { ...form, buttons: { ...form.buttons, kind, items: [] } };
}

const MEDIA = new Set<TemplateHeaderFormat>(['IMAGE', 'VIDEO', 'DOCUMENT']);
export const isMediaHeader = (form: TemplateFormState) =>
  form.type === 'media_interactive' && form.header.enabled && MEDIA.has(form.header.format);

/** The payload of a form: only the components switched on, with the examples still used. */
export function toInput(form: TemplateFormState): TemplateInput {
  const components: TemplateComponent[] = [];
  const rich = form.type === 'media_interactive';
  if (rich && form.header.enabled) {
    const isText = form.header.format === 'TEXT';
    components.push({
      type: 'HEADER',
      format: form.header.format,
      ...(isText ? { text: form.header.text } : {}),
      example: {
        ...(isText && form.examples.header_text ? { header_text: [form.examples.header_text] } : {}),
        ...(MEDIA.has(form.header.format) && form.examples.header_handle ? { header_handle: [form.examples.header_handle] } : {}),
      },
    });
  }
  components.push({ type: 'BODY', text: form.body, example: { body_text: [[...form.examples.body].map((v) => v ?? '')] } });
  if (rich && form.footer.enabled) components.push({ type: 'FOOTER', text: form.footer.text });
  if (rich && form.buttons.enabled) {
    components.push({
      type: 'BUTTONS',
      buttons: form.buttons.items.map((b, i) => ({
        type: b.type,
        text: b.text,
        ...(b.type === 'URL' ? { url: b.url, ...(form.examples.urls[i] ? { example: [form.examples.urls[i]!] } : {}) } : {}),
        ...(b.type === 'PHONE_NUMBER' ? { phone_number: b.phone_number } : {}),
      })),
    });
  }
  return withoutUnusedExamples({ name: form.name.trim(), category: form.category, language: form.language, components });
}

/** A stored template back into the form, for editing. */
export function fromTemplate(template: Template): TemplateFormState {
  const form = emptyForm(template.channel.uuid);
  form.name = template.name;
  form.language = template.config.language;
  form.category = template.config.category;
  form.type = templateTypeOf(template.config.components);
  for (const c of template.config.components) {
    if (c.type === 'HEADER') {
      form.header = { enabled: true, format: c.format, text: c.text ?? '' };
      form.examples.header_text = c.example?.header_text?.[0] ?? '';
      form.examples.header_handle = c.example?.header_handle?.[0] ?? '';
    } else if (c.type === 'BODY') {
      form.body = c.text;
      form.examples.body = [...(c.example?.body_text?.[0] ?? [])];
    } else if (c.type === 'FOOTER') {
      form.footer = { enabled: true, text: c.text };
    } else {
      const quick = c.buttons.every((b) => b.type === 'QUICK_REPLY');
      form.buttons = {
        enabled: true,
        kind: quick ? 'QUICK_REPLY' : 'CALL_TO_ACTION',
        items: c.buttons.map((b) => ({ type: b.type, text: b.text, url: b.url ?? '', phone_number: b.phone_number ?? '' })),
      };
      form.examples.urls = c.buttons.map((b) => b.example?.[0] ?? '');
    }
  }
  return form;
}

/** The variables step 2 asks examples for. */
export function variablesOf(form: TemplateFormState) {
  const rich = form.type === 'media_interactive';
  return {
    header: rich && form.header.enabled && form.header.format === 'TEXT' ? templateVariables(form.header.text) : [],
    body: templateVariables(form.body),
    urls:
      rich && form.buttons.enabled
        ? form.buttons.items
            .map((b, i) => ({ index: i, used: b.type === 'URL' && templateVariables(b.url).length > 0 }))
            .filter((u) => u.used)
        : [],
    mediaHeader: isMediaHeader(form),
  };
}

/** The first message per field; step 1 leaves the media sample (an example) to step 2. */
export function fieldErrors(
  form: TemplateFormState,
  channelType: string | null,
  mode: 'create' | 'edit',
  step: 1 | 2,
): Record<string, string> {
  const issues: TemplateIssue[] = templateIssues(toInput(form), { channelType, mode });
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    if (step === 1 && issue.path === 'header.example') continue;
    errors[issue.path] ??= issue.message;
  }
  return errors;
}
