import { createClient, type ApiError } from '@atende/sdk';
import type { RouteAddress } from '@atende/contract';

type ErrorListener = (error: ApiError, route: RouteAddress) => void;
let listener: ErrorListener = () => undefined;

/** The one place every failed call goes through; installed by the app shell. */
export function setApiErrorListener(fn: ErrorListener): void {
  listener = fn;
}

const TIMEOUT_MS = 30_000;

/** Same-origin typed client: the session travels in the httpOnly cookie. */
export const api = createClient({ baseUrl: '', timeoutMs: TIMEOUT_MS, onError: (error, route) => listener(error, route) });

/**
 * The same client for a call whose caller answers some statuses itself (e.g. the profile form's
 * 400 'Wrong current password'): those skip the shared handler, everything else still reaches it.
 */
export function apiHandling(...statuses: number[]) {
  return createClient({
    baseUrl: '',
    timeoutMs: TIMEOUT_MS,
    onError: (error, route) => {
      if (!statuses.includes(error.status)) listener(error, route);
    },
  });
}

/** For probes whose failure is an expected answer (is there still a session?): no shared handling. */
export const quietApi = createClient({ baseUrl: '', timeoutMs: TIMEOUT_MS });

/** Like apiHandling, by error code: a call whose caller answers these codes itself (e.g. a 409 asking to confirm). */
export function apiHandlingCodes(...codes: string[]) {
  return createClient({
    baseUrl: '',
    timeoutMs: TIMEOUT_MS,
    onError: (error, route) => {
      if (!codes.includes(error.code)) listener(error, route);
    },
  });
}
