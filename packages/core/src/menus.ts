import { fieldMessage } from '@atende/contract';
import { checkRequiredText, foldTrimmed, maxCharactersMessage, type FieldIssue } from './text-rules';

/** Automated menu rules (answers non-empty and unique, each with an action; terminal actions end it). */
export const MENU_LIMITS = { name: 120, message: 2000, key: 20, label: 100, invalid: 1000, maxAnswers: 20 } as const;
export const MENU_ACTIONS = ['transfer_to_sector', 'end_conversation', 'go_to_menu'] as const;
export type MenuActionType = (typeof MENU_ACTIONS)[number];
/** Actions after which the menu stops talking to the contact ("terminal menu actions end execution"). */
export const TERMINAL_MENU_ACTIONS: readonly MenuActionType[] = ['transfer_to_sector', 'end_conversation'];

/** The rules' messages, texts of the contract's catalogue (field-messages.ts). */
export const MENU_MESSAGES = {
  nameRequired: fieldMessage('name_required'),
  messageRequired: fieldMessage('message_required'),
  invalidRequired: fieldMessage('invalid_option_message_required'),
  noAnswers: fieldMessage('answers_required'),
  tooManyAnswers: fieldMessage('answers_too_many', { max: MENU_LIMITS.maxAnswers }),
  answerRequired: fieldMessage('answer_key_required'),
  labelRequired: fieldMessage('answer_label_required'),
  unique: fieldMessage('answer_keys_unique'),
  actionRequired: fieldMessage('answer_action_required'),
  sectorRequired: fieldMessage('sector_required'),
  menuRequired: fieldMessage('menu_target_required'),
  tooLong: maxCharactersMessage,
} as const;

export interface MenuAnswerInput {
  key: string;
  label: string;
  action: { type: MenuActionType | ''; sector_uuid?: string | null; menu_uuid?: string | null; message?: string | null };
}
export interface MenuInput {
  name: string;
  message: string;
  invalid_option_message: string;
  answers: MenuAnswerInput[];
}
export type MenuIssue = FieldIssue;

/** Every broken rule of a menu, with its field's path (answers.N.key, answers.N.action...). */
export function menuIssues(input: MenuInput): MenuIssue[] {
  const issues: MenuIssue[] = [];
  const text = (path: string, value: string, max: number, required: string) => checkRequiredText(issues, path, value, max, required);
  text('name', input.name, MENU_LIMITS.name, MENU_MESSAGES.nameRequired);
  text('message', input.message, MENU_LIMITS.message, MENU_MESSAGES.messageRequired);
  text('invalid_option_message', input.invalid_option_message, MENU_LIMITS.invalid, MENU_MESSAGES.invalidRequired);
  if (input.answers.length === 0) issues.push({ path: 'answers', message: MENU_MESSAGES.noAnswers });
  if (input.answers.length > MENU_LIMITS.maxAnswers) issues.push({ path: 'answers', message: MENU_MESSAGES.tooManyAnswers });
  const seen = new Set<string>();
  input.answers.forEach((answer, i) => {
    const at = `answers.${i}`;
    if (!answer.key.trim()) issues.push({ path: `${at}.key`, message: MENU_MESSAGES.answerRequired });
    else if (answer.key.length > MENU_LIMITS.key) issues.push({ path: `${at}.key`, message: MENU_MESSAGES.tooLong(MENU_LIMITS.key) });
    else if (seen.has(foldTrimmed(answer.key))) issues.push({ path: `${at}.key`, message: MENU_MESSAGES.unique });
    seen.add(foldTrimmed(answer.key));
    text(`${at}.label`, answer.label, MENU_LIMITS.label, MENU_MESSAGES.labelRequired);
    const action = answer.action;
    if (!action.type) issues.push({ path: `${at}.action`, message: MENU_MESSAGES.actionRequired });
    else if (action.type === 'transfer_to_sector' && !action.sector_uuid)
      issues.push({ path: `${at}.action`, message: MENU_MESSAGES.sectorRequired });
    else if (action.type === 'go_to_menu' && !action.menu_uuid) issues.push({ path: `${at}.action`, message: MENU_MESSAGES.menuRequired });
    if (action.message && action.message.length > MENU_LIMITS.invalid)
      issues.push({ path: `${at}.action`, message: MENU_MESSAGES.tooLong(MENU_LIMITS.invalid) });
  });
  return issues;
}

/** The text the contact receives: the menu's message, then one line per answer ("key - label"). */
export function menuPrompt(message: string, answers: readonly { key: string; label: string }[]): string {
  return [message.trim(), '', ...answers.map((a) => `${a.key.trim()} - ${a.label.trim()}`)].join('\n');
}

/** The answer a contact's reply picks: its key or its label, ignoring case, accents and spaces; else -1. */
export function matchMenuAnswer(answers: readonly { key: string; label: string }[], reply: string): number {
  const wanted = foldTrimmed(reply);
  if (!wanted) return -1;
  const byKey = answers.findIndex((a) => foldTrimmed(a.key) === wanted);
  return byKey !== -1 ? byKey : answers.findIndex((a) => foldTrimmed(a.label) === wanted);
}
