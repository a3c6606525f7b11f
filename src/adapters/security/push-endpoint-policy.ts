import { BlockList, isIP } from "node:net";

/**
 * Addresses a push endpoint must not reach: loopback, private, link-local, carrier-grade NAT,
 * unique-local and unspecified (RFC 1918, 3927, 4193, 6598, 6890). Any account can register
 * any endpoint URL and make the server POST to it; without this, a member could point Hearth at
 * the router or another device on the home network.
 */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["224.0.0.0", 3],
] as const)
  PRIVATE.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  PRIVATE.addSubnet(net, prefix, "ipv6");

/** Whether `address` (an IP literal) is one a push endpoint must not reach. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    // An IPv4-mapped IPv6 address is the IPv4 address.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped?.[1]) return PRIVATE.check(mapped[1], "ipv4");
    return PRIVATE.check(address, "ipv6");
  }
  return PRIVATE.check(address, "ipv4");
}

/**
 * Why an endpoint URL is refused, or null. Always https (push services are, RFC 8030 section 8);
 * with `allowPrivate` false (the default) also no IP literal of a private range and no local name
 * (localhost, *.local, *.lan, *.home.arpa, *.internal). Names are checked again at connect time
 * (see {@link guardedLookup}), since a public name may resolve to a private address.
 */
export function pushEndpointProblem(endpoint: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return "must be an absolute URL";
  }
  if (url.protocol !== "https:") return "must be an https URL (a push service's)";
  if (url.username !== "" || url.password !== "") return "must not carry a user name or password";
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (isPrivateAddress(host)) return "must not point into a private network";
  if (host === "localhost" || /\.(localhost|local|lan|home\.arpa|internal)$/.test(host) || !host.includes("."))
    return "must name a push service on the internet";
  return null;
}
