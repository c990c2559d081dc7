import { LIVECHAT_FIELD_MAX_LENGTH, LivechatAppearanceSchema, livechatValidatorProblem, matchesUserPattern, type LivechatAppearance } from '@atende/contract';
import type { FieldIssue } from './text-rules';

/** A custom field as the pre-chat form and the api check it (spec 002 §3: label, max length, validator regex). */
export interface LivechatFieldRule {
  key: string;
  label: string;
  required: boolean;
  max_length: number;
  validator: string | null;
  validator_message: string | null;
}

type FieldProblem = FieldIssue;

/**
 * The visitor's value for one custom field: the message to show, or null when it is fine. A
 * validator that cannot be used is ignored (the api never stores one), and it only ever runs on a
 * value already capped to the field's maximum length (at most 2000 characters).
 */
export function livechatFieldProblem(field: LivechatFieldRule, raw: string | undefined): string | null {
  const value = (raw ?? '').trim();
  if (!value) return field.required ? `${field.label} is required` : null;
  const max = Math.min(field.max_length, LIVECHAT_FIELD_MAX_LENGTH);
  if (value.length > max) return `${field.label} must have at most ${max} characters`;
  if (field.validator && livechatValidatorProblem(field.validator) === null) {
    // The whole value must match (RE2, linear time: issue 12 item 2).
    if (!matchesUserPattern(field.validator, value.slice(0, max))) return field.validator_message?.trim() || `${field.label} is invalid`;
  }
  return null;
}

/** Every problem of a pre-chat form's custom fields, plus keys the channel does not have. */
export function livechatFieldsProblems(fields: readonly LivechatFieldRule[], values: Record<string, string>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const field of fields) {
    const message = livechatFieldProblem(field, values[field.key]);
    if (message) problems.push({ path: `custom_fields.${field.key}`, message });
  }
  const known = new Set(fields.map((f) => f.key));
  for (const key of Object.keys(values)) if (!known.has(key)) problems.push({ path: `custom_fields.${key}`, message: 'Unknown field' });
  return problems;
}

/** The values kept on the contact (Contact.livechatCustomFields): trimmed, empty ones dropped. */
export function livechatFieldValues(fields: readonly LivechatFieldRule[], values: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of fields) {
    const value = (values[field.key] ?? '').trim();
    if (value) out[field.key] = value;
  }
  return out;
}

/** The appearance form's problems by field path (`widget_settings.title`, `custom_fields.0.validator`), the api's rules. */
export function livechatAppearanceProblems(appearance: LivechatAppearance): FieldProblem[] {
  const parsed = LivechatAppearanceSchema.safeParse(appearance);
  const problems = parsed.success ? [] : parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
  // Each validator must compile for RE2 (issue 12 item 2), unless the schema already refused it.
  (appearance.custom_fields ?? []).forEach((field, index) => {
    const path = `custom_fields.${index}.validator`;
    const problem = typeof field?.validator === 'string' && field.validator ? livechatValidatorProblem(field.validator) : null;
    if (problem && !problems.some((p) => p.path === path)) problems.push({ path, message: problem });
  });
  return problems;
}

/** The snippet an admin pastes into their site: the widget page in a fixed iframe at the bottom right. */
export function livechatEmbedSnippet(origin: string, channelUuid: string): string {
  const url = `${origin.replace(/\/+$/, '')}/livechat/${channelUuid}`;
  return `<iframe src="${url}" title="Chat" style="position:fixed;bottom:16px;right:16px;width:370px;height:560px;border:0;border-radius:12px;box-shadow:0 4px 24px rgba(0,0,0,.2);z-index:2147483000" allow="microphone"></iframe>`;
}
