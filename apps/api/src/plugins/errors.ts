import { AppError, type ErrorBody } from '@atende/contract';
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
  void reply.status(400).send({ error_message: message, code: 'bad_request', request_id: request.id } satisfies ErrorBody);
}

/** One place that turns every failure into `{error_message, code}` (CONVENTIONS "Errors"). */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const send = (status: number, body: Omit<ErrorBody, 'request_id'>) =>
      reply.status(status).type('application/json; charset=utf-8').send({ ...body, request_id: request.id });

    // Redis down or too slow: a clear 503 at once, never a hang nor a 500 (issue 12 item 7). An
    // AppError is already worded (its text may name a provider's ECONNREFUSED, which is not Redis).
    if (!(error instanceof AppError) && isRedisUnavailable(error)) {
      const unavailable = serviceUnavailable('redis');
      return send(unavailable.status, { error_message: unavailable.message, code: unavailable.code, params: unavailable.params });
    }
    if (error instanceof AppError) {
      const retryAfter = error.params?.retry_after_seconds;
      if (retryAfter !== undefined) void reply.header('Retry-After', String(retryAfter));
      return send(error.status, { error_message: error.message, code: error.code, fields: error.fields, params: error.params });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const context = WHERE[(error as { validationContext?: string }).validationContext ?? 'body'] ?? 'body';
      const fields = error.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        message: v.message ?? 'Invalid value',
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
    if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (status === 400 && error.code?.startsWith('FST_ERR_CTP'))) {
      return send(400, { error_message: 'The request body is not valid JSON', code: 'bad_request' });
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
    reply.status(404).type('application/json; charset=utf-8').send({ error_message: `No route ${request.method} ${request.url.split('?')[0]}`, code: 'not_found', request_id: request.id });
  });
}
