import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { embeddedIPv4s } from './ipv4-embedded.ts';
import { OutboundError, type OutboundPolicy } from './outbound-policy.ts';

/** Where an address points: only `public` is reachable in production without the allow-list. */
export type AddressKind = 'public' | 'loopback' | 'private' | 'link_local' | 'unspecified' | 'multicast' | 'reserved';

const ranges = (list: [string, number, 'ipv4' | 'ipv6'][]) => {
  const block = new BlockList();
  for (const [net, prefix, type] of list) block.addSubnet(net, prefix, type);
  return block;
};

const KINDS: [Exclude<AddressKind, 'public'>, BlockList][] = [
  [
    'loopback',
    ranges([
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ]),
  ],
  [
    'unspecified',
    ranges([
      ['0.0.0.0', 8, 'ipv4'],
      ['::', 128, 'ipv6'],
    ]),
  ],
  [
    'private',
    ranges([
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
      // Carrier-grade NAT: the provider's network, not the internet.
      ['100.64.0.0', 10, 'ipv4'],
      // Unique-local IPv6.
      ['fc00::', 7, 'ipv6'],
    ]),
  ],
  // Cloud metadata services live here (169.254.169.254): refused even outside production.
  [
    'link_local',
    ranges([
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
      ['fec0::', 10, 'ipv6'],
    ]),
  ],
  [
    'multicast',
    ranges([
      ['224.0.0.0', 4, 'ipv4'],
      ['ff00::', 8, 'ipv6'],
    ]),
  ],
  [
    'reserved',
    ranges([
      ['192.0.0.0', 24, 'ipv4'],
      ['192.0.2.0', 24, 'ipv4'],
      ['192.88.99.0', 24, 'ipv4'],
      ['198.18.0.0', 15, 'ipv4'],
      ['198.51.100.0', 24, 'ipv4'],
      ['203.0.113.0', 24, 'ipv4'],
      ['240.0.0.0', 4, 'ipv4'],
      // IPv4-compatible (deprecated), discard-only, documentation, Teredo, local-use NAT64: the
      // IPv4 they carry is classed too (addressKind), and these stay refused whatever it is.
      ['::', 96, 'ipv6'],
      ['100::', 64, 'ipv6'],
      ['2001:db8::', 32, 'ipv6'],
      ['2001::', 32, 'ipv6'],
      ['64:ff9b:1::', 48, 'ipv6'],
    ]),
  ],
];

/**
 * How far a kind is from reachable: public, then what only development reaches, then what nothing
 * reaches. An IPv6 address is classed by its own range, or by an IPv4 address it carries when that
 * one is further from reachable (a public wrapper around the metadata service is link-local).
 */
const SEVERITY: Record<AddressKind, number> = {
  public: 0,
  private: 1,
  loopback: 2,
  link_local: 3,
  unspecified: 3,
  multicast: 3,
  reserved: 3,
};

function rangeKind(address: string, type: 'ipv4' | 'ipv6'): AddressKind {
  for (const [kind, block] of KINDS) if (block.check(address, type)) return kind;
  return 'public';
}

export function addressKind(address: string): AddressKind {
  const family = isIP(address);
  if (family === 0) return 'reserved';
  if (family === 4) return rangeKind(address, 'ipv4');
  let kind = rangeKind(address, 'ipv6');
  for (const inner of embeddedIPv4s(address)) {
    const innerKind = rangeKind(inner, 'ipv4');
    if (SEVERITY[innerKind] > SEVERITY[kind]) kind = innerKind;
  }
  return kind;
}

function inAllowList(policy: OutboundPolicy, hostname: string, address: string): boolean {
  const host = hostname.toLowerCase();
  const family = isIP(address);
  for (const entry of policy.allow) {
    if (entry.includes('/') || isIP(entry)) {
      const [net = '', bits] = entry.split('/');
      const netFamily = isIP(net);
      if (netFamily === 0 || netFamily !== family) continue;
      const block = new BlockList();
      const type = netFamily === 4 ? 'ipv4' : 'ipv6';
      block.addSubnet(net, bits === undefined ? (netFamily === 4 ? 32 : 128) : Number(bits), type);
      if (block.check(address, type)) return true;
    } else if (entry.startsWith('*.') ? host.endsWith(entry.slice(1)) : host === entry) {
      return true;
    }
  }
  return false;
}

/** Why `address` (reached as `hostname`) may not be fetched under `policy`, or null when it may. */
export function addressProblem(policy: OutboundPolicy, hostname: string, address: string): AddressKind | null {
  if (inAllowList(policy, hostname, address)) return null;
  const kind = addressKind(address);
  if (kind === 'public') return null;
  if (policy.allowPrivate && (kind === 'loopback' || kind === 'private')) return null;
  return kind;
}

const defaultResolve = async (hostname: string) => dnsLookup(hostname, { all: true, verbatim: true });

/** The one address to connect to: every address the name has must be allowed, so no answer can slip one in. */
export async function checkedAddress(policy: OutboundPolicy, url: URL): Promise<{ address: string; family: number }> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(hostname)) addresses = [{ address: hostname, family: isIP(hostname) }];
  // RFC 6761: these names are this machine, whatever a resolver says.
  else if (hostname === 'localhost' || hostname.endsWith('.localhost')) addresses = [{ address: '127.0.0.1', family: 4 }];
  else {
    try {
      addresses = await (policy.resolve ?? defaultResolve)(hostname);
    } catch {
      throw new OutboundError('unresolvable', `The name ${hostname} could not be resolved.`);
    }
  }
  if (!addresses.length) throw new OutboundError('unresolvable', `The name ${hostname} could not be resolved.`);
  for (const { address } of addresses) {
    const problem = addressProblem(policy, hostname, address);
    if (problem)
      throw new OutboundError('refused', `${hostname} points to a ${problem.replace('_', '-')} address, which is not allowed.`);
  }
  return addresses[0] as { address: string; family: number };
}
