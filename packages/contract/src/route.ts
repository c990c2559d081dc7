import type { z } from 'zod';
import type { ErrorCode } from './error-status';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How the request body travels. The spec sends login, logout and channel creation form-encoded. */
export type BodyEncoding = 'json' | 'form' | 'multipart';

/**
 * One call of the api, declared once. The api binds it (validation and serialisation), the sdk
 * derives its client from it and the OpenAPI document is generated from it.
 */
export interface RouteDef {
  method: HttpMethod;
  path: string;
  summary: string;
  tags?: readonly string[];
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  bodyEncoding?: BodyEncoding;
  /** Schema of the 2xx body. Omitted for calls that stream a file. */
  response?: z.ZodType;
  status?: 200 | 201 | 202 | 204;
  /** false for the few calls open without a session (login). */
  auth?: boolean;
  /** With auth false: the Authorization bearer is another credential (a custom channel's token), never a session, so none is looked for. */
  channelToken?: true;
  /** Largest request body accepted, in bytes, when a call needs more than the api's 1 MB default. */
  bodyLimit?: number;
  /** For a call that carries one file: its largest size, named in the 413 of a body over the limit. */
  fileMaxBytes?: number;
  /** For a multipart route: the JSON body it also takes (checked by its handler), typed for callers. */
  jsonBody?: z.ZodType;
  /**
   * The specific failures the call answers besides those every call of its kind can (validation,
   * session, permission, unknown id): listed with their statuses in the OpenAPI document.
   */
  errors?: readonly ErrorCode[];
}

/**
 * Where a route is called and how its body travels, without its schemas (route-table.ts): for
 * `R` a contract route, exactly its method, path and body encoding.
 */
export type RouteAddress<R extends RouteDef = RouteDef> = Pick<R, Extract<keyof R, 'method' | 'path' | 'bodyEncoding'>>;

export function route<const T extends RouteDef>(def: T): T {
  return def;
}

type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;
type Input<S> = S extends z.ZodType ? z.input<S> : undefined;
export type ParamsOf<R extends RouteDef> = Infer<R['params']>;
export type QueryOf<R extends RouteDef> = Infer<R['query']>;
export type BodyOf<R extends RouteDef> = Infer<R['body']>;
export type ResponseOf<R extends RouteDef> = Infer<R['response']>;
export type ParamsInput<R extends RouteDef> = Input<R['params']>;
export type QueryInput<R extends RouteDef> = Input<R['query']>;
export type BodyInput<R extends RouteDef> = R['bodyEncoding'] extends 'multipart' ? FormData | Input<R['jsonBody']> : Input<R['body']>;
