import { AppError, fieldCodeOfMessage, type ErrorBody, type ErrorCode, type FieldError } from '@atende/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { bodyTooLarge } from '../payload-limit';
import { isRedisUnavailable, serviceUnavailable } from '../redis-requests';

const WHERE: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'headers' };

/**
 * Failures the router meets before any route runs (a malformed URL, a path parameter over the
 * length limit), answered with the same body as everything else (Fastify `frameworkErrors`).
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const message = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'Invalid path: a parameter is too long' : 'Invalid path';
  void reply.status(400).send({ error_message: message, code: 'path_invalid', request_id: request.id } satisfies ErrorBody);
}

/** One problem the request schema found, as the fastify zod provider hands it (zod's issue code in `keyword`). */
type SchemaIssue = { keyword: string; instancePath: string; message?: string; params?: Record<string, unknown> };

const param = (value: unknown): string | number | undefined =>
  typeof value === 'number' || typeof value === 'string' ? value : typeof value === 'bigint' ? Number(value) : undefined;
const list = (value: unknown): string | undefined => (Array.isArray(value) ? value.map(String).join(', ') : undefined);
const defined = (params: Record<string, string | number | undefined>): Record<string, string | number> =>
  Object.fromEntries(Object.entries(params).filter((entry): entry is [string, string | number] => entry[1] !== undefined));

/**
 * A schema problem's code and params, so a client words the field itself: the code of the contract's
 * own message of the field (the catalogue, field-messages.ts), else one derived from zod's issue code.
 */
export function fieldProblem(issue: SchemaIssue): Pick<FieldError, 'code' | 'params'> {
  const own = fieldCodeOfMessage(issue.message ?? '');
  if (own) return own;
  const p = issue.params ?? {};
  const text = ['string', 'array', 'set', 'file'].includes(String(p.origin));
  const code = ((): ErrorCode => {
    switch (issue.keyword) {
      case 'invalid_type':
        return /received undefined/.test(issue.message ?? '') ? 'field_required' : 'field_invalid_type';
      case 'too_small':
        return text ? 'field_too_short' : 'field_too_small';
      case 'too_big':
        return text ? 'field_too_long' : 'field_too_big';
      case 'invalid_format':
        return 'field_invalid_format';
      case 'invalid_value':
        return 'field_invalid_option';
      case 'unrecognized_keys':
        return 'field_unknown_keys';
      default:
        return 'field_invalid';
    }
  })();
  const params = defined({
    min: param(p.minimum),
    max: param(p.maximum),
    expected: param(p.expected),
    format: param(p.format),
    options: list(p.values),
    keys: list(p.keys),
  });
  return Object.keys(params).length ? { code, params } : { code };
}

/** One problem of a schema the code checks itself (`safeParse`), as a field of a `validation_failed` answer. */
export function zodIssueField(issue: { code: string; path: readonly PropertyKey[]; message: string }): FieldError {
  const { code, path, message, ...params } = issue;
  const segments = path.map(String);
  return {
    path: segments.join('.'),
    message,
    ...fieldProblem({ keyword: code, instancePath: `/${segments.join('/')}`, message, params }),
  };
}

/**
 * A field of a rule's refusal without a code of its own: its message's catalogue code (every message
 * of the shared rules is one), else the generic `field_invalid`, so every field carries a code.
 */
const catalogued = (field: FieldError): FieldError =>
  field.code ? field : { ...field, ...(fieldCodeOfMessage(field.message) ?? { code: 'field_invalid' }) };

/** One place that turns every failure into `{error_message, code}`. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const send = (status: number, body: Omit<ErrorBody, 'request_id'>) =>
      reply
        .status(status)
        .type('application/json; charset=utf-8')
        .send({ ...body, request_id: request.id });

    // Redis down or too slow: a clear 503 at once, never a hang nor a 500. An
    // AppError is already worded (its text may name a provider's ECONNREFUSED, which is not Redis).
    if (!(error instanceof AppError) && isRedisUnavailable(error)) {
      const unavailable = serviceUnavailable('redis');
      return send(unavailable.status, { error_message: unavailable.message, code: unavailable.code, params: unavailable.params });
    }
    if (error instanceof AppError) {
      const retryAfter = error.params?.retry_after_seconds;
      if (retryAfter !== undefined) void reply.header('Retry-After', String(retryAfter));
      // A field of a specific failure without its own code is worded as the failure itself.
      const fields =
        error.code === 'validation_failed'
          ? error.fields?.map(catalogued)
          : error.fields?.map((f) => (f.code ? f : { ...f, code: error.code, ...(error.params ? { params: error.params } : {}) }));
      return send(error.status, { error_message: error.message, code: error.code, fields, params: error.params });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const context = WHERE[(error as { validationContext?: string }).validationContext ?? 'body'] ?? 'body';
      const fields = error.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        message: v.message ?? 'Invalid value',
        ...fieldProblem(v as SchemaIssue),
      }));
      const first = fields[0];
      const message = first ? (first.path ? `${first.path}: ${first.message}` : first.message) : 'Missing parameters';
      return send(400, { error_message: `Invalid ${context}: ${message}`, code: 'validation_failed', fields });
    }
    const status = error.statusCode ?? 500;
    if (status === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // Refused whole with the limit it passed.
      const tooLarge = bodyTooLarge(request);
      return send(413, { error_message: tooLarge.message, code: tooLarge.code, params: tooLarge.params });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415) {
      return send(415, { error_message: 'Unsupported content type', code: 'unsupported_media_type' });
    }
    if (
      error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      (status === 400 && error.code?.startsWith('FST_ERR_CTP'))
    ) {
      return send(400, { error_message: 'The request body is not valid JSON', code: 'json_invalid' });
    }
    if (status === 429) {
      return send(429, { error_message: error.message || 'Too many requests, try again later', code: 'rate_limited' });
    }
    if (status >= 400 && status < 500) {
      return send(status, { error_message: error.message || 'Bad request', code: status === 404 ? 'not_found' : 'bad_request' });
    }
    request.log.error({ err: error }, 'unexpected error');
    return send(500, { error_message: 'Something went wrong', code: 'internal' });
  });

  app.setNotFoundHandler((request, reply) => {
    // A file route may have set another type before finding nothing (e.g. index.html missing during a rebuild).
    reply
      .status(404)
      .type('application/json; charset=utf-8')
      .send({ error_message: `No route ${request.method} ${request.url.split('?')[0]}`, code: 'not_found', request_id: request.id });
  });
}
