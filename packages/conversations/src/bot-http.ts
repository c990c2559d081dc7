import { outboundClient, readCapped } from '@atende/channels';
import type { BotHttp } from '@atende/core';

/** A bot's HTTP answer is read up to this size; more is an error (the flow takes its error handle). */
export const BOT_HTTP_MAX_BYTES = 1024 * 1024;

/**
 * The HTTP node's request (5 s unless the node says otherwise) through the one
 * guarded outbound client: http or https only, public addresses (or those in
 * OUTBOUND_ALLOW_HOSTS) checked at connect time and on every redirect, a JSON answer parsed.
 */
export function botHttp(options: { allowHosts: string | readonly string[] }): BotHttp {
  const client = outboundClient({ allowHosts: options.allowHosts, maxBytes: BOT_HTTP_MAX_BYTES });
  return async ({ url, method, body, timeoutMs }) => {
    const payload = body ? JSON.stringify(body) : undefined;
    const res = await client.fetch(url, {
      method,
      body: payload,
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json', 'user-agent': 'Atende-bot/1', ...(payload ? { 'content-type': 'application/json' } : {}) },
    });
    const bytes = await readCapped(res, BOT_HTTP_MAX_BYTES);
    if (bytes.length > BOT_HTTP_MAX_BYTES) throw new Error('The answer is too large');
    const text = bytes.toString('utf8');
    let parsed: unknown = text;
    if (/json/i.test(res.headers.get('content-type') ?? '')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: res.status, body: parsed };
  };
}
