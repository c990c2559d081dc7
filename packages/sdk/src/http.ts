// One call of the api. Apart from the typed client (client.ts): importing it loads no route schema,
// so a page that makes a few calls (the web's sign-in form) stays small.
import { parseErrorBody } from '@atende/contract/error-status';
import type { BodyInput, ErrorCode, ParamsInput, QueryInput, ResponseOf, RouteAddress, RouteDef } from '@atende/contract';

/** A failed call: HTTP status, the api's machine code and its `error_message`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'unknown' | 'network',
    message: string,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Defined<K extends string, T> = T extends undefined ? { [P in K]?: T } : undefined extends T ? { [P in K]?: T } : { [P in K]: T };
export type CallInput<R extends RouteDef> = Defined<'params', ParamsInput<R>> &
  Defined<'query', QueryInput<R>> &
  Defined<'body', BodyInput<R>>;

export interface ClientOptions {
  /** Origin of the api, e.g. http://localhost:3000; '' for same-origin calls from the web app. */
  baseUrl: string;
  /** Bearer token (sdk users); the web app relies on the httpOnly cookie instead. */
  token?: string;
  fetch?: typeof fetch;
  /** Called before an error is thrown: the web app's one shared error handler. */
  onError?: (error: ApiError, route: RouteAddress) => void;
  timeoutMs?: number;
}

function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`Missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) v.forEach((item) => search.append(k, String(item)));
    else search.append(k, String(v));
  }
  const s = search.toString();
  return s ? `?${s}` : '';
}

/** Calls one contract route. */
export function callRoute<R extends RouteDef>(
  options: ClientOptions,
  def: R,
  input: CallInput<R> = {} as CallInput<R>,
): Promise<ResponseOf<R>> {
  return callAddress(options, def, input) as Promise<ResponseOf<R>>;
}

/** Calls a route known by its address alone (route-table.ts); the typed client gives it its types. */
export async function callAddress(
  options: ClientOptions,
  def: RouteAddress,
  input: { params?: unknown; query?: unknown; body?: unknown } = {},
): Promise<unknown> {
  const { params, query, body } = input as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
  const url = `${options.baseUrl}${fillPath(def.path, params)}${queryString(query)}`;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | FormData | undefined;
  if (body !== undefined && def.method !== 'GET') {
    if (def.bodyEncoding === 'form') {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(
        Object.entries(body as Record<string, unknown>).map(([k, v]): [string, string] => [k, String(v)]),
      ).toString();
    } else if (body instanceof FormData) {
      payload = body;
    } else {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
  } else if (def.bodyEncoding === 'form' && def.method !== 'GET') {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = '';
  }
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(url, {
      method: def.method,
      headers,
      body: payload,
      credentials: 'include',
      signal: options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined,
    });
  } catch (cause) {
    const timedOut = (cause as Error).name === 'TimeoutError';
    const error = new ApiError(timedOut ? 408 : 0, 'network', timedOut ? 'The request timed out' : 'Network error');
    options.onError?.(error, def);
    throw error;
  }
  const text = await response.text();
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const parsed = parseErrorBody(response.status, json);
    const error = new ApiError(response.status, parsed.code, parsed.message ?? response.statusText, json);
    options.onError?.(error, def);
    throw error;
  }
  return json;
}
