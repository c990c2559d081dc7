import type { ErrorCode } from '@atende/contract';
import { FIELD_ERROR_CODES, parseErrorBody } from '@atende/contract/error-status';
import type { ApiError } from '@atende/sdk';
import { phrase } from '../i18n/phrase';

/**
 * The error catalogue: every code the server answers is worded here, in the UI's language, from the
 * code and the values the server sent (`params`), never from the server's English text. Portuguese:
 * i18n/pt/errors.ts, by the same codes. A code without an entry is a type error.
 */
export const ERROR_TEXTS: Record<ErrorCode, string> = {
  bad_request: phrase('Missing parameters'),
  validation_failed: phrase('Missing parameters'),
  outbound_address_not_allowed: phrase('This address is not allowed: it points to this server or a private network'),
  invalid_cursor: phrase('This page link is no longer valid: reload the list from its first page'),
  api_token_lifetime_too_long: phrase('A token can last at most {{max_days}} days'),
  wrong_current_password: phrase('Wrong current password'),
  reset_code_invalid: phrase('The code is wrong or has expired'),
  reset_code_attempts_exceeded: phrase('Too many wrong codes: ask for a new code'),
  unauthorized: phrase('Sign in to continue'),
  invalid_credentials: phrase('Invalid email or password'),
  session_expired: phrase('Your session has expired, sign in again'),
  session_ended: phrase('Your session has ended, sign in again'),
  forbidden: phrase('You do not have permission to do this'),
  plan_locked: phrase("The plan's features and agent slots are changed by the platform's administrators"),
  origin_not_allowed: phrase('This request comes from a site that is not allowed to act on this account'),
  feature_disabled: phrase('Feature not enabled for this tenant'),
  not_found: phrase('Not found'),
  method_not_allowed: phrase('Method not allowed'),
  conflict: phrase('This changed meanwhile; reload and try again'),
  payload_too_large: phrase('Maximum size exceeded ({{max_size}})'),
  unsupported_media_type: phrase('Unsupported content type'),
  unprocessable: phrase('This cannot be done now'),
  rate_limited: phrase('Too many requests, try again in a minute'),
  subscriber_parameter_missing: phrase('Parameter {{n}} is required'),
  subscriber_already_sent: phrase('This subscriber already received the campaign: it cannot be sent it again'),
  subscriber_file_unreadable: phrase('Invalid file! Its text could not be read: save it as CSV (UTF-8) or Excel (.xlsx) and try again'),
  campaign_test_send_refused: phrase('The provider did not accept the test message: {{reason}}'),
  campaign_test_send_dnd: phrase('This number is on a do-not-disturb list of this campaign'),
  menu_referenced: phrase('The menu "{{menu}}" leads to this menu'),
  agent_at_capacity: phrase('This agent already has the maximum of simultaneous conversations ({{capacity}})'),
  file_type_not_allowed: phrase('{{type}} is not supported.'),
  file_content_mismatch: phrase("The file's content is not {{type}}."),
  remote_file_unavailable: phrase('The file could not be downloaded from this address'),
  entrypoint_not_found: phrase('Entry point not found'),
  entrypoint_disabled: phrase('This menu is disabled'),
  dnd_list_required: phrase('At least one DND list is required'),
  template_in_use: phrase('Campaigns use this template: {{campaigns}}'),
  campaign_actions_outdated: phrase("The template's buttons changed: save the campaign's button actions again before starting it"),
  channel_credentials_refused: phrase("The provider refused the channel's credentials: check the token"),
  channel_token_refused: phrase('The provider refused this token'),
  channel_provider_unavailable: phrase('The provider could not be reached to set the channel up; try again shortly'),
  meta_setup_not_configured: phrase('Connecting with Facebook is not set up on this server: ask its operator for the Meta app settings'),
  meta_setup_state_invalid: phrase('This Facebook login is invalid or has expired; connect again'),
  meta_login_refused: phrase('Facebook refused the login (it may have expired); log in again'),
  meta_no_pages: phrase(
    'No page to connect: your Facebook login manages no page (for Instagram, none with a linked Instagram professional account)',
  ),
  meta_page_taken: phrase('This page is already connected to another account'),
  channel_identity_taken: phrase('This page, account, number or bot is already connected to another channel'),
  json_invalid: phrase('The request body is not valid JSON'),
  path_invalid: phrase('Invalid path'),
  field_required: phrase('This field is required'),
  field_invalid: phrase('Invalid value'),
  field_invalid_type: phrase('Invalid value'),
  field_invalid_format: phrase('Invalid format'),
  field_invalid_option: phrase('Choose one of: {{options}}'),
  field_too_short: phrase('At least {{min}} characters'),
  field_too_long: phrase('{{max}} characters maximum'),
  field_too_small: phrase('Must be at least {{min}}'),
  field_too_big: phrase('Must be at most {{max}}'),
  field_unknown_keys: phrase('Unknown field: {{keys}}'),
  api_token_sign_out_refused: phrase('API tokens are revoked in the integrations settings, not signed out'),
  appearance_livechat_only: phrase('Only livechat channels have an appearance'),
  automation_close_last: phrase('Nothing can follow closing the conversation'),
  automation_message_required: phrase('Message is required'),
  boolean_required: phrase('Use true or false'),
  campaign_body_mismatch: phrase('The campaign in the body is not the one in the path'),
  campaign_channel_required: phrase('Channel is required'),
  bot_unknown: phrase('Bot not found'),
  campaign_reply_action_required: phrase('Action is required'),
  campaign_reply_action_unknown_buttons: phrase('The template has no button {{buttons}}'),
  campaign_schedule_locked: phrase('The schedule cannot change once the campaign started'),
  campaign_schedule_past: phrase('The schedule must be in the future'),
  campaign_template_choice_required: phrase('Please, select a template'),
  campaign_template_choice_unapproved: phrase('Você só poderá iniciar a campanha se o modelo estiver aprovado.'),
  channel_cannot_start: phrase('Conversations cannot be started on this channel'),
  channel_settings_missing: phrase('Missing channel settings: {{settings}}'),
  channel_type_not_creatable: phrase('This channel type cannot be created yet'),
  channel_unknown: phrase('Channel not found'),
  contact_no_email: phrase('This contact has no e-mail address'),
  cursor_or_offset: phrase('Use either cursor or _offset, not both'),
  dnd_list_unknown: phrase('Do not disturb list not found'),
  entry_point_unknown: phrase('Entry point not found'),
  file_base64_invalid: phrase('file: not valid base64'),
  file_empty: phrase('The file is empty'),
  file_unreadable: phrase('The file could not be read'),
  initial_message_required: phrase('Initial message is required'),
  integration_token_required: phrase('Enter the API token to turn this integration on'),
  integration_url_domain: phrase("The URL must be on the voice-phone provider's domains: {{domains}}"),
  integration_url_required: phrase('Enter the URL to turn this integration on'),
  json_too_deep: phrase('The request body is nested deeper than {{max_depth}} levels'),
  menu_unknown: phrase('Menu not found'),
  meta_page_not_chosen: phrase('Choose one of the pages of your Facebook login'),
  missing_parameters: phrase('Missing parameters'),
  multipart_file_required: phrase('The multipart field "file" is required'),
  multipart_unreadable: phrase('The multipart body could not be read'),
  note_reply_note_only: phrase('Notas só podem ser respondidas com uma nota'),
  own_admin_role_kept: phrase('You cannot remove your own admin role'),
  own_password_by_profile: phrase('Change your own password in your profile, with your current password'),
  own_user_kept: phrase('You cannot remove yourself'),
  pause_or_online: phrase('Choose a pause or go online, not both'),
  phone_1_locked: phrase('Telefone 1 não pode ser editado'),
  phone_invalid: phrase('Número de telefone inválido'),
  range_end_before_start: phrase('end must be after start'),
  report_end_before_start: phrase('The start date must not be after the end date.'),
  report_end_future: phrase('Cannot load report for an end date in future.'),
  report_end_required: phrase('Please define an end date for this report.'),
  report_filter_too_short: phrase('Filter {{filter}} should have at least {{min}} characters'),
  report_range_too_long: phrase('O intervalo máximo é de {{max_days}} dias.'),
  report_start_future: phrase('Cannot load report for a start date in future.'),
  report_start_required: phrase('Please define a start date for this report.'),
  sector_ticket_message_required: phrase('The ticket message is required when the ticket is announced'),
  sector_unknown: phrase('Sector not found'),
  subject_required: phrase('Subject is required'),
  subscriber_file_columns: phrase('Invalid file! It must have at least name and phone'),
  subscriber_file_not_multipart: phrase('File parameter must be a csv file'),
  subscriber_state_not_editable: phrase('Only pending, error or completed subscribers can be edited'),
  template_cannot_start: phrase('Media or interactive templates cannot start a conversation'),
  template_category_locked: phrase('The category of a template cannot be changed'),
  template_not_approved: phrase('Only approved templates can be used'),
  template_parameters_missing: phrase('Fill in every template parameter'),
  template_required: phrase('Template is required'),
  tenant_integration_managed: phrase('Change {{integration}} through /api/v1/workspaces/me/integrations'),
  text_invalid_characters: phrase('Text may not contain NUL characters or invalid Unicode'),
  uploaded_image_required: phrase('Use an uploaded image'),
  url_https_required: phrase('The URL must start with https://'),
  url_invalid: phrase('Invalid URL'),
  webhook_body_not_json: phrase('The body is not JSON'),
  api_token_expired: phrase('This API token has expired'),
  api_token_invalid: phrase('Invalid API token'),
  chat_session_invalid: phrase('Invalid or expired chat session'),
  chat_session_other_channel: phrase('This chat session belongs to another channel'),
  chat_session_required: phrase('Start a chat session first'),
  channel_token_invalid: phrase('Invalid channel or token'),
  login_code_invalid: phrase('This login code is invalid or has expired'),
  session_token_invalid: phrase('Invalid session token'),
  sign_in_link_invalid: phrase('This sign-in link is invalid or has expired'),
  webhook_signature_invalid: phrase('Invalid signature'),
  accept_own_only: phrase('You can only accept sessions for yourself'),
  api_token_creates_token: phrase('API tokens cannot create API tokens'),
  api_token_switches_domain: phrase('API tokens cannot switch domains'),
  channel_disabled_inbound: phrase('This channel is disabled'),
  conversation_not_yours: phrase('This conversation is not assigned to you'),
  conversations_own_only: phrase('You can only list your own conversations'),
  download_link_expired: phrase('This download link has expired'),
  download_link_invalid: phrase('This download link is not valid'),
  history_own_only: phrase('You can only see your own history'),
  integrations_admin_only: phrase('Only admins can change integrations'),
  internal_notes_disabled: phrase('Internal notes are not enabled for this tenant'),
  livechat_voice_disabled: phrase('Voice messages are not allowed in this chat'),
  owner_edit_owner_only: phrase('Only an owner can edit an owner'),
  owner_password_owner_only: phrase("Only an owner can set an owner's password"),
  owner_remove_owner_only: phrase('Only an owner can remove an owner'),
  owner_role_owner_only: phrase('Only an owner can grant or remove the owner role'),
  owner_sign_off_owner_only: phrase('Only an owner can end the session of an owner'),
  password_own_only: phrase('You can only change your own password'),
  tenant_admin_role_locked: phrase('You cannot grant or remove the tenant_admin role'),
  webhook_verify_token_invalid: phrase('Invalid verify token'),
  agent_not_found: phrase('Agent not found'),
  api_token_not_found: phrase('Token not found'),
  attachment_not_found: phrase('Attachment not found'),
  automation_condition_not_found: phrase('Condition not found'),
  automation_not_found: phrase('Automation not found'),
  automation_operation_not_found: phrase('Operation not found'),
  bot_not_found: phrase('Bot not found'),
  campaign_not_found: phrase('Campaign not found'),
  canned_category_not_found: phrase('Category not found'),
  canned_response_not_found: phrase('Canned response not found'),
  channel_not_found: phrase('Channel not found'),
  contact_not_found: phrase('Contact not found'),
  conversation_field_not_found: phrase('Field not found'),
  conversation_not_found: phrase('Conversation not found'),
  conversation_reason_not_found: phrase('Conversation reason not found'),
  dnd_contact_not_found: phrase('The contact is not on this list'),
  dnd_list_not_found: phrase('Do not disturb list not found'),
  file_not_found: phrase('File not found'),
  finish_reason_not_found: phrase('Finish reason not found'),
  journey_entry_not_found: phrase('Journey entry not found'),
  menu_not_found: phrase('Menu not found'),
  message_not_found: phrase('Message not found'),
  nobody_waiting: phrase('There are no sessions waiting'),
  password_recovery_not_configured: phrase('Password recovery by e-mail is not configured'),
  pause_not_found: phrase('Pause not found'),
  reply_target_not_found: phrase('The message you reply to is not in this conversation'),
  sector_not_found: phrase('Sector not found'),
  subscriber_not_found: phrase('Subscriber not found'),
  survey_not_found: phrase('Survey not found'),
  template_not_found: phrase('Template not found'),
  tenant_not_found: phrase('Tenant not found'),
  user_not_found: phrase('User not found'),
  workspace_not_found: phrase('Workspace not found'),
  agent_at_max_sessions: phrase('Você já atingiu a quantidade máxima de atendimentos simultâneos ({{capacity}})'),
  agent_not_online: phrase('This agent is not online'),
  accept_while_paused: phrase('You cannot accept sessions while paused'),
  auto_distribution_on: phrase('Você não pode solicitar atendimentos enquanto a distribuição automática estiver habilitada'),
  bot_in_use: phrase('Some channels depend on this bot'),
  bot_name_taken: phrase('There is already a bot with this name'),
  campaign_running_delete: phrase('Você não pode deletar uma campanha que está rodando.'),
  canned_category_name_taken: phrase('A category with this label already exists'),
  canned_keyword_taken: phrase('A canned response with this keyword already exists'),
  channel_disabled: phrase('This channel is disabled'),
  contact_conversation_open: phrase('This contact has an open conversation'),
  contact_conversation_open_on_channel: phrase('This contact already has an open conversation on this channel'),
  contact_email_taken: phrase('Another contact uses this e-mail address on this channel'),
  contact_phone_taken: phrase('Another contact already has this phone number'),
  conversation_already_finished: phrase('This conversation is already finished'),
  conversation_awaiting_client: phrase('You can only send messages after client interaction'),
  conversation_awaiting_client_transfer: phrase('You can only transfer after the client has interacted'),
  conversation_field_name_taken: phrase('A field with this name already exists'),
  conversation_finished_no_transfer: phrase('Finished conversations cannot be transferred'),
  conversation_not_active: phrase('Messages can only be sent in an active conversation'),
  conversation_not_active_requeue: phrase('Only active conversations can return to the queue'),
  conversation_not_waiting: phrase('Only waiting conversations can be prioritised'),
  conversation_outbound_requeue: phrase('Outbound conversations cannot return to the queue'),
  conversation_reason_name_taken: phrase('A conversation reason with this name already exists'),
  dnd_list_in_use: phrase('A running campaign uses this list; stop it first'),
  menu_in_use_delete: phrase('Menus used by channels cannot be deleted'),
  menu_in_use_disable: phrase('Menus used by channels cannot be disabled'),
  message_id_taken: phrase('This message id is already used'),
  pause_description_taken: phrase('A pause with this description already exists'),
  sector_has_open_conversations: phrase('Some open conversations are in this sector: transfer or finish them first'),
  sector_name_taken: phrase('A sector with this name already exists'),
  sector_used_by_campaigns: phrase('Some campaigns depend on this sector'),
  sector_used_by_channels: phrase('Some channels depend on this sector'),
  subscriber_changed: phrase('The subscriber changed meanwhile; reload and try again'),
  subscriber_import_busy: phrase('An import is already in progress for this campaign'),
  survey_sector_taken: phrase('A sector already has the survey "{{survey}}"'),
  template_being_deleted: phrase('This template is being deleted'),
  template_name_taken: phrase('There is already a template with this name and language on this channel'),
  user_email_taken: phrase('Email already being used'),
  subscriber_file_not_csv: phrase('File parameter must be a csv file'),
  campaign_no_subscribers: phrase('There are no valid subscribers for this campaign'),
  campaign_nothing_pending: phrase('Every subscriber of this campaign has been sent to: add new subscribers to send again'),
  campaign_template_deleted: phrase('Você não pode iniciar uma campanha que usa um modelo que foi deletado.'),
  campaign_template_deleted_edit: phrase('Você não pode editar uma campanha que usa um template que foi deletado.'),
  campaign_template_not_approved: phrase('Você só poderá iniciar a campanha se o modelo estiver aprovado.'),
  channel_migration_not_360dialog: phrase('Only 360dialog channels can move to the Cloud API'),
  channel_no_templates: phrase('This channel cannot send templates'),
  channel_no_templates_support: phrase('This channel does not support templates'),
  channel_setup_refused: phrase('The provider refused to set the channel up: {{reason}}'),
  subscriber_import_template_deleted: phrase('Não é possível importar assinantes para uma campanha que teve seu template deletado'),
  subscriber_not_editable: phrase('Only pending, error or completed subscribers can be edited'),
  subscriber_not_pending: phrase('Only subscribers with pending state can be deleted'),
  template_authentication_locked: phrase('Templates da categoria Autenticação não podem ser editados'),
  campaign_test_send_rate_limited: phrase('Too many test messages for this campaign, try again later'),
  login_rate_limited: phrase('Too many sign-in attempts, try again in a few minutes'),
  password_recovery_rate_limited: phrase('Too many password recovery requests, try again later'),
  remote_file_rate_limited: phrase('Too many images fetched from addresses, try again in a minute'),
  storage_not_configured: phrase('This file is kept in {{service}} storage, which this server is not configured for'),
  internal: phrase('Something went wrong'),
  unavailable: phrase('The service is unavailable for a moment; try again shortly'),
  dependency_unavailable: phrase('The service is unavailable for a moment; try again shortly'),
};

/** Field codes the request schema derives from zod's checks: the contract's own message of the field is more precise. */
const SCHEMA_FIELD_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(FIELD_ERROR_CODES);

/** What wording a failure needs of i18next's `t`: a phrase and its values, translated to text. */
export type Translate = (phrase: string, values?: Record<string, string | number>) => string;

/**
 * The text of one field's problem: a failure's own code is worded by the catalogue; a problem the
 * request schema found shows the contract's message of the field (translated by the dictionary).
 */
export function fieldText(field: { message: string; code?: ErrorCode; params?: Record<string, string | number> }, t: Translate): string {
  if (field.code && !SCHEMA_FIELD_CODES.has(field.code)) return t(ERROR_TEXTS[field.code], field.params);
  return t(field.message);
}

export const NO_PERMISSION = 'Você não tem permissão para acessar essa página';
export const FEATURE_OFF = 'Funcionalidade não ativada';
export const SESSION_ENDED = 'Credenciais inválidas';

/** 401 codes of a caller that was not signed in (no or an unknown token), rather than of a session that ended. */
export const NOT_SIGNED_IN_CODES: ReadonlySet<string> = new Set<ErrorCode>(['unauthorized', 'session_token_invalid', 'api_token_invalid']);
/** 403 codes of a feature the tenant's plan has off, rather than of a missing permission. */
export const FEATURE_OFF_CODES: ReadonlySet<string> = new Set<ErrorCode>(['feature_disabled', 'internal_notes_disabled']);

/**
 * The text a failed call shows: its code's wording from the catalogue (a schema refusal: its first
 * field's), else, for an answer that is no ErrorBody (a proxy's page, the network), 400 'Missing
 * parameters', 403 'Invalid credentials', else 'Something went wrong'.
 */
export function errorText(error: ApiError, t: Translate): string {
  const parsed = parseErrorBody(error.status, error.body);
  if (parsed.code === 'unknown') {
    if (error.status === 400) return t('Missing parameters');
    if (error.status === 403) return t('Invalid credentials');
    return t('Something went wrong');
  }
  const first = parsed.code === 'validation_failed' ? firstField(error.body) : undefined;
  if (first) return fieldText(first, t);
  return t(ERROR_TEXTS[parsed.code], parsed.params);
}

/** The first entry of an ErrorBody's `fields`, when it is well formed. */
function firstField(body: unknown): { message: string; code?: ErrorCode; params?: Record<string, string | number> } | undefined {
  const fields =
    typeof body === 'object' && body !== null && 'fields' in body && Array.isArray(body.fields) ? (body.fields as unknown[]) : [];
  const first = fields[0];
  if (typeof first !== 'object' || first === null || typeof (first as { message?: unknown }).message !== 'string') return undefined;
  const { message, code, params } = first as { message: string; code?: unknown; params?: unknown };
  const known = typeof code === 'string' && Object.hasOwn(ERROR_TEXTS, code) ? (code as ErrorCode) : undefined;
  const values = typeof params === 'object' && params !== null ? (params as Record<string, string | number>) : undefined;
  return { message, ...(known ? { code: known } : {}), ...(values ? { params: values } : {}) };
}

/** Calls whose 401 is an answer for the form itself (wrong password), not an expired session. */
export const SESSION_STARTING_PATHS = new Set([
  '/api/v1/login',
  '/api/v1/login/code',
  '/api/v1/login/sso',
  '/api/v1/password/forgot',
  '/api/v1/password/reset',
]);
