import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** A URL the auditor must not visit: wrong scheme, unresolvable, or an internal address. */
export class BlockedUrlError extends Error {
  override readonly name = 'BlockedUrlError';
}

// Loopback, private, carrier-grade NAT, link-local (which holds the cloud metadata address
// 169.254.169.254), unique-local IPv6 (which holds fd00:ec2::254), multicast and reserved ranges.
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family !== 6) return true;
  // An IPv4-mapped IPv6 address reaches the IPv4 host it embeds.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1]!, 'ipv4');
  return BLOCKED.check(address, 'ipv6');
}

export interface UrlGuardOptions {
  /** Tests and local development audit pages on 127.0.0.1. */
  readonly allowPrivate: boolean;
}

/**
 * Refuses anything but http(s) URLs whose host resolves only to public addresses. Every address
 * the name resolves to is checked, so a name with one private record is refused.
 */
export async function assertAuditableUrl(raw: string, { allowPrivate }: UrlGuardOptions): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedUrlError('url: Must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BlockedUrlError('url: Must be an http or https URL');
  }
  if (url.username || url.password) throw new BlockedUrlError('url: Must not carry credentials');
  if (allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host)
      ? [host]
      : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    throw new BlockedUrlError(`url: Host ${host} cannot be resolved`);
  }
  if (!addresses.length || addresses.some(isBlockedAddress)) {
    throw new BlockedUrlError(
      'url: Must be publicly accessible (resolves to a private, loopback or link-local address)',
    );
  }
  return url;
}
