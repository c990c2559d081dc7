import { lookup as dnsLookup, promises as dns, type LookupAddress } from 'node:dns';
import http, { STATUS_CODES } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import {
  addressAllowed,
  isOutboundRefused,
  OutboundRefusedError,
  outboundPolicy,
  refusedAddressReason,
  type OutboundPolicy,
} from './outbound-address';

/**
 * The one HTTP client for every server-side request to a user-given address:
 * the address is checked when the socket connects (so a name that resolves, or later re-resolves,
 * to a private address is refused), redirects are followed only through the same check, and the
 * answer is capped in size and time.
 */
export interface OutboundOptions {
  /** OUTBOUND_ALLOW_HOSTS, or an already parsed policy. */
  allowHosts?: string | readonly string[] | OutboundPolicy;
  /** Redirects followed for `redirect: 'follow'` (the default); 'manual' returns the 3xx. */
  maxRedirects?: number;
  /** The whole exchange, body included. */
  maxTimeMs?: number;
  /** More answer bytes than this fail the body stream. */
  maxBytes?: number;
}

export interface OutboundClient {
  readonly policy: OutboundPolicy;
  /** fetch's shape, so adapters and tests take either. */
  readonly fetch: typeof fetch;
}

const DEFAULTS = { maxRedirects: 3, maxTimeMs: 30_000, maxBytes: 32 * 1024 * 1024 };

/** A short status line that never carries remote text: the reason phrase is Node's, not the server's. */
export const statusLine = (status: number): string => `HTTP ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`;

/** Plain URL rules: http(s) only, no credentials in it. */
export function outboundUrl(raw: string | URL): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefusedError(String(raw).slice(0, 100), 'not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutboundRefusedError(url.protocol, 'only http and https are allowed');
  if (url.username || url.password) throw new OutboundRefusedError(url.hostname, 'credentials in the URL are not allowed');
  return url;
}

const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

function checkedLookup(policy: OutboundPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 4);
      const refused = addresses.find((a) => !addressAllowed(a.address, hostname, policy));
      if (refused || addresses.length === 0) {
        return callback(
          new OutboundRefusedError(
            hostname,
            refused ? `it resolves to ${refused.address}, which is not a public address` : 'it does not resolve',
          ),
          '',
          4,
        );
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

function checkLiteral(url: URL, policy: OutboundPolicy): void {
  const host = bareHost(url);
  // Node connects to an IP literal without calling `lookup`, so literals are checked here.
  if (isIP(host) && !addressAllowed(host, host, policy))
    throw new OutboundRefusedError(host, `${refusedAddressReason(host)} addresses are not allowed`);
}

function bodyOf(body: RequestInit['body']): string | Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError('Unsupported outbound body');
}

function headersOf(init: RequestInit): Record<string, string> {
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  if (init.body instanceof URLSearchParams && !headers['content-type'])
    headers['content-type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
  return headers;
}

const NULL_BODY = new Set([101, 204, 205, 304]);

function once(
  url: URL,
  init: RequestInit,
  payload: string | Buffer | undefined,
  policy: OutboundPolicy,
  signal: AbortSignal,
  maxBytes: number,
): Promise<Response> {
  checkLiteral(url, policy);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const headers = headersOf(init);
    if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
    const req = client.request(url, { method: init.method ?? 'GET', headers, lookup: checkedLookup(policy), signal }, (res) => {
      const status = res.statusCode ?? 0;
      const responseHeaders = new Headers();
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) res.destroy(new Error(`answer larger than ${maxBytes} bytes`));
      });
      const body = NULL_BODY.has(status) || init.method === 'HEAD' ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
      if (!body) res.resume();
      if (status < 200 || status > 599) {
        res.destroy();
        return reject(new TypeError(`fetch failed`, { cause: new Error(`invalid status ${status}`) }));
      }
      resolve(new Response(body, { status, statusText: STATUS_CODES[status] ?? '', headers: responseHeaders }));
    });
    req.on('error', (error) => {
      if (signal.aborted) return reject(signal.reason);
      if (isOutboundRefused(error)) return reject(error);
      reject(new TypeError('fetch failed', { cause: error }));
    });
    req.end(payload);
  });
}

export function outboundClient(options: OutboundOptions = {}): OutboundClient {
  const policy =
    typeof options.allowHosts === 'object' && !Array.isArray(options.allowHosts)
      ? (options.allowHosts as OutboundPolicy)
      : outboundPolicy(options.allowHosts as string | readonly string[] | undefined);
  const { maxRedirects, maxTimeMs, maxBytes } = { ...DEFAULTS, ...options };
  const guardedFetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    if (input instanceof Request) throw new TypeError('Pass a URL to the outbound client');
    const signal = init.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(maxTimeMs)]) : AbortSignal.timeout(maxTimeMs);
    let url = outboundUrl(input);
    let method = (init.method ?? 'GET').toUpperCase();
    let payload = bodyOf(init.body);
    let headers = init.headers;
    for (let hop = 0; ; hop++) {
      const response = await once(
        url,
        { ...init, method, headers, body: payload === undefined ? null : init.body },
        payload,
        policy,
        signal,
        maxBytes,
      );
      const location = response.headers.get('location');
      if (init.redirect === 'manual' || response.status < 300 || response.status >= 400 || response.status === 304 || !location)
        return response;
      await response.body?.cancel();
      if (init.redirect === 'error' || hop >= maxRedirects)
        throw new TypeError('fetch failed', { cause: new Error(`more than ${maxRedirects} redirects`) });
      const next = outboundUrl(new URL(location, url));
      // Credentials go only to the origin they were given for; 303 (and a POST's 301/302) become a GET.
      if (next.origin !== url.origin) {
        const kept = new Headers(headers);
        kept.delete('authorization');
        kept.delete('cookie');
        headers = kept;
      }
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = 'GET';
        payload = undefined;
      }
      url = next;
    }
  };
  return { policy, fetch: guardedFetch as typeof fetch };
}

/**
 * Save-time check of a user-given URL (channels, integrations): http(s), no credentials, and every
 * address the name resolves to allowed now. The connect-time check still applies later.
 */
export async function checkOutboundUrl(raw: string, policy: OutboundPolicy): Promise<void> {
  const url = outboundUrl(raw);
  const host = bareHost(url);
  if (isIP(host)) return checkLiteral(url, policy);
  let addresses: Array<{ address: string }>;
  try {
    addresses = await dns.lookup(host, { all: true });
  } catch {
    // A name that does not resolve yet (a receiver being set up) is not a private address; delivery checks again.
    return;
  }
  const refused = addresses.find((a) => !addressAllowed(a.address, host, policy));
  if (refused) throw new OutboundRefusedError(host, `it resolves to ${refused.address}, which is not a public address`);
}
