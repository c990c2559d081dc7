import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses a server-side request to a user-given URL may reach: only
 * public unicast ones, unless the install lists the host, IP or CIDR in OUTBOUND_ALLOW_HOSTS.
 */
export interface OutboundPolicy {
  /** Host names (lower case, exact), as given. */
  names: ReadonlySet<string>;
  /** IPs and CIDRs the install allows although they are not public. */
  ranges: ReadonlyArray<[ipaddr.IPv4 | ipaddr.IPv6, number]>;
}

/** OUTBOUND_ALLOW_HOSTS: comma-separated host names, IPs and CIDRs; an empty list allows nothing private. */
export function outboundPolicy(allowHosts: string | readonly string[] = ''): OutboundPolicy {
  const entries = (typeof allowHosts === 'string' ? allowHosts.split(',') : allowHosts).map((e) => e.trim().toLowerCase()).filter(Boolean);
  const names = new Set<string>();
  const ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [];
  for (const entry of entries) {
    const bare = entry.replace(/^\[|\]$/g, '');
    if (bare.includes('/') && ipaddr.isValidCIDR(bare)) ranges.push(ipaddr.parseCIDR(bare));
    else if (isIP(bare)) {
      const parsed = ipaddr.parse(bare);
      ranges.push([parsed, parsed.kind() === 'ipv4' ? 32 : 128]);
    } else names.add(bare);
  }
  return { names, ranges };
}

/** The IPv4 address an IPv6 one carries (mapped, translated, IPv4-compatible, NAT64, 6to4), if any. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const parts = address.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const range = address.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') return v4(parts[6]!, parts[7]!);
  if (range === '6to4') return v4(parts[1]!, parts[2]!);
  // IPv4-compatible (::a.b.c.d, deprecated): ipaddr.js calls it unicast, the kernel may still route it.
  if (parts.slice(0, 6).every((p) => p === 0)) return v4(parts[6]!, parts[7]!);
  return null;
}

/**
 * Why an IP may not be reached, or null when it is public unicast. IPv6 forms carrying an IPv4
 * address are judged by that address (a public one inside NAT64/6to4 is public).
 */
export function refusedAddressReason(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!isIP(bare)) return 'not an IP address';
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6') {
    const inner = embeddedIPv4(parsed as ipaddr.IPv6);
    if (inner) return refusedAddressReason(inner.toString());
  }
  const range = parsed.range();
  return range === 'unicast' ? null : range;
}

function inAllowedRange(address: string, policy: OutboundPolicy): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
  const candidates: Array<ipaddr.IPv4 | ipaddr.IPv6> = [parsed];
  if (parsed.kind() === 'ipv6') {
    const inner = embeddedIPv4(parsed as ipaddr.IPv6);
    if (inner) candidates.push(inner);
  }
  return candidates.some((candidate) =>
    policy.ranges.some(([net, bits]) => {
      parsed = candidate;
      return parsed.kind() === net.kind() && parsed.match(net, bits);
    }),
  );
}

/** Whether `address` (what `hostname` resolved to, or the literal) may be connected to. */
export function addressAllowed(address: string, hostname: string, policy: OutboundPolicy): boolean {
  if (refusedAddressReason(address) === null) return true;
  if (!isIP(address.replace(/^\[|\]$/g, ''))) return false;
  return policy.names.has(hostname.toLowerCase().replace(/^\[|\]$/g, '')) || inAllowedRange(address, policy);
}

/** A request refused before any byte left: the address, never anything the remote said. */
export class OutboundRefusedError extends Error {
  readonly outboundRefused = true;
  constructor(
    readonly target: string,
    why: string,
  ) {
    super(`Outbound request to ${target} refused: ${why}`);
    this.name = 'OutboundRefusedError';
  }
}

export const isOutboundRefused = (error: unknown): error is OutboundRefusedError =>
  error instanceof Error && (error as Partial<OutboundRefusedError>).outboundRefused === true;

/** The refusal behind a failed request (thrown directly, or as the cause of fetch's 'fetch failed'). */
export function refusalOf(error: unknown): OutboundRefusedError | null {
  if (isOutboundRefused(error)) return error;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return isOutboundRefused(cause) ? cause : null;
}

/**
 * The address to open a non-HTTP connection to (SMTP, IMAP) for a user-given host, under the same
 * policy as the HTTP client: every address the name resolves to must be allowed, and the caller
 * connects to the address answered (not the name again), so a re-resolution cannot swap it.
 */
export async function resolveAllowedHost(
  hostname: string,
  policy: OutboundPolicy,
  lookup: (host: string) => Promise<{ address: string }[]> = defaultLookup,
): Promise<string> {
  const bare = hostname.trim().replace(/^\[|\]$/g, '');
  if (isIP(bare)) {
    if (!addressAllowed(bare, bare, policy))
      throw new OutboundRefusedError(bare, `${refusedAddressReason(bare)} addresses are not allowed`);
    return bare;
  }
  let addresses: { address: string }[];
  try {
    addresses = await lookup(bare);
  } catch {
    throw new OutboundRefusedError(bare, 'it does not resolve');
  }
  const refused = addresses.find((a) => !addressAllowed(a.address, bare, policy));
  if (refused || addresses.length === 0)
    throw new OutboundRefusedError(
      bare,
      refused ? `it resolves to ${refused.address}, which is not a public address` : 'it does not resolve',
    );
  return addresses[0]!.address;
}

async function defaultLookup(host: string): Promise<{ address: string }[]> {
  const { promises } = await import('node:dns');
  return promises.lookup(host, { all: true });
}
