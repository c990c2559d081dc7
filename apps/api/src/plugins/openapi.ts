import { ERROR_STATUS, ErrorBodySchema, FIELD_ERROR_CODES, FieldErrorSchema, type ErrorCode } from '@atende/contract';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's specific failures (the contract's `errors`), for its OpenAPI error responses. */
    errors?: readonly ErrorCode[];
  }
}

/** What every failure of a status says, by the route's kind: the codes any such route can answer. */
const GENERAL: Partial<Record<number, readonly ErrorCode[]>> = {
  400: ['validation_failed', ...FIELD_ERROR_CODES, 'json_invalid'],
  401: ['unauthorized', 'session_expired', 'session_ended', 'session_token_invalid', 'api_token_invalid', 'api_token_expired'],
  403: ['forbidden', 'feature_disabled', 'origin_not_allowed'],
  404: ['not_found'],
  413: ['payload_too_large'],
  415: ['unsupported_media_type'],
};

const hasInput = (schema: FastifySchema): boolean => Boolean(schema.params || schema.querystring || schema.body);

/**
 * The error answers of one route, derived in one place from what it declares: input schemas (400),
 * a session (401, 403), a path id (404), a body (413, 415), and its contract's `errors` (their statuses).
 * Each is the ErrorBody, described with the codes it can carry.
 */
/** The ErrorBody of one status of a route: its `code` one of `codes` (a field's code: any code, named in ErrorBody). */
const errorBodyOf = (codes: readonly ErrorCode[]) =>
  ErrorBodySchema.extend({
    code: z.enum(codes as [ErrorCode, ...ErrorCode[]]),
    fields: z.array(FieldErrorSchema.extend({ code: z.string().optional() })).optional(),
  }).describe(`Error. Codes: ${codes.join(', ')}`);

export function errorResponses(schema: FastifySchema, route: Pick<RouteOptions, 'config'>): Record<number, z.ZodType> {
  const codes = new Map<number, Set<ErrorCode>>();
  const add = (status: number, list: readonly ErrorCode[]) => {
    const set = codes.get(status) ?? new Set<ErrorCode>();
    for (const code of list) set.add(code);
    codes.set(status, set);
  };
  const session = Array.isArray(schema.security) && schema.security.length > 0;
  const config = (route.config ?? {}) as { channelToken?: boolean; errors?: readonly ErrorCode[] };
  if (hasInput(schema)) add(400, GENERAL[400]!);
  if (session || config.channelToken) add(401, GENERAL[401]!);
  if (session) add(403, GENERAL[403]!);
  if (schema.params) add(404, GENERAL[404]!);
  if (schema.body) {
    add(413, GENERAL[413]!);
    add(415, GENERAL[415]!);
  }
  for (const code of config.errors ?? []) add(ERROR_STATUS[code], [code]);
  return Object.fromEntries([...codes].sort(([a], [b]) => a - b).map(([status, list]) => [status, errorBodyOf([...list])]));
}

/** OpenAPI generated from the contract's zod schemas, served at /api/docs (JSON at /api/docs/json). */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Atende API', version: '1.0.0', description: 'Every call of the Atende web app, typed by packages/contract.' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          cookie: { type: 'apiKey', in: 'cookie', name: 'atende_session' },
        },
      },
    },
    // The route's own schemas, plus its error answers (the document only: answers are not validated by them).
    transform: (input) => {
      // Routes outside the contract (health, files of the web app) may have no schema at all.
      if (!input.schema) return jsonSchemaTransform(input);
      const response = { ...errorResponses(input.schema, input.route), ...((input.schema.response as object | undefined) ?? {}) };
      return jsonSchemaTransform({ ...input, schema: { ...input.schema, response } });
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
}
