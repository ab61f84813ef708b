// The SSRF rule for webhook targets: in production an endpoint whose host is, or resolves to, an
// address that is not public unicast (private, loopback, link-local, unique-local, carrier-grade NAT,
// multicast, reserved ...) is refused, both when it is saved and at every delivery, where the check
// runs inside the connection's own DNS lookup so the address checked is the address connected to.
// Outside production loopback is allowed as well, so tests and local receivers work.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { FoyerEnv } from '../config.ts';

export class RefusedAddress extends Error {
  constructor(readonly address: string) {
    super(`The address ${address} is not a public address`);
  }
}

export function isAllowedAddress(address: string, env: FoyerEnv): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = ipaddr.process(address).range();
  return range === 'unicast' || (env !== 'production' && range === 'loopback');
}

/** The host of a URL as an address or DNS name (IPv6 literals lose their brackets). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Every address `host` resolves to; refuses the host when any of them is not allowed. */
export async function checkHost(host: string, env: FoyerEnv): Promise<void> {
  const addresses: LookupAddress[] = isIP(host)
    ? [{ address: host, family: isIP(host) }]
    : await new Promise((resolve, reject) => dnsLookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found))));
  const refused = addresses.find((entry) => !isAllowedAddress(entry.address, env));
  if (refused) throw new RefusedAddress(refused.address);
}

/** A DNS lookup for node:http that refuses any address the rule refuses (used at delivery). */
export function guardedLookup(env: FoyerEnv): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((entry) => !isAllowedAddress(entry.address, env));
      if (refused) return callback(new RefusedAddress(refused.address), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const [first] = addresses;
      if (!first) return callback(new Error(`No address for ${hostname}`), '', 0);
      callback(null, first.address, first.family);
    });
  };
}
