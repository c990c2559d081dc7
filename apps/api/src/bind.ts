import { AppError, routes, type BodyOf, type ParamsOf, type QueryOf, type ResponseOf, type RouteDef } from '@atende/contract';
import { allows, PERMISSIONS, type Permission, type PermissionName } from '@atende/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Session } from './modules/session/session';

/**
 * Who may call a route: the name of one capability of the role matrix (PERMISSIONS in @atende/core),
 * never roles written at the call site, so a route cannot silently disagree with the table.
 */
export type Access = PermissionName;

export interface HandlerInput<R extends RouteDef> {
  params: ParamsOf<R>;
  query: QueryOf<R>;
  body: BodyOf<R>;
  request: FastifyRequest;
  reply: FastifyReply;
}
type AuthedInput<R extends RouteDef> = HandlerInput<R> & { session: Session };
type Handler<R extends RouteDef> = R['auth'] extends false
  ? (input: HandlerInput<R> & { session: Session | null }) => Promise<ResponseOf<R>>
  : (input: AuthedInput<R>) => Promise<ResponseOf<R>>;

/** Checks the caller's roles and the tenant's feature flag against the role matrix. */
export function authorize(session: Session, access: Access): void {
  const permission: Permission = PERMISSIONS[access];
  if (!allows(session.roles, access)) {
    throw new AppError('forbidden', 'You do not have permission to do this');
  }
  if (permission.flag && session.tenantConfig.features[permission.flag] !== true) {
    throw new AppError('feature_disabled', 'Feature not enabled for this tenant');
  }
}

/** No content type (no body) or application/json (any parameters, +json suffixes). */
function isJson(contentType: string | undefined): boolean {
  if (!contentType) return true;
  const media = contentType.split(';')[0]!.trim().toLowerCase();
  return media === 'application/json' || (media.startsWith('application/') && media.endsWith('+json'));
}

/** Each contract route's name (its key in the contract's `routes`): its OpenAPI operationId, which client generators name calls by. */
const OPERATION_IDS = new Map<RouteDef, string>((Object.entries(routes) as [string, RouteDef][]).map(([name, def]) => [def, name]));

/**
 * Binds one contract route: its schemas validate the request and serialise the response, the
 * session is required unless the route says `auth: false`, and `access` is enforced on the server.
 */
export function bind<R extends RouteDef>(app: FastifyInstance, def: R, access: Access, handler: Handler<R>): void {
  const permission: Permission = PERMISSIONS[access];
  // A route open without a session says so in the matrix too, and a session route never claims 'public'.
  if ((def.auth === false) !== (access === 'public')) {
    throw new Error(`${def.method} ${def.path}: auth ${def.auth === false ? 'false needs' : 'true cannot use'} the 'public' permission`);
  }
  if (def.channelToken && def.auth !== false)
    throw new Error(`${def.method} ${def.path}: a channel token route is open without a session (auth false)`);
  app.withTypeProvider<ZodTypeProvider>().route({
    method: def.method,
    url: def.path,
    config: {
      channelToken: def.channelToken === true,
      ...(def.fileMaxBytes ? { fileMaxBytes: def.fileMaxBytes } : {}),
      ...(def.errors ? { errors: def.errors } : {}),
    },
    ...(def.bodyLimit ? { bodyLimit: def.bodyLimit } : {}),
    schema: Object.fromEntries(
      Object.entries({
        summary: def.summary,
        operationId: OPERATION_IDS.get(def),
        tags: def.tags ? [...def.tags] : undefined,
        params: def.params,
        querystring: def.query,
        body: def.body,
        consumes: def.bodyEncoding === 'form' ? ['application/x-www-form-urlencoded', 'application/json'] : undefined,
        response: def.response ? { [def.status ?? 200]: def.response } : undefined,
        security: def.auth === false ? [] : [{ bearer: [] }, { cookie: [] }],
      }).filter(([, v]) => v !== undefined),
    ),
    // Who may call is settled before the body is parsed or validated: a caller without a session
    // gets 401 and one without the role 403, whatever they sent, and learns nothing about the schema.
    onRequest: async (request) => {
      // JSON routes take JSON only: a form or text body is what a cross-site page can send with
      // the session cookie and no CORS preflight (e.g. a form posting to tenants/:id/configure).
      if (def.body && (def.bodyEncoding ?? 'json') === 'json' && !isJson(request.headers['content-type'])) {
        throw new AppError('unsupported_media_type', 'Send this request as application/json');
      }
      if (def.auth === false) return;
      if (!request.session) throw request.sessionError ?? new AppError('unauthorized', 'Sign in to continue');
      if (permission.fresh === true && request.storedRoles) {
        const roles = await request.storedRoles();
        if (!roles) throw new AppError('unauthorized', 'Sign in to continue');
        request.session = { ...request.session, roles };
      }
      authorize(request.session, access);
    },
    handler: async (request, reply) => {
      const session = request.session;
      if (def.auth !== false && !session) throw new AppError('unauthorized', 'Sign in to continue');
      const input = { params: request.params, query: request.query, body: request.body, request, reply, session };
      const result = await (handler as (i: typeof input) => Promise<unknown>)(input);
      if (def.status) reply.status(def.status);
      return result;
    },
  });
}
