import { fieldCodeOfMessage, REPORT_MESSAGES, type TemplateComponent } from '@atende/contract';
import { describe, expect, it } from 'vitest';
import { BOT_MESSAGES, botFlowIssues } from './bots';
import {
  APPEND_NOT_ALLOWED,
  INVALID_EMAIL,
  INVALID_PHONE,
  maxLengthMessage,
  NOT_E164_PHONE,
  NUMBER_TOO_LARGE,
  ONLY_NUMBERS,
  PHONE1_READ_ONLY,
  REQUIRED,
} from './contact-form';
import { livechatFieldProblem, VALIDATORS_OVER_BUDGET } from './livechat';
import { MENU_MESSAGES, menuIssues } from './menus';
import { ProfilePasswordFormSchema } from './password';
import { reportFilterIssues } from './report-filters';
import { newContactFormSchema, startConversationFormSchema } from './start-conversation';
import { SURVEY_MESSAGES, surveyIssues } from './surveys';
import { AUTHENTICATION_EDIT_MESSAGE, TEMPLATE_URL_HTTPS, templateIssues } from './templates';

/** The messages the contract's catalogue (field-messages.ts) has no code for. */
const uncatalogued = (messages: readonly string[]) => messages.filter((message) => !fieldCodeOfMessage(message));
const texts = (table: Record<string, unknown>) => Object.values(table).filter((v): v is string => typeof v === 'string');

// The web words a rule's message by its catalogue code, and so does the api's answer: none may be
// written outside the catalogue.
describe("the shared rules' messages", () => {
  it('are texts of the catalogue, values included', () => {
    const constants = [
      ...texts(MENU_MESSAGES),
      ...texts(SURVEY_MESSAGES),
      ...texts(BOT_MESSAGES),
      ...texts(REPORT_MESSAGES),
      MENU_MESSAGES.tooLong(20),
      TEMPLATE_URL_HTTPS,
      AUTHENTICATION_EDIT_MESSAGE,
      VALIDATORS_OVER_BUDGET,
      REQUIRED,
      INVALID_EMAIL,
      INVALID_PHONE,
      ONLY_NUMBERS,
      NUMBER_TOO_LARGE,
      PHONE1_READ_ONLY,
      NOT_E164_PHONE,
      APPEND_NOT_ALLOWED,
      maxLengthMessage(2000),
    ];
    expect(constants.length).toBeGreaterThan(50);
    expect(uncatalogued(constants)).toEqual([]);
    expect(fieldCodeOfMessage(MENU_MESSAGES.tooManyAnswers)).toEqual({ code: 'answers_too_many', params: { max: 20 } });
    expect(fieldCodeOfMessage(SURVEY_MESSAGES.tooMany)).toEqual({ code: 'answers_too_many', params: { max: 10 } });
    expect(fieldCodeOfMessage(REPORT_MESSAGES.range)).toEqual({ code: 'report_range_too_long', params: { max_days: 31 } });
  });

  it('are what the rules give for broken input', () => {
    const menu = menuIssues({
      name: '',
      message: 'x'.repeat(3000),
      invalid_option_message: '',
      answers: [
        { key: '', label: '', action: { type: '' } },
        { key: 'a', label: 'A', action: { type: 'transfer_to_sector' } },
        { key: 'A ', label: 'B', action: { type: 'go_to_menu', message: 'x'.repeat(1001) } },
      ],
    });
    const survey = surveyIssues({ name: '', question: '', options: ['Yes', 'yes', ''], greeting_message: '' });
    const bot = botFlowIssues('', [
      { id: 'o', type: 'options', options: [{ key: '', label: '' }], next: 'gone' },
      { id: 'p', type: 'prompt', text: 'x' },
      { id: 'h', type: 'http', url: '', timeout_seconds: 99 },
      { id: 'r', type: 'router', conditions: [{ expression: 'x ==', next: 'o' }] },
      { id: 't', type: 'transfer' },
    ]);
    const header: TemplateComponent = { type: 'HEADER', format: 'TEXT', text: '{{1}} {{2}}' };
    const badButtons: TemplateComponent = {
      type: 'BUTTONS',
      buttons: [
        { type: 'QUICK_REPLY', text: 'a.b' },
        { type: 'URL', text: 'x'.repeat(30), url: 'http://x' },
        { type: 'URL', text: 'y', url: '' },
        { type: 'PHONE_NUMBER', text: 'z', phone_number: '1'.repeat(30) },
      ],
    };
    const template = [
      ...templateIssues(
        { name: 'Bad Name', category: 'AUTHENTICATION', language: 'xx', components: [header, { type: 'BODY', text: '{{2}}' }, badButtons] },
        { channelType: 'whatsapp_web', mode: 'create' },
      ),
      ...templateIssues(
        { name: '', category: 'AUTHENTICATION', language: 'pt_BR', components: [{ type: 'FOOTER', text: 'x'.repeat(61) }] },
        { channelType: 'telegram', mode: 'edit' },
      ),
      ...templateIssues({ name: 'a', category: 'MARKETING', language: 'pt_BR', components: [] }, { channelType: null, mode: 'create' }),
    ];
    const report = [
      ...reportFilterIssues({ start: '', end: '2099-01-01', text: { contact: 'ab' } }, '2026-01-10'),
      ...reportFilterIssues({ start: '2026-01-09', end: '2026-01-01' }, '2026-01-10'),
    ];
    const zodMessages = [
      ...(startConversationFormSchema([]).safeParse({ channel_uuid: 'x', template_uuid: '', initial_message: '' }).error?.issues ?? []),
      ...(newContactFormSchema('BR').safeParse({ name: 'x'.repeat(201), organization: '', phone1: '1' }).error?.issues ?? []),
      ...(ProfilePasswordFormSchema.safeParse({ old_password: '', password: 'abc', confirm_password: 'x' }).error?.issues ?? []),
    ].map((issue) => issue.message);
    const livechat = [
      livechatFieldProblem({ key: 'k', label: 'CPF', required: true, max_length: 3, validator: null, validator_message: null }, ''),
      livechatFieldProblem({ key: 'k', label: 'CPF', required: true, max_length: 3, validator: null, validator_message: null }, 'abcd'),
      livechatFieldProblem({ key: 'k', label: 'CPF', required: true, max_length: 9, validator: '\\d+', validator_message: null }, 'abc'),
    ].filter((m): m is string => m !== null);
    const messages = [...[...menu, ...survey, ...bot, ...template, ...report].map((issue) => issue.message), ...zodMessages, ...livechat];
    expect(messages.length).toBeGreaterThan(50);
    expect(uncatalogued(messages)).toEqual([]);
  });
});
