import { fieldMessage } from '@atende/contract';
import { checkRequiredText, foldTrimmed, maxCharactersMessage, type FieldIssue } from './text-rules';

/** Satisfaction survey rules (Survey, "repeated answers are flagged"), shared by the form and the api. */
export const SURVEY_LIMITS = { name: 120, question: 1000, option: 100, greeting: 1000, minOptions: 2, maxOptions: 10 } as const;
/** The rules' messages, texts of the contract's catalogue (field-messages.ts). */
export const SURVEY_MESSAGES = {
  nameRequired: fieldMessage('name_required'),
  questionRequired: fieldMessage('question_required'),
  greetingRequired: fieldMessage('greeting_message_required'),
  optionRequired: fieldMessage('survey_answer_required'),
  repeated: fieldMessage('survey_answer_repeated'),
  tooFew: fieldMessage('answers_too_few', { min: SURVEY_LIMITS.minOptions }),
  tooMany: fieldMessage('answers_too_many', { max: SURVEY_LIMITS.maxOptions }),
  tooLong: maxCharactersMessage,
} as const;

export interface SurveyInput {
  name: string;
  question: string;
  options: string[];
  greeting_message: string;
}
export type SurveyIssue = FieldIssue;

/** Every broken rule of a survey, with the path of its field (options.N for one answer). */
export function surveyIssues(input: SurveyInput): SurveyIssue[] {
  const issues: SurveyIssue[] = [];
  const text = (path: string, value: string, max: number, required: string) => checkRequiredText(issues, path, value, max, required);
  text('name', input.name, SURVEY_LIMITS.name, SURVEY_MESSAGES.nameRequired);
  text('question', input.question, SURVEY_LIMITS.question, SURVEY_MESSAGES.questionRequired);
  text('greeting_message', input.greeting_message, SURVEY_LIMITS.greeting, SURVEY_MESSAGES.greetingRequired);
  if (input.options.length < SURVEY_LIMITS.minOptions) issues.push({ path: 'options', message: SURVEY_MESSAGES.tooFew });
  if (input.options.length > SURVEY_LIMITS.maxOptions) issues.push({ path: 'options', message: SURVEY_MESSAGES.tooMany });
  const seen = new Set<string>();
  input.options.forEach((option, i) => {
    const path = `options.${i}`;
    if (!option.trim()) issues.push({ path, message: SURVEY_MESSAGES.optionRequired });
    else if (option.length > SURVEY_LIMITS.option) issues.push({ path, message: SURVEY_MESSAGES.tooLong(SURVEY_LIMITS.option) });
    else if (seen.has(foldTrimmed(option))) issues.push({ path, message: SURVEY_MESSAGES.repeated });
    seen.add(foldTrimmed(option));
  });
  return issues;
}

/** The text the contact receives: the question, then the numbered answers. */
export function surveyPrompt(question: string, options: readonly string[]): string {
  return [question.trim(), '', ...options.map((o, i) => `${i + 1}. ${o.trim()}`)].join('\n');
}

/**
 * Which answer a contact's reply picks: its number ("2", "2.", "2)") or its text, ignoring case,
 * accents and surrounding spaces. Anything else is not an answer (null).
 */
export function matchSurveyAnswer(options: readonly string[], reply: string): number | null {
  const text = reply.trim();
  const numbered = /^(\d{1,2})\s*[.)]?$/.exec(text);
  if (numbered) {
    const n = Number(numbered[1]);
    return n >= 1 && n <= options.length ? n - 1 : null;
  }
  const wanted = foldTrimmed(text);
  if (!wanted) return null;
  const index = options.findIndex((o) => foldTrimmed(o) === wanted);
  return index === -1 ? null : index;
}
