import type { BotHttp } from '@atende/core';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** A bot's HTTP answer is read up to this size; more is an error (the flow takes its error handle). */
export const BOT_HTTP_MAX_BYTES = 1024 * 1024;

/** Only public unicast addresses, unless private ones are allowed (development, tests). */
export function addressAllowed(address: string, allowPrivate: boolean): boolean {
  if (allowPrivate) return true;
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/**
 * The lookup the request connects with: the address it resolves to is the one checked, so a name
 * that resolves to a private address (or changes to one after a first check) is refused.
 */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 4);
      const refused = addresses.find((a) => !addressAllowed(a.address, allowPrivate));
      if (refused || addresses.length === 0) return callback(new Error(`Address ${refused?.address ?? hostname} is not allowed for bot requests`), '', 4);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/**
 * The HTTP node's request (spec 002 §3, §9: 5 s unless the node says otherwise): http or https
 * only, public addresses only, the whole exchange within the timeout, a JSON answer parsed.
 */
export function botHttp(options: { allowPrivate: boolean }): BotHttp {
  return ({ url, method, body, timeoutMs }) =>
    new Promise((resolve, reject) => {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        return reject(new Error('Invalid URL'));
      }
      if (target.protocol !== 'http:' && target.protocol !== 'https:') return reject(new Error('Only http and https URLs are allowed'));
      const host = target.hostname.replace(/^\[|\]$/g, '');
      if (ipaddr.isValid(host) && !addressAllowed(host, options.allowPrivate)) return reject(new Error(`Address ${host} is not allowed for bot requests`));
      const payload = body ? JSON.stringify(body) : null;
      const client = target.protocol === 'https:' ? https : http;
      const req = client.request(
        target,
        {
          method,
          lookup: guardedLookup(options.allowPrivate),
          signal: AbortSignal.timeout(timeoutMs),
          headers: { accept: 'application/json', 'user-agent': 'Atende-bot/1', ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > BOT_HTTP_MAX_BYTES) req.destroy(new Error('The answer is too large'));
            else chunks.push(chunk);
          });
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            if (/json/i.test(res.headers['content-type'] ?? '')) {
              try {
                parsed = JSON.parse(text);
              } catch {
                parsed = text;
              }
            }
            resolve({ status: res.statusCode ?? 0, body: parsed });
          });
        },
      );
      req.on('error', reject);
      req.end(payload ?? undefined);
    });
}
