// The messages the request schemas and the shared rules (packages/core) give a field they refuse, by
// code. Without zod: the web loads it beside error-status.ts to word a message by its code.
import type { ErrorCode } from './error-status';

/**
 * The one place each field message lives: the contract's schemas, the channels' settings and the
 * rules of packages/core take their text from here (`fieldMessage`), the api answers a refused field
 * with the code of its message (`fieldCodeOfMessage`), and the web words that code in the UI's
 * language. `{{name}}` marks a value the text carries, sent as the field's `params`. Every code is a
 * 400 of ERROR_STATUS, and no two codes share a text (a text finds its code). The English texts are
 * what API users read in `message`.
 */
export const FIELD_MESSAGES = {
  // Shared with the codes zod's checks give (same words).
  field_required: 'This field is required',
  field_too_long: '{{max}} characters maximum',
  field_too_small: 'Must be at least {{min}}',
  field_too_big: 'Must be at most {{max}}',
  missing_parameters: 'Missing parameters',
  required: 'Required',
  name_required: 'Name is required',
  message_required: 'Message is required',
  id_invalid: 'Invalid id',
  state_invalid: 'Invalid state',
  url_invalid: 'Invalid URL',
  email_invalid: 'Please insert a valid e-mail',
  email_required: 'Email is required',
  integer_required: 'Must be an integer',
  whole_number_required: 'Use a whole number',
  date_format_invalid: 'Use the date format YYYY-MM-DD',
  // Texts in the spec's Portuguese, shown as given in both languages.
  field_max_characters: 'Máximo de {{max}} caracteres',
  phone_required: 'Número de telefone é obrigatório',
  phone_invalid: 'Número de telefone inválido',
  conversation_field_name_required: 'Campo obrigatório',
  conversation_field_value_required: 'Valor é obrigatório',
  dnd_list_choice_required: 'Deve ser escolhida pelo menos uma lista',
  // reports
  report_type_invalid: 'Invalid report type',
  campaign_invalid: 'Invalid campaign',
  // automations
  automation_trigger_required: 'Choose when it runs',
  automation_field_required: 'Choose what to compare',
  automation_operator_required: 'Choose how to compare',
  automation_operation_required: 'Choose an operation',
  minutes_required: 'Minutes are required',
  minutes_whole: 'Whole minutes only',
  minutes_too_few: 'At least 1 minute',
  minutes_too_many: 'At most 30 days',
  // campaigns
  campaign_name_too_long: 'Name must have less than {{max}} characters',
  campaign_channel_required: 'Channel is required',
  campaign_template_choice_required: 'Please, select a template',
  desired_state_invalid: 'Invalid desired state',
  entry_point_type_invalid: 'Invalid entry point type',
  // channels
  channel_type_invalid: 'Invalid channel type',
  channel_invalid: 'Invalid channel',
  channel_unknown: 'Channel not found',
  entry_point_invalid: 'Invalid entry point',
  page_id_invalid: "page_id is the page's numeric id",
  instagram_account_id_invalid: "instagram_account_id is the account's numeric id",
  graph_version_invalid: 'graph_version looks like v21.0',
  base_url_invalid: 'base_url must be an http(s) address',
  smtp_host_required: 'smtp_host is required',
  smtp_host_invalid: 'smtp_host must be a host name or an IP address',
  from_address_invalid: 'from_address must be an e-mail address',
  imap_host_invalid: 'imap_host must be a host name or an IP address',
  mailbox_name_invalid: 'A mailbox name has no control characters (such as INBOX or Sent)',
  oauth_provider_invalid: 'oauth_provider is google or microsoft',
  // contacts
  search_too_short: 'Should have at least 3 characters',
  // messages
  message_content_required: 'Message content is required',
  message_too_long: 'Message must have at most {{max}} characters',
  upload_too_large: 'Maximum file size exceeded (5 MB)',
  unix_time_invalid: 'Must be a Unix time in seconds',
  contact_identity_required: 'contact.phone or contact.identifier is required',
  inbound_message_content_required: 'message.content is required',
  // livechat
  colour_invalid: 'Use a colour as #rrggbb',
  image_source_invalid: 'Use an uploaded file or an https:// address',
  livechat_title_required: 'The title is required',
  livechat_title_too_long: 'The title must have at most {{max}} characters',
  custom_field_key_required: 'The key is required',
  custom_field_key_characters: 'Use only letters, digits and _ in the key',
  custom_field_key_taken: 'The key is already used by another field',
  custom_field_label_required: 'The label is required',
  custom_field_max_length_range: 'Use a maximum length from 1 to 2000',
  custom_field_validator_too_long: 'The validator must have at most {{max}} characters',
  custom_field_validator_invalid: 'The validator is not a valid regular expression (back-references and lookarounds are not supported)',
  custom_field_validator_too_complex:
    'The validator is too complex: at most {{max}} instructions once compiled (use smaller repetition counts)',
  custom_fields_too_many: 'At most {{max}} custom fields',
  custom_field_unknown: 'Unknown field',
  visitor_name_required: 'Your name is required',
  visitor_name_too_long: 'Your name must have at most 120 characters',
  visitor_email_invalid: 'Invalid email',
  visitor_message_required: 'Write a message',
  // opening hours
  time_format_invalid: 'Use the format HH:MM',
  time_range_order: 'The end must be after the start',
  time_ranges_required: 'Add at least one time range',
  time_ranges_overlap: 'Time ranges must not overlap',
  weekday_required: 'Select at least one weekday',
  weekday_repeated: 'Each weekday may appear once',
  time_zone_invalid: 'Invalid time zone',
  // sectors
  sla_seconds_required: 'Enter a number of seconds',
  sla_seconds_whole: 'Enter a whole number of seconds',
  sla_too_short: 'The SLA must be at least 1 second',
  sla_too_long: 'The SLA must be at most 30 days',
  sector_ticket_message_required: 'The ticket message is required when the ticket is announced',
  // settings
  keyword_too_short: 'The keyword must have at least {{min}} characters',
  keyword_characters: 'The keyword cannot contain spaces or numbers',
  category_label_characters: 'The label cannot contain spaces or numbers',
  // templates
  status_invalid: 'Invalid status',
  category_invalid: 'Invalid category',
  // integrations
  client_name_required: 'Client name is required',
  days_whole: 'Enter a whole number of days',
  days_too_few: 'At least 1 day',
  days_too_many: 'At most 3650 days',
  // tenants and users
  country_code_invalid: 'Invalid country code',
  password_required: 'Password is required',
  password_too_short: 'Password must have at least 8 characters',
  password_too_long: 'Password must have at most 256 characters',
  password_number_required: 'Password must contain at least one number',
  password_letter_required: 'Password must contain letters',
  current_password_required: 'Current password is required',
  password_or_state: 'Change the password or the state, not both',
  password_state_or_profile: 'Change the password, the state or the profile, one at a time',
  user_name_too_long: 'Name must have at most 120 characters',
  user_name_letters_only: 'Name must contain only letters and spaces',
  user_name_min_letters: 'Name must have at least 3 letters',
  role_required: 'Select at least one role',
  sectors_too_many: 'At most 200 sectors',
  page_path_invalid: 'page must be a path of this app',
  reset_code_format: 'The code has 6 digits',
  // The shared rules (packages/core), run by the web's forms and again by the api. Menus:
  invalid_option_message_required: 'Invalid option message is required',
  answers_required: 'Add at least one answer',
  answers_too_many: 'At most {{max}} answers',
  answer_key_required: 'The answer cannot be empty',
  answer_label_required: 'Describe this answer',
  answer_keys_unique: 'Answers must be unique',
  answer_action_required: 'Choose an action for this answer',
  sector_required: 'Sector is required',
  menu_target_required: 'Choose the menu to go to',
  // surveys
  question_required: 'Question is required',
  greeting_message_required: 'Greeting message is required',
  survey_answer_required: 'Answers cannot be empty',
  survey_answer_repeated: 'Repeated answer',
  answers_too_few: 'Add at least {{min}} answers',
  // bots
  bot_start_required: 'The flow needs exactly one Start',
  text_required: 'Text is required',
  bot_invalid_option_message_required: 'The invalid option message is required',
  option_key_required: 'The option key is required',
  option_keys_unique: 'Option keys must be unique',
  options_required: 'Add at least one option',
  prompt_variable_required: 'Name the variable of this prompt',
  variable_name_required: 'Every variable needs a name',
  url_required: 'URL is required',
  error_text_required: 'The error text is required',
  bot_timeout_range: 'The timeout must be between 1 and 30 seconds',
  condition_expression_required: 'Every condition needs an expression',
  bot_expression_invalid: 'Invalid expression: compare values with == != > >= < <= contains, joined by && or ||',
  bot_handle_unconnected: 'Connect this handle to a node',
  bot_handle_target_unknown: 'This handle leads to a node that does not exist',
  // WhatsApp templates (`first` is the text `{{1}}`: the template's own placeholder, not one of ours)
  template_channel_unsupported: 'This channel does not support templates',
  template_name_format: 'Name can only contain lower case alphanumeric characters and underscores',
  language_invalid: 'Invalid language',
  template_authentication_create: 'Authentication templates cannot be created here',
  template_authentication_edit: 'Templates da categoria Autenticação não podem ser editados',
  template_components_invalid: 'Invalid components',
  template_standard_only: 'WhatsApp Web channels only support standard templates',
  template_header_one_variable: 'The header allows one variable',
  template_variables_sequence: 'Variables must be numbered in sequence starting at {{first}}',
  template_body_too_long: '{{max}} maximum characters',
  template_buttons_required: 'At least one button is required',
  template_buttons_mixed: 'Quick reply and call to action buttons cannot be mixed',
  template_quick_replies_too_many: 'Maximum of {{max}} quick reply buttons',
  template_call_to_actions_too_many: 'Maximum of {{max}} call to action buttons',
  template_call_to_action_repeated: 'Only one button of each call to action type',
  template_button_dots: 'Pontos não são permitidos',
  template_button_url_https: 'The button URL must start with https://',
  // the customer's details and the selected-text binding
  digits_only: 'Campo aceita somente números',
  number_too_large: 'Number too large',
  phone_1_locked: 'Telefone 1 não pode ser editado',
  phone_not_e164: 'Texto selecionado não é um telefone válido. Telefones precisam iniciar com o código do país e estar no formato E.164',
  append_not_allowed: 'Text can only be appended to a text field that has a value',
  // starting a conversation, the profile's password
  template_required: 'Template is required',
  initial_message_required: 'Initial message is required',
  subject_required: 'Subject is required',
  password_invalid: 'Invalid password',
  passwords_mismatch: 'The passwords must match',
  // report filters (the api answers them with these codes too)
  report_start_required: 'Please define a start date for this report.',
  report_end_required: 'Please define an end date for this report.',
  report_start_future: 'Cannot load report for a start date in future.',
  report_end_future: 'Cannot load report for an end date in future.',
  report_end_before_start: 'The start date must not be after the end date.',
  report_range_too_long: 'O intervalo máximo é de {{max_days}} dias.',
  report_filter_too_short: 'Filter {{filter}} should have at least {{min}} characters',
  // livechat custom fields
  validators_over_budget:
    "The validators are too costly together: instructions × maximum length, summed over the fields, is at most {{max}} (lower this field's maximum length or simplify a validator)",
  // Last: texts made of a field's label match many messages, so every other text is tried first.
  livechat_field_required: '{{label}} is required',
  livechat_field_too_long: '{{label}} must have at most {{max}} characters',
  livechat_field_invalid: '{{label}} is invalid',
} as const satisfies Partial<Record<ErrorCode, string>>;

export type FieldMessageCode = keyof typeof FIELD_MESSAGES;
/** The codes of the catalogue, in its order. */
export const FIELD_MESSAGE_CODES = Object.keys(FIELD_MESSAGES) as FieldMessageCode[];

/** The names of the `{{name}}` values a text carries. */
type ParamNames<T extends string> = T extends `${string}{{${infer Name}}}${infer Rest}` ? Name | ParamNames<Rest> : never;
/** What `fieldMessage` takes after the code: the text's values, or nothing when it has none. */
type ValuesOf<C extends FieldMessageCode> = [ParamNames<(typeof FIELD_MESSAGES)[C]>] extends [never]
  ? []
  : [values: Record<ParamNames<(typeof FIELD_MESSAGES)[C]>, string | number>];

const PLACEHOLDER = /\{\{(\w+)\}\}/g;

/** A schema's message for a field: the catalogue's English text of `code`, with its values filled in. */
export function fieldMessage<C extends FieldMessageCode>(code: C, ...values: ValuesOf<C>): string {
  const given: Record<string, string | number> = values[0] ?? {};
  return FIELD_MESSAGES[code].replace(PLACEHOLDER, (all, name: string) => String(given[name] ?? all));
}

const EXACT = new Map<string, FieldMessageCode>();
const TEMPLATES: { code: FieldMessageCode; pattern: RegExp; names: string[] }[] = [];
for (const code of FIELD_MESSAGE_CODES) {
  const text: string = FIELD_MESSAGES[code];
  const names = [...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '');
  if (names.length === 0) {
    EXACT.set(text, code);
    continue;
  }
  const source = text
    .split(PLACEHOLDER)
    // split keeps the captured names at odd positions: a value there, the literal text elsewhere.
    .map((part, i) => (i % 2 === 1 ? '(.+?)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  TEMPLATES.push({ code, pattern: new RegExp(`^${source}$`), names });
}

/**
 * The catalogue code (and the values) of a message a schema gave, or undefined for any other text
 * (zod's own words, a rule's message outside the catalogue). Digits-only values come back as numbers.
 */
export function fieldCodeOfMessage(text: string): { code: FieldMessageCode; params?: Record<string, string | number> } | undefined {
  const exact = EXACT.get(text);
  if (exact) return { code: exact };
  for (const { code, pattern, names } of TEMPLATES) {
    const match = pattern.exec(text);
    if (!match) continue;
    const values = match.slice(1);
    const params = Object.fromEntries(
      names.map((name, i) => [name, /^\d+$/.test(values[i] ?? '') ? Number(values[i]) : (values[i] ?? '')]),
    );
    return { code, params };
  }
  return undefined;
}
