// The error codes and their statuses without zod: the web's sign-in page and the sdk's fetch load
// this and nothing else of the contract's runtime (issue 13 item 1, login page budget).

/** Every expected failure the api answers, with the one HTTP status each maps to. */
export const ERROR_STATUS = {
  bad_request: 400,
  validation_failed: 400,
  /** A URL the server would call points to loopback, a private network or metadata (issue 12 item 1). */
  outbound_address_not_allowed: 400,
  invalid_cursor: 400,
  /** A new API token asked to live longer than the install allows (params.max_days). */
  api_token_lifetime_too_long: 400,
  wrong_current_password: 400,
  /** A password recovery code that is wrong, expired or already used (issue 16 item 11). */
  reset_code_invalid: 400,
  /** A password recovery code given wrong too many times: it is void, ask for a new one. */
  reset_code_attempts_exceeded: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  session_expired: 401,
  forbidden: 403,
  /** A customer's admin changing their own plan (feature flags, agent slots): the platform's tenant_admin does that. */
  plan_locked: 403,
  origin_not_allowed: 403,
  feature_disabled: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  subscriber_parameter_missing: 422,
  subscriber_already_sent: 409,
  /** An uploaded subscriber file that is binary, an old .xls or text in no known encoding (issue 14 item 4). */
  subscriber_file_unreadable: 422,
  /** A campaign's test send the provider refused (params.reason: the provider's words) (issue 14 item 10). */
  campaign_test_send_refused: 422,
  /** A campaign's test send to a number on one of the campaign's do-not-disturb lists. */
  campaign_test_send_dnd: 409,
  /** Words with params (issue 14 item 9): a menu another menu leads to (params.menu). */
  menu_referenced: 409,
  /** The transfer target holds the most simultaneous conversations allowed (params.capacity). */
  agent_at_capacity: 409,
  /** An upload of a type the desk does not take (params.type). */
  file_type_not_allowed: 415,
  /** An upload whose bytes are not the type it claims (params.type). */
  file_content_mismatch: 415,
  /** A file to download from an address (a pasted markdown image) that did not answer, or answered an error (params.reason: a status line). */
  remote_file_unavailable: 422,
  /** A campaign's inbound entry point that does not exist here, or a menu switched off (issue 14 item 8). */
  entrypoint_not_found: 422,
  entrypoint_disabled: 422,
  /** A campaign with an end_dnd reply action must consult at least one DND list (spec 001 §5). */
  dnd_list_required: 400,
  /** Editing the buttons of, or deleting, a template campaigns use: repeat with confirm=true (params.campaigns names them). */
  template_in_use: 409,
  /** The template's buttons changed: the campaign's reply actions must be saved again first (issue 14 item 7). */
  campaign_actions_outdated: 422,
  /** The provider refused the channel's credentials while it was being set up (Telegram getMe: bad bot token). */
  channel_credentials_refused: 400,
  /** The provider could not be reached or failed while the channel was being set up (setWebhook). */
  channel_provider_unavailable: 502,
  /** The server has no Meta app (META_APP_ID, META_APP_SECRET): pages cannot be connected by login. */
  meta_setup_not_configured: 422,
  /** A setup state that is forged, expired, another user's, or whose login is no longer kept: start again. */
  meta_setup_state_invalid: 400,
  /** Meta refused the login's code or token (used, expired, revoked). */
  meta_login_refused: 400,
  /** The Facebook user manages no page (Instagram: no page with a linked Instagram account). */
  meta_no_pages: 422,
  /** The page is connected to a channel of another customer (the setup flow's former answer; channel_identity_taken now). */
  meta_page_taken: 409,
  /** The page, Instagram account, WhatsApp number, 360dialog key, Twilio number or Telegram bot is another live channel's, of any customer (params none; field: the setting). */
  channel_identity_taken: 409,
  internal: 500,
  unavailable: 503,
  dependency_unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

const isErrorCode = (value: unknown): value is ErrorCode => typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);

/** Client-side: reads an error answer into {status, code, message, params}, whatever it looks like. */
export function parseErrorBody(status: number, body: unknown): { status: number; code: ErrorCode | 'unknown'; message?: string; params?: Record<string, string | number> } {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const message = 'error_message' in fields ? String(fields.error_message) : undefined;
  const code = typeof fields.error_message === 'string' && isErrorCode(fields.code) ? fields.code : 'unknown';
  return { status, code, message, ...(code !== 'unknown' && isParams(fields.params) ? { params: fields.params } : {}) };
}

/** ErrorBody's `params`: names to strings or numbers. */
function isParams(value: unknown): value is Record<string, string | number> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string' || typeof v === 'number');
}
