import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from './error-status';

export { ERROR_STATUS, parseErrorBody, type ErrorCode } from './error-status';

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

