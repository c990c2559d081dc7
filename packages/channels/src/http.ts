import { timingSafeEqual } from 'node:crypto';
import { ChannelDeliveryError } from './adapter';
import { refusalOf } from './outbound-address';

/** Outbound HTTP of the adapters (through the guarded client, outbound.ts): time-limited, capped, never following redirects. */

/** 408 and 429 say "later"; every other 4xx says the request itself is wrong. */
export const isTransientStatus = (status: number) => status >= 500 || status === 408 || status === 429;

/**
 * A gateway's 502 or 504: the provider behind it may have taken the request before the gateway gave
 * up, so the outcome is unknown (ChannelDeliveryError.outcomeUnknown). Any other answer is the
 * provider's own: an error status means it did not take the message.
 */
export const isAmbiguousStatus = (status: number) => status === 502 || status === 504;

export function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message ?? 'network error';
}

/** Failures before any byte of the request left: no connection (refused, no such host, unreachable, connect time-out) or no TLS. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const TLS_FAILURE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/;

/**
 * A failed request as a transient ChannelDeliveryError naming `what`: a connection that was never
 * made cannot have delivered anything; a time-out or a connection lost later may have (the request
 * may have been written and taken), so its outcome is unknown.
 */
export function networkFailure(what: string, error: unknown, timeoutMs: number): ChannelDeliveryError {
  const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code ?? '';
  const timedOut = (error as Error).name === 'TimeoutError';
  const notConnected = !timedOut && (NOT_CONNECTED.has(code) || TLS_FAILURE.test(code));
  const reason = timedOut ? `no answer within ${timeoutMs} ms` : describeNetworkError(error);
  return new ChannelDeliveryError('transient', `${what} unreachable: ${reason}`, undefined, { outcomeUnknown: !notConnected });
}

/** The body's first `max` bytes, so a misbehaving server cannot make us buffer megabytes. */
export async function readCapped(response: Response, max: number): Promise<Buffer> {
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      break;
    }
  }
  return Buffer.concat(chunks);
}

export interface HttpAnswer {
  status: number;
  bytes: Buffer;
  headers: Headers;
  text(): string;
  json(): unknown;
}

/**
 * One request to a provider. Network failures and time-outs throw a transient ChannelDeliveryError
 * naming `what`; any HTTP answer is returned for the caller to judge.
 */
export async function request(
  fetchImpl: typeof fetch,
  url: string | URL,
  init: RequestInit & { timeoutMs: number; maxBytes?: number },
  what: string,
): Promise<HttpAnswer> {
  const { timeoutMs, maxBytes = 256 * 1024, ...rest } = init;
  let response: Response;
  try {
    response = await fetchImpl(url, { ...rest, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const refused = refusalOf(error);
    if (refused) throw new ChannelDeliveryError('permanent', `${what} address refused: ${refused.message}`);
    throw networkFailure(what, error, timeoutMs);
  }
  let bytes: Buffer;
  try {
    bytes = await readCapped(response, maxBytes);
  } catch (error) {
    // An acceptance whose body (the message id) was cut off is still an acceptance we cannot confirm.
    const unknown = (response.status >= 200 && response.status < 300) || isAmbiguousStatus(response.status);
    throw new ChannelDeliveryError('transient', `${what} answer interrupted: ${describeNetworkError(error)}`, response.status, {
      outcomeUnknown: unknown,
    });
  }
  if (bytes.length > maxBytes) throw new ChannelDeliveryError('permanent', `${what} answered more than ${maxBytes} bytes`, response.status);
  return {
    status: response.status,
    bytes,
    headers: response.headers,
    text: () => bytes.toString('utf8'),
    json: () => {
      try {
        return JSON.parse(bytes.toString('utf8')) as unknown;
      } catch {
        return null;
      }
    },
  };
}

/** Equal strings, compared in constant time; false for a missing value. */
export function sameSecret(given: unknown, expected: unknown): boolean {
  if (typeof given !== 'string' || typeof expected !== 'string' || expected.length === 0) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const headerValue = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * Whether a media address may be fetched: http(s) only, on one of `hosts` (exact, or a subdomain
 * of an entry written '.example.com'), and over https unless `allowHttp` (a local simulator).
 */
export function allowedMediaUrl(raw: string, hosts: readonly string[], allowHttp: boolean): URL | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) return null;
  if (url.username || url.password) return null;
  const host = url.host.toLowerCase();
  const hostname = url.hostname.toLowerCase();
  const ok = hosts.some((h) => (h.startsWith('.') ? hostname.endsWith(h) : host === h || hostname === h));
  return ok ? url : null;
}

/** A provider's error text, shortened and stripped of control characters before it is stored. */
export const cleanProviderText = (text: string): string =>
  text
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, 200);
