import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from './error-status';

export { ERROR_STATUS, FIELD_ERROR_CODES, parseErrorBody, type ErrorCode } from './error-status';

export const ErrorCodeSchema = z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]);

const ParamsSchema = z.record(z.string(), z.union([z.string(), z.number()]));

/** One field's problem: `code` (a field_* code, or the failure's own code) and `params` word it. */
export const FieldErrorSchema = z.object({
  path: z.string(),
  message: z.string(),
  code: ErrorCodeSchema.optional(),
  params: ParamsSchema.optional(),
});
export type FieldError = z.infer<typeof FieldErrorSchema>;

/** The body of every 4xx/5xx answer. */
export const ErrorBodySchema = z.object({
  error_message: z.string(),
  code: ErrorCodeSchema,
  /** Field-level problems of a validation failure: path, message, and the code and params to word it by. */
  fields: z.array(FieldErrorSchema).optional(),
  /** Values of the message, for clients that word it themselves from `code` (the web's catalogue). */
  params: ParamsSchema.optional(),
  request_id: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** An expected failure, thrown by services and turned into an ErrorBody by the api. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: FieldError[],
    readonly params?: Record<string, string | number>,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

/** A shared rule's problems, if any, as the one 400 every module answers for them (the first one worded). */
export function refuseFieldIssues(issues: readonly FieldError[]): void {
  const [first] = issues;
  if (first) throw new AppError('validation_failed', first.message, [...issues]);
}
