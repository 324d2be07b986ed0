import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isBlockedAddress, isMetadataAddress } from './blocked-addresses.ts';

/** A URL or connection the auditor must not make: wrong scheme, unresolvable, or an internal address. */
export class BlockedUrlError extends Error {
  override readonly name = 'BlockedUrlError';
}

/** Which hosts an audit may reach besides public ones. */
export interface UrlPolicy {
  /**
   * Private and loopback addresses are allowed (local development: `AUDIT_ALLOW_PRIVATE_URLS=true`);
   * link-local and cloud metadata addresses never are.
   */
  readonly allowPrivate: boolean;
  /**
   * Exact `host:port` pairs allowed although they resolve to private addresses
   * (`AUDIT_ALLOWED_HOSTS`): the tests' fixture server, an intranet site an operator vouches for.
   */
  readonly allowedHosts?: readonly string[];
}

/** Where to connect for one host: an address that passed the policy. */
export interface CheckedHost {
  readonly address: string;
}

const PUBLIC_ONLY = 'Must be publicly accessible (resolves to a private, loopback or link-local address)';
const NEVER = 'Must not be a link-local or cloud metadata address';

/** `host:port` as the allow-list spells it: lower-case host, IPv6 in brackets, the port always given. */
export function hostKey(hostname: string, port: number): string {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}

/**
 * Resolves a host once and checks every address it resolves to, so a name with one private
 * record is refused; the caller connects to the returned address, never to the name again
 * (a second lookup could answer differently: DNS rebinding).
 */
export async function checkHost(hostname: string, port: number, policy: UrlPolicy): Promise<CheckedHost> {
  const host = hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host)
      ? [host]
      : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    throw new BlockedUrlError(`url: Host ${host} cannot be resolved`);
  }
  if (!addresses.length) throw new BlockedUrlError(`url: Host ${host} cannot be resolved`);
  // Whatever the policy allows, instance metadata (credentials) is never an audit's to read.
  if (addresses.some(isMetadataAddress)) throw new BlockedUrlError(`url: ${NEVER}`);
  const trusted = policy.allowPrivate || !!policy.allowedHosts?.includes(hostKey(host, port));
  if (!trusted && addresses.some(isBlockedAddress)) throw new BlockedUrlError(`url: ${PUBLIC_ONLY}`);
  return { address: addresses[0]! };
}

/** The port a URL connects to, its scheme's default when none is written. */
export function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/**
 * Refuses anything but http(s) URLs whose host resolves only to public addresses (or is allowed
 * by the policy), and metadata addresses always. This is the early answer for the API; every connection the browser makes is
 * checked again by the audit's egress proxy.
 */
export async function assertAuditableUrl(raw: string, policy: UrlPolicy): Promise<URL> {
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
  await checkHost(url.hostname, portOf(url), policy);
  return url;
}
