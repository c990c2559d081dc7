import { ERROR_STATUS, ErrorBodySchema, FIELD_ERROR_CODES, FieldErrorSchema, type ErrorCode } from '@atende/contract';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's specific failures (the contract's `errors`), for its OpenAPI error responses. */
    errors?: readonly ErrorCode[];
  }
}

/** What every failure of a status says, by the route's kind: the codes any such route can answer. */
const GENERAL = {
  /** Any route: an unexpected failure, or Postgres or Redis out of reach for a moment. */
  everyRoute: ['internal', 'dependency_unavailable'],
  /** A route with input (params, query or body): the schema's refusal, an unreadable or too deep body, text Postgres cannot store. */
  input: ['validation_failed', ...FIELD_ERROR_CODES, 'json_invalid', 'json_too_deep', 'text_invalid_characters'],
  /** A route that needs a session: none, or one no longer valid (a channel's token route words its own refusal). */
  session: ['unauthorized', 'session_expired', 'session_ended', 'session_token_invalid', 'api_token_invalid', 'api_token_expired'],
  /** A route that needs a session: a role or feature the caller lacks. */
  permission: ['forbidden', 'feature_disabled'],
  /** A write carrying the session cookie from a page of another site (security-headers.ts). */
  write: ['origin_not_allowed'],
  /** A route with a path id: nothing by that id. */
  path: ['not_found'],
  /** A route with a body: one over the size limit, or not of the type it takes. */
  body: ['payload_too_large', 'unsupported_media_type'],
} as const satisfies Record<string, readonly ErrorCode[]>;

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What of a route decides its error answers besides its schema: its method, and its contract's `errors`. */
export type ErrorRoute = {
  method?: string | readonly string[];
  config?: { channelToken?: boolean; fileMaxBytes?: number; errors?: readonly ErrorCode[] };
};

/**
 * The codes of a route's error answers, by status, derived in one place from what it declares: any
 * route (500, 503), input (400), a session (401, 403), a write (403), a path id (404), a body or a file
 * (413, 415), and its contract's `errors` (their statuses). The OpenAPI document lists exactly these,
 * and the api's tests refuse an answer whose code is not among them (testing.ts).
 */
export function routeErrorCodes(schema: FastifySchema, route: ErrorRoute): Map<number, Set<ErrorCode>> {
  const codes = new Map<number, Set<ErrorCode>>();
  const add = (list: readonly ErrorCode[]) => {
    for (const code of list) {
      const status = ERROR_STATUS[code];
      codes.set(status, (codes.get(status) ?? new Set<ErrorCode>()).add(code));
    }
  };
  const session = Array.isArray(schema.security) && schema.security.length > 0;
  const config = route.config ?? {};
  const methods = typeof route.method === 'string' ? [route.method] : (route.method ?? []);
  // A route carrying a file (multipart, or a voice note as JSON) takes a body its handler reads, without a body schema.
  const body = Boolean(schema.body) || config.fileMaxBytes !== undefined;
  add(GENERAL.everyRoute);
  if (body || schema.params || schema.querystring) add(GENERAL.input);
  if (session) {
    add(GENERAL.session);
    add(GENERAL.permission);
  }
  // A channel's token is no session: no cookie is looked at (plugins/auth.ts).
  if (!config.channelToken && methods.some((m) => WRITES.has(m.toUpperCase()))) add(GENERAL.write);
  if (schema.params) add(GENERAL.path);
  if (body) add(GENERAL.body);
  add(config.errors ?? []);
  return codes;
}

/** The ErrorBody of one status of a route: its `code` one of `codes` (a field's code: any code, named in ErrorBody). */
const errorBodyOf = (codes: readonly ErrorCode[]) =>
  ErrorBodySchema.extend({
    code: z.enum(codes as [ErrorCode, ...ErrorCode[]]),
    fields: z.array(FieldErrorSchema.extend({ code: z.string().optional() })).optional(),
  }).describe(`Error. Codes: ${codes.join(', ')}`);

/** The error answers of one route (routeErrorCodes): for each status, the ErrorBody with the codes it can carry. */
export function errorResponses(schema: FastifySchema, route: ErrorRoute): Record<number, z.ZodType> {
  const codes = routeErrorCodes(schema, route);
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
