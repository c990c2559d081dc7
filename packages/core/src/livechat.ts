import {
  checkUserPattern,
  fieldMessage,
  LIVECHAT_FIELD_MAX_LENGTH,
  LivechatAppearanceSchema,
  livechatValidatorProblem,
  matchesUserPattern,
  USER_PATTERN_WORK_MAX,
  type LivechatAppearance,
} from '@atende/contract';
import type { FieldIssue } from './text-rules';

/** A custom field as the pre-chat form and the api check it (label, max length, validator regex). */
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
 * What becomes of each field's validator: `run`; `none` (no validator); `unusable` (RE2 cannot
 * compile it or it is over USER_PATTERN_PROGRAM_MAX); `over_budget` (running it as well would take
 * the form past USER_PATTERN_WORK_MAX, program size × the field's maximum length summed in field
 * order). The api refuses to save the last two, so only a channel saved before those limits has them;
 * such validators are not run, by the api and the widget alike, so no request holds the event loop
 *.
 */
export type ValidatorPlan = 'run' | 'none' | 'unusable' | 'over_budget';

export function livechatValidatorPlan(fields: readonly LivechatFieldRule[]): ValidatorPlan[] {
  let work = 0;
  return fields.map((field) => {
    if (!field.validator) return 'none';
    const check = livechatValidatorProblem(field.validator) === null ? checkUserPattern(field.validator) : null;
    if (!check?.ok) return 'unusable';
    const cost = check.size * fieldMaxLength(field);
    if (work + cost > USER_PATTERN_WORK_MAX) return 'over_budget';
    work += cost;
    return 'run';
  });
}

const fieldMaxLength = (field: Pick<LivechatFieldRule, 'max_length'>) => Math.max(0, Math.min(field.max_length, LIVECHAT_FIELD_MAX_LENGTH));

/**
 * The visitor's value for one custom field: the message to show, or null when it is fine. Its
 * validator runs only when `plan` says so (livechatValidatorPlan), and only ever on a value already
 * capped to the field's maximum length (at most 2000 characters).
 */
export function livechatFieldProblem(
  field: LivechatFieldRule,
  raw: string | undefined,
  plan: ValidatorPlan = livechatValidatorPlan([field])[0]!,
): string | null {
  return livechatFieldIssue(field, raw, plan)?.message ?? null;
}

/**
 * The same, with what words it: a message of the catalogue, or the field's own validator message
 * (the admin's words, in the language they wrote it) with its code and the text as `message`.
 */
export function livechatFieldIssue(
  field: LivechatFieldRule,
  raw: string | undefined,
  plan: ValidatorPlan = livechatValidatorPlan([field])[0]!,
): Omit<FieldProblem, 'path'> | null {
  const value = (raw ?? '').trim();
  if (!value) return field.required ? { message: fieldMessage('livechat_field_required', { label: field.label }) } : null;
  const max = fieldMaxLength(field);
  if (value.length > max) return { message: fieldMessage('livechat_field_too_long', { label: field.label, max }) };
  // The whole value must match (RE2, linear time).
  if (plan === 'run' && field.validator && !matchesUserPattern(field.validator, value)) {
    const own = field.validator_message?.trim();
    if (own) return { message: own, code: 'livechat_field_pattern_mismatch', params: { message: own } };
    return { message: fieldMessage('livechat_field_invalid', { label: field.label }) };
  }
  return null;
}

/** Every problem of a pre-chat form's custom fields, plus keys the channel does not have. */
export function livechatFieldsProblems(fields: readonly LivechatFieldRule[], values: Record<string, string>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const plan = livechatValidatorPlan(fields);
  for (const [index, field] of fields.entries()) {
    const issue = livechatFieldIssue(field, values[field.key], plan[index]);
    if (issue) problems.push({ path: `custom_fields.${field.key}`, ...issue });
  }
  const known = new Set(fields.map((f) => f.key));
  for (const key of Object.keys(values))
    if (!known.has(key)) problems.push({ path: `custom_fields.${key}`, message: fieldMessage('custom_field_unknown') });
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

export const VALIDATORS_OVER_BUDGET = fieldMessage('validators_over_budget', { max: USER_PATTERN_WORK_MAX });

/** The appearance form's problems by field path (`widget_settings.title`, `custom_fields.0.validator`), the api's rules. */
export function livechatAppearanceProblems(appearance: LivechatAppearance): FieldProblem[] {
  const parsed = LivechatAppearanceSchema.safeParse(appearance);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
  // Each validator must compile for RE2 within the budget, and all of them together
  // stay within the form's work budget, unless the schema already refused it.
  const fields = parsed.success ? parsed.data.custom_fields : [];
  const plan = livechatValidatorPlan(fields);
  (appearance.custom_fields ?? []).forEach((field, index) => {
    const path = `custom_fields.${index}.validator`;
    const problem = typeof field?.validator === 'string' && field.validator ? livechatValidatorProblem(field.validator) : null;
    const message = problem ?? (plan[index] === 'over_budget' ? VALIDATORS_OVER_BUDGET : null);
    if (message && !problems.some((p) => p.path === path)) problems.push({ path, message });
  });
  return problems;
}

/** The snippet an admin pastes into their site: the widget page in a fixed iframe at the bottom right. */
export function livechatEmbedSnippet(origin: string, channelUuid: string): string {
  const url = `${origin.replace(/\/+$/, '')}/livechat/${channelUuid}`;
  return `<iframe src="${url}" title="Chat" style="position:fixed;bottom:16px;right:16px;width:370px;height:560px;border:0;border-radius:12px;box-shadow:0 4px 24px rgba(0,0,0,.2);z-index:2147483000" allow="microphone"></iframe>`;
}
