import { createClient, type ApiError } from '@atende/sdk';
import type { RouteDef } from '@atende/contract';

type ErrorListener = (error: ApiError, route: RouteDef) => void;
let listener: ErrorListener = () => undefined;

/** The one place every failed call goes through (spec 000 §8); installed by the app shell. */
export function setApiErrorListener(fn: ErrorListener): void {
  listener = fn;
}

/** Same-origin typed client: the session travels in the httpOnly cookie. */
export const api = createClient({ baseUrl: '', timeoutMs: 30_000, onError: (error, route) => listener(error, route) });
