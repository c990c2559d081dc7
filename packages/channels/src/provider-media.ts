import { ChannelDeliveryError } from './adapter';
import { allowedMediaUrl, request, type HttpAnswer } from './http';

export interface MediaDownload {
  fetchImpl: typeof fetch;
  /** Hosts the bytes may come from: the base_url's and the provider's media hosts ('.example.com' = subdomains). */
  hosts: readonly string[];
  /** http allowed (only when the base_url itself is http: a local simulator). */
  allowHttp: boolean;
  /** Auth headers, sent only to the host first asked (a redirect target gets a pre-signed address). */
  headers: Record<string, string>;
  maxBytes: number;
  timeoutMs: number;
  /** The provider, for error messages. */
  provider: string;
  /** A non-2xx answer as the provider's error (code and text). */
  failure(answer: HttpAnswer): ChannelDeliveryError;
}

const MAX_REDIRECTS = 3;

/** The hosts of a provider with its base_url's host first, and whether http is acceptable. */
export function mediaHostsOf(baseUrl: string, providerHosts: readonly string[]): { hosts: string[]; allowHttp: boolean } {
  const base = new URL(baseUrl);
  return { hosts: [base.host, ...providerHosts], allowHttp: base.protocol === 'http:' };
}

/**
 * Downloads inbound media from the provider's own hosts only: the address comes from a webhook or a
 * provider answer, so a sender could otherwise make us fetch (and store) any address. Redirects
 * (Twilio sends its media to a CDN) are followed a few times, each hop checked the same way.
 */
export async function downloadMedia(rawUrl: string, options: MediaDownload): Promise<{ bytes: Buffer; contentType: string | null }> {
  const first = allowedMediaUrl(rawUrl, options.hosts, options.allowHttp);
  if (!first) throw new ChannelDeliveryError('permanent', `Media address is not on ${options.provider}'s hosts`);
  let url = first;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const headers = url.host === first.host ? options.headers : {};
    const answer = await request(
      options.fetchImpl,
      url,
      { method: 'GET', headers, timeoutMs: options.timeoutMs, maxBytes: options.maxBytes },
      `${options.provider} media`,
    );
    if (answer.status >= 300 && answer.status < 400) {
      const next = allowedMediaUrl(new URL(answer.headers.get('location') ?? '', url).toString(), options.hosts, options.allowHttp);
      if (!next) throw new ChannelDeliveryError('permanent', `${options.provider} media redirected off its hosts`, answer.status);
      url = next;
      continue;
    }
    if (answer.status < 200 || answer.status >= 300) throw options.failure(answer);
    return { bytes: answer.bytes, contentType: answer.headers.get('content-type') };
  }
  throw new ChannelDeliveryError('permanent', `${options.provider} media redirected more than ${MAX_REDIRECTS} times`);
}
