import { lookup } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses the journal sends the search key and the posts to (docs/journal.md, "The
 * engine's address"). The ranges come from the `ipaddr.js` library; the policy is the journal's:
 *
 * - never: unspecified (`0.0.0.0`, `::`), link-local (`169.254.0.0/16`, `fe80::/10`, the cloud
 *   metadata address `169.254.169.254` among them), the other metadata addresses of the large
 *   clouds, multicast, broadcast, reserved and documentation ranges, and IPv6 forms that embed an
 *   IPv4 address other than the mapped one (NAT64, 6to4, Teredo: they could reach any of these);
 * - only when the host allows it (`typesense: { allowPrivateAddresses: true }`): loopback
 *   (`127.0.0.0/8`, `::1`), private (`10/8`, `172.16/12`, `192.168/16`, `fc00::/7`) and shared
 *   (`100.64/10`) ranges;
 * - any other (public unicast) address.
 */
export interface AddressPolicy {
  allowPrivateAddresses: boolean;
}

/** The journal's default: no loopback or private address. */
export const PUBLIC_ADDRESSES_ONLY: AddressPolicy = Object.freeze({ allowPrivateAddresses: false });

/** Metadata services outside the link-local range (Alibaba Cloud, Azure's wire server, AWS over IPv6). */
const METADATA = new Set(['100.100.100.200', '168.63.129.16', 'fd00:ec2::254']);
/**
 * Names of metadata services, refused before any lookup whatever they resolve to (Google Cloud's;
 * it answers on `169.254.169.254`, refused as link-local, but a resolver that maps it elsewhere
 * must not open a way to it).
 */
const METADATA_NAMES = new Set(['metadata.google.internal']);

/** Whether a host name is a metadata service's own name (`metadata.google.internal`, any case, a final dot or not). */
export const isMetadataName = (hostname: string): boolean => METADATA_NAMES.has(hostname.toLowerCase().replace(/\.$/, ''));

/** Ranges a host may allow: its own machine and its private network. */
const PRIVATE_RANGES = new Set(['loopback', 'private', 'carrierGradeNat', 'uniqueLocal']);

/** Why an address is refused (`never`, or `private` while the host does not allow it), or undefined. */
export function addressRefusal(address: string, policy: AddressPolicy): 'never' | 'private' | undefined {
  if (!ipaddr.isValid(address)) return 'never';
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (METADATA.has(parsed.toNormalizedString()) || METADATA.has(parsed.toString())) return 'never';
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  if (PRIVATE_RANGES.has(range)) return policy.allowPrivateAddresses ? undefined : 'private';
  return 'never';
}

/** An IP literal as a URL's `hostname` writes it (`[::1]` for IPv6), or undefined for a name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : undefined;
}

/** A refused address and why. */
export class AddressRefused extends Error {
  readonly reason: 'never' | 'private';

  constructor(address: string, reason: 'never' | 'private') {
    super(
      reason === 'private'
        ? `the address ${address} is on the host's own machine or private network, which the journal is not allowed to reach`
        : `the address ${address} is link-local, a metadata service, unspecified or reserved, which the journal never reaches`,
    );
    this.name = 'AddressRefused';
    this.reason = reason;
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, addresses: Array<{ address: string; family: 4 | 6 }>) => void;

/**
 * Resolves a host name (every address), refuses it when any address is refused, else answers
 * every address. Used as the connection's own `lookup`: the request connects to an address this
 * function checked, never to one a second resolution could answer (DNS rebinding).
 */
export function checkedLookup(policy: AddressPolicy, onRefused?: (error: AddressRefused) => void) {
  return (hostname: string, _options: unknown, callback: LookupCallback): void => {
    if (isMetadataName(hostname)) {
      const refused = new AddressRefused(hostname, 'never');
      onRefused?.(refused);
      callback(refused, []);
      return;
    }
    lookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, []);
      for (const { address } of addresses) {
        const reason = addressRefusal(address, policy);
        if (reason) {
          const refused = new AddressRefused(address, reason);
          onRefused?.(refused);
          return callback(refused, []);
        }
      }
      callback(
        null,
        addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 })),
      );
    });
  };
}

/** Every address of a host name, within `timeoutMs`. */
function resolveAll(hostname: string, timeoutMs: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`resolving ${hostname} took longer than ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
    lookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(addresses.map((entry) => entry.address));
    });
  });
}

/**
 * The save-time check of a URL's host (the settings' `validate`): an IP literal is classified, a
 * name resolved (every address). Answers a refusal, or undefined when every address is allowed.
 */
export async function hostRefusal(
  hostname: string,
  policy: AddressPolicy,
  timeoutMs = 3000,
): Promise<'never' | 'private' | 'unresolved' | undefined> {
  const literal = literalAddress(hostname);
  if (literal !== undefined) return addressRefusal(literal, policy);
  if (isMetadataName(hostname)) return 'never';
  let addresses: string[];
  try {
    addresses = await resolveAll(hostname, timeoutMs);
  } catch {
    return 'unresolved';
  }
  if (addresses.length === 0) return 'unresolved';
  const reasons = addresses.map((address) => addressRefusal(address, policy));
  return reasons.includes('never') ? 'never' : reasons.includes('private') ? 'private' : undefined;
}
