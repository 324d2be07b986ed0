import { BlockList, isIPv4, isIPv6 } from 'node:net';

// Addresses an audit must never reach: "this network", private, carrier-grade NAT, loopback,
// link-local (which holds the cloud metadata address 169.254.169.254), IETF protocol assignments,
// the documentation ranges TEST-NET-1/2/3, benchmarking, multicast, reserved and broadcast.
const BLOCKED_V4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED_V4.addSubnet(network, prefix, 'ipv4');
}

// IPv6 ranges refused outright: unique-local (fd00:ec2::254 is AWS's metadata address),
// link-local, site-local, multicast, documentation, discard-only, Teredo (its client address is
// obfuscated, so it cannot be checked) and ORCHID/benchmarking.
const BLOCKED_V6 = new BlockList();
for (const [network, prefix] of [
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
  ['2001::', 32],
  ['2001:2::', 48],
  ['2001:10::', 28],
  ['2001:20::', 28],
] as const) {
  BLOCKED_V6.addSubnet(network, prefix, 'ipv6');
}

// Addresses no audit may reach under any policy: link-local (169.254.0.0/16 and fe80::/10, where
// cloud instance metadata lives: 169.254.169.254), AWS's IPv6 metadata address and Alibaba
// Cloud's metadata address.
const METADATA_V4 = new BlockList();
METADATA_V4.addSubnet('169.254.0.0', 16, 'ipv4');
METADATA_V4.addAddress('100.100.100.200', 'ipv4');
const METADATA_V6 = new BlockList();
METADATA_V6.addSubnet('fe80::', 10, 'ipv6');
METADATA_V6.addAddress('fd00:ec2::254', 'ipv6');

/**
 * True for a link-local or cloud metadata address, in any form (IPv4, IPv4-mapped or otherwise
 * embedded in IPv6); anything that is not an IP address is not one.
 */
export function isMetadataAddress(address: string): boolean {
  if (isIPv4(address)) return METADATA_V4.check(address, 'ipv4');
  const words = ipv6Words(address);
  if (!words) return false;
  const embedded = embeddedIpv4(words);
  if (embedded) return METADATA_V4.check(embedded, 'ipv4');
  return METADATA_V6.check(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''), 'ipv6');
}

/**
 * True for any address an audit must not connect to, including IPv6 forms that carry a blocked
 * IPv4 address: IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::/96, which holds :: and ::1),
 * NAT64 (64:ff9b::/96 and 64:ff9b:1::/48) and 6to4 (2002::/16, the IPv4 address in bits 16-47).
 * Anything that is not an IP address is blocked.
 */
export function isBlockedAddress(address: string): boolean {
  if (isIPv4(address)) return BLOCKED_V4.check(address, 'ipv4');
  const words = ipv6Words(address);
  if (!words) return true;
  const embedded = embeddedIpv4(words);
  if (embedded !== undefined) return embedded === null || BLOCKED_V4.check(embedded, 'ipv4');
  return BLOCKED_V6.check(address, 'ipv6');
}

/**
 * The IPv4 address an IPv6 address stands for, undefined when it stands for none, null when it
 * embeds nothing checkable (the unspecified address and the loopback ::1 are IPv4-compatible
 * forms of 0.0.0.0 and 0.0.0.1, both blocked by the IPv4 list anyway).
 */
function embeddedIpv4(words: readonly number[]): string | null | undefined {
  const zeros = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  if (zeros(0, 5) && words[5] === 0xffff) return v4(words[6]!, words[7]!); // ::ffff:0:0/96
  if (zeros(0, 6)) return v4(words[6]!, words[7]!); // ::/96
  if (words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6)) return v4(words[6]!, words[7]!);
  if (words[0] === 0x64 && words[1] === 0xff9b && words[2] === 1) return null; // local-use NAT64
  if (words[0] === 0x2002) return v4(words[1]!, words[2]!); // 6to4
  return undefined;
}

/** The eight 16-bit words of an IPv6 address (with or without a zone or an IPv4 tail), or null. */
function ipv6Words(address: string): number[] | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIPv6(bare)) return null;
  let text = bare;
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part ? part.split(':').map((w) => parseInt(w, 16)) : []);
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  const fill = rest === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0);
  const words = [...left, ...fill, ...right];
  return words.length === 8 ? words : null;
}
