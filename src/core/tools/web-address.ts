/**
 * Addresses web_fetch refuses unless `webFetch.allowPrivate` (server-side request forgery): loopback,
 * link-local (where cloud metadata services answer), private, carrier-grade NAT, multicast, reserved and
 * unspecified, IPv4 and IPv6 (an IPv4 address mapped into IPv6 is judged as IPv4). Host names that name
 * this machine or a local network (`localhost`, `*.internal`, …) are refused by name, before any lookup.
 */
import { BlockList, isIP } from 'node:net';

type Kind = 'a loopback address' | 'a link-local address' | 'a private address' | 'a reserved address';

const ranges: Array<[string, number, 'ipv4' | 'ipv6', Kind]> = [
  ['0.0.0.0', 8, 'ipv4', 'a reserved address'],
  ['10.0.0.0', 8, 'ipv4', 'a private address'],
  ['100.64.0.0', 10, 'ipv4', 'a private address'],
  ['127.0.0.0', 8, 'ipv4', 'a loopback address'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local address'],
  ['172.16.0.0', 12, 'ipv4', 'a private address'],
  ['192.0.0.0', 24, 'ipv4', 'a reserved address'],
  ['192.168.0.0', 16, 'ipv4', 'a private address'],
  ['198.18.0.0', 15, 'ipv4', 'a reserved address'],
  ['224.0.0.0', 4, 'ipv4', 'a reserved address'],
  ['240.0.0.0', 4, 'ipv4', 'a reserved address'],
  ['::', 128, 'ipv6', 'a reserved address'],
  ['::1', 128, 'ipv6', 'a loopback address'],
  ['fc00::', 7, 'ipv6', 'a private address'],
  ['fe80::', 10, 'ipv6', 'a link-local address'],
  ['ff00::', 8, 'ipv6', 'a reserved address'],
];
const lists = ranges.map(([network, prefix, family, kind]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { list, kind };
});

/**
 * What kind of address may not be fetched (`a loopback address`, `a private address`…), or undefined
 * for a public address.
 */
export function privateAddressReason(address: string): string | undefined {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const ip = mapped ?? address;
  const family = isIP(ip);
  if (family === 0) return 'not an IP address';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return lists.find((entry) => entry.list.check(ip, type))?.kind;
}

/** Names that mean this machine or a local network whatever a resolver says (RFC 6761, 6762, 8375). */
const LOCAL_NAMES = /(^|\.)(localhost|internal|local|home\.arpa)\.?$/i;

const ALLOW_HINT = '(set "webFetch": { "allowPrivate": true } in config.json to allow it)';

/**
 * Why the URL will be refused, known without a lookup (an address written in it, or a local name), in
 * one sentence; undefined when only the connection can tell. Nothing here touches the network: a host
 * name is not resolved before the person approves (a lookup would send the name, which the model chose,
 * to DNS servers unasked).
 */
export function addressRefusal(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0) {
    const kind = privateAddressReason(host);
    return kind === undefined ? undefined : refusedSentence(url, `${host} is ${kind}`);
  }
  if (LOCAL_NAMES.test(host)) return refusedSentence(url, `${host} names this machine or a local network`);
  return undefined;
}

/** `web_fetch refuses http://127.0.0.1/: 127.0.0.1 is a loopback address (set … to allow it).` */
export function refusedSentence(url: string, why: string): string {
  return `web_fetch refuses ${url}: ${why} ${ALLOW_HINT}.`;
}
