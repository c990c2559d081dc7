import { z } from 'zod';

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
  unauthorized: 401,
  invalid_credentials: 401,
  session_expired: 401,
  forbidden: 403,
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
  internal: 500,
  unavailable: 503,
  dependency_unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;
export const ErrorCodeSchema = z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]);

/** The body of every 4xx/5xx answer. */
export const ErrorBodySchema = z.object({
  error_message: z.string(),
  code: ErrorCodeSchema,
  /** Field-level problems of a validation failure: path and message. */
  fields: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  /** Values of the message, for clients that word it themselves from `code` (the web's catalogue). */
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  request_id: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** An expected failure, thrown by services and turned into an ErrorBody by the api. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: { path: string; message: string }[],
    readonly params?: Record<string, string | number>,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

/** Client-side: reads an error answer into {status, code, message}, whatever it looks like. */
export function parseErrorBody(status: number, body: unknown): { status: number; code: ErrorCode | 'unknown'; message?: string } {
  const parsed = ErrorBodySchema.safeParse(body);
  if (parsed.success) return { status, code: parsed.data.code, message: parsed.data.error_message };
  const message = typeof body === 'object' && body && 'error_message' in body ? String((body as { error_message: unknown }).error_message) : undefined;
  return { status, code: 'unknown', message };
}
