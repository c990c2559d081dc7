import type { ResponseOf, Routes } from '@atende/contract';
import { routeTable } from '@atende/contract/route-table';
import { callAddress, callRoute, type CallInput, type ClientOptions } from './http';

export type Api = { [K in keyof Routes]: (input?: CallInput<Routes[K]>) => Promise<ResponseOf<Routes[K]>> };

/**
 * The typed client: one method per contract route, named as in `routes`. Built from the route
 * table (addresses only), so a client loads none of the contract's schemas.
 */
export function createClient(options: ClientOptions): Api & { options: ClientOptions; call: typeof callRoute } {
  const api = {} as Api;
  for (const [name, address] of Object.entries(routeTable)) {
    (api as Record<string, unknown>)[name] = (input?: Parameters<typeof callAddress>[2]) => callAddress(options, address, input);
  }
  return Object.assign(api, { options, call: callRoute });
}
