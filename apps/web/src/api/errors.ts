import type { ErrorCode } from '@atende/contract';
import { parseErrorBody } from '@atende/contract/error-status';
import type { ApiError } from '@atende/sdk';
import type { TFunction } from 'i18next';
import { phrase } from '../i18n/phrase';

/**
 * The error catalogue: a server failure with one of these codes is worded here, in the UI's language,
 * from the code and the values the server sent (`params`), not from the server's English text.
 */
export const ERROR_TEXTS: Partial<Record<ErrorCode, string>> = {
  subscriber_parameter_missing: phrase('Parameter {{n}} is required'),
  dependency_unavailable: phrase('The service is unavailable for a moment; try again shortly'),
  origin_not_allowed: phrase('This request comes from a site that is not allowed to act on this account'),
  outbound_address_not_allowed: phrase('This address is not allowed: it points to this server or a private network'),
  api_token_lifetime_too_long: phrase('A token can last at most {{max_days}} days'),
  subscriber_already_sent: phrase('This subscriber already received the campaign: it cannot be sent it again'),
  plan_locked: phrase("The plan's features and agent slots are changed by the platform's administrators"),
  menu_referenced: phrase('The menu "{{menu}}" leads to this menu'),
  agent_at_capacity: phrase('This agent already has the maximum of simultaneous conversations ({{capacity}})'),
  file_type_not_allowed: phrase('{{type}} is not supported.'),
  file_content_mismatch: phrase("The file's content is not {{type}}."),
  remote_file_unavailable: phrase('The file could not be downloaded from this address'),
  campaign_test_send_refused: phrase('The provider did not accept the test message: {{reason}}'),
  campaign_test_send_dnd: phrase('This number is on a do-not-disturb list of this campaign'),
  entrypoint_not_found: phrase('Entry point not found'),
  entrypoint_disabled: phrase('This menu is disabled'),
  dnd_list_required: phrase('At least one DND list is required'),
  campaign_actions_outdated: phrase("The template's buttons changed: save the campaign's button actions again before starting it"),
  template_in_use: phrase('Campaigns use this template: {{campaigns}}'),
  channel_credentials_refused: phrase("The provider refused the channel's credentials: check the token"),
  channel_provider_unavailable: phrase('The provider could not be reached to set the channel up; try again shortly'),
  meta_setup_not_configured: phrase('Connecting with Facebook is not set up on this server: ask its operator for the Meta app settings'),
  meta_setup_state_invalid: phrase('This Facebook login is invalid or has expired; connect again'),
  meta_login_refused: phrase('Facebook refused the login (it may have expired); log in again'),
  meta_no_pages: phrase('No page to connect: your Facebook login manages no page (for Instagram, none with a linked Instagram professional account)'),
  meta_page_taken: phrase('This page is already connected to another account'),
  channel_identity_taken: phrase('This page, account, number or bot is already connected to another channel'),
  reset_code_invalid: phrase('The code is wrong or has expired'),
  reset_code_attempts_exceeded: phrase('Too many wrong codes: ask for a new code'),
  payload_too_large: phrase('Maximum size exceeded ({{max_size}})'),
  subscriber_file_unreadable: phrase('Invalid file! Its text could not be read: save it as CSV (UTF-8) or Excel (.xlsx) and try again'),
};

/** Server messages the spec lists as translated (spec 000 §8 / 002 §8); they have entries in pt.ts. */
export const KNOWN_SERVER_MESSAGES = [
  'Email already being used',
  'There is already a bot with this name',
  'Some channels depend on this bot',
  'File parameter must be a csv file',
  'Invalid file! It must have at least name and phone',
  'Recipient is not a valid WhatsApp user',
  'Fail to create conversation',
] as const;

export const NO_PERMISSION = 'Você não tem permissão para acessar essa página';
export const FEATURE_OFF = 'Funcionalidade não ativada';
export const SESSION_ENDED = 'Credenciais inválidas';

/**
 * The text a failed call shows (spec 000 §8): the server's error_message when present (translated
 * when the dictionary knows it), else 400 'Missing parameters', 403 'Invalid credentials', else
 * 'Something went wrong'.
 */
export function errorText(error: ApiError, t: TFunction): string {
  const catalogued = error.code in ERROR_TEXTS ? ERROR_TEXTS[error.code as ErrorCode] : undefined;
  if (catalogued) {
    return t(catalogued, parseErrorBody(error.status, error.body).params);
  }
  if (hasServerMessage(error)) return t(error.message);
  if (error.status === 400) return t('Missing parameters');
  if (error.status === 403) return t('Invalid credentials');
  return t('Something went wrong');
}

function hasServerMessage(error: ApiError): boolean {
  const body = error.body;
  return typeof body === 'object' && body !== null && 'error_message' in body && Boolean(error.message);
}

/** Calls whose 401 is an answer for the form itself (wrong password), not an expired session. */
export const SESSION_STARTING_PATHS = new Set(['/api/v1/login', '/api/v1/login/code', '/api/v1/login/sso', '/api/v1/password/forgot', '/api/v1/password/reset']);
