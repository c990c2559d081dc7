import { checkOutboundUrl, outboundPolicy, refusalOf, resolveAllowedHost, type OutboundPolicy } from '@atende/channels';
import { AppError } from '@atende/contract';

const policies = new Map<string, OutboundPolicy>();

/** OUTBOUND_ALLOW_HOSTS parsed once per value. */
function policyOf(allowHosts: string): OutboundPolicy {
  let policy = policies.get(allowHosts);
  if (!policy) policies.set(allowHosts, (policy = outboundPolicy(allowHosts)));
  return policy;
}

export const OUTBOUND_REFUSED_MESSAGE = 'This address is not allowed: it points to this server or a private network';

/**
 * Save-time check of a URL the server will call: a literal refused address, or a
 * name resolving to one, answers 400 outbound_address_not_allowed on `path`. Delivery checks again
 * at connect time, so a name that changes later is still refused.
 */
export async function assertOutboundUrl(url: string, allowHosts: string, path: string): Promise<void> {
  try {
    await checkOutboundUrl(url, policyOf(allowHosts));
  } catch (error) {
    if (!refusalOf(error)) throw error;
    throw new AppError('outbound_address_not_allowed', OUTBOUND_REFUSED_MESSAGE, [{ path, message: OUTBOUND_REFUSED_MESSAGE }]);
  }
}

/** The same check for a host the server connects to without a URL (an e-mail channel's SMTP server). */
export async function assertOutboundHost(host: string, allowHosts: string, path: string): Promise<void> {
  try {
    await resolveAllowedHost(host, policyOf(allowHosts));
  } catch (error) {
    if (!refusalOf(error)) throw error;
    throw new AppError('outbound_address_not_allowed', OUTBOUND_REFUSED_MESSAGE, [{ path, message: OUTBOUND_REFUSED_MESSAGE }]);
  }
}
