/**
 * Addresses web_fetch refuses unless `webFetch.allowPrivate` (server-side request forgery): loopback,
 * link-local, private, carrier-grade NAT, multicast, reserved and unspecified, IPv4 and IPv6 (an IPv4
 * address mapped into IPv6 is judged as IPv4).
 */
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
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
] as const)
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

/** Why the address may not be fetched, or undefined when it is a public address. */
export function privateAddressReason(address: string): string | undefined {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const ip = mapped ?? address;
  const family = isIP(ip);
  if (family === 0) return `${address} is not an IP address`;
  if (!blocked.check(ip, family === 4 ? 'ipv4' : 'ipv6')) return undefined;
  return `${address} is a loopback, link-local or private address`;
}
