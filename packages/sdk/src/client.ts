import { routes, type ResponseOf, type RouteDef, type Routes } from '@atende/contract';
import { callRoute, type CallInput, type ClientOptions } from './http';

export type Api = { [K in keyof Routes]: (input?: CallInput<Routes[K]>) => Promise<ResponseOf<Routes[K]>> };

/** The typed client: one method per contract route, named as in `routes`. */
export function createClient(options: ClientOptions): Api & { options: ClientOptions; call: typeof callRoute } {
  const api = {} as Api;
  for (const [name, def] of Object.entries(routes)) {
    const call = (input?: unknown) => callRoute(options, def as RouteDef, input as CallInput<RouteDef>);
    (api as Record<string, unknown>)[name] = call;
  }
  return Object.assign(api, { options, call: callRoute });
}
