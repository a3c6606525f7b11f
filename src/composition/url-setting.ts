/**
 * URL-valued environment variables (NTFY_URL, WEATHER_API_URL, SHELLY_DEVICES, NANOLEAF_PANELS,
 * DATABASE_URL, REDIS_URL, MQTT_HOST) all go through the WHATWG URL parser here, at start. A
 * value the parser refuses, a port outside 1-65535 or a scheme the service cannot speak stops
 * the start naming the variable, instead of every later request failing with "Invalid URL".
 */
import { z } from "zod";

/** Authority of `scheme://[user@]host[:port]`: enough to say which part the parser refused. */
const AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#[]*)(?::([^/?#]*))?/i;

/** "an http:// or https:// URL" for ["http", "https"]. */
function describeSchemes(schemes: readonly string[]): string {
  const listed = schemes.map((scheme) => `${scheme}://`);
  const words = listed.length === 1 ? listed[0] : `${listed.slice(0, -1).join(", ")} or ${listed.at(-1)}`;
  return `${/^[aeiou]|^h/i.test(schemes[0] ?? "") ? "an" : "a"} ${words} URL`;
}

/** Why the parser refused `value`, in words a person can act on. */
function refusalReason(value: string): string {
  const match = AUTHORITY.exec(value);
  const host = match?.[1] ?? "";
  const port = match?.[2];
  if (port !== undefined && port !== "") {
    if (!/^\d+$/.test(port)) return `the port "${port}" is not a number`;
    if (Number(port) > 65535) return `the port ${port} is outside 1-65535`;
  }
  if (/\s/.test(host)) return `the host "${host}" contains a space`;
  return "it is not a valid URL";
}

/**
 * Parses `value` as a URL with one of `schemes` (without the colon), a host, and a port in
 * 1-65535 when one is given. Returns the URL, or what is wrong with the value as a sentence
 * that starts "expected …".
 */
export function parseUrlSetting(value: string, schemes: readonly string[]): URL | string {
  const expected = `expected ${describeSchemes(schemes)}`;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined || !schemes.includes(scheme)) {
    return `${expected} (${scheme === undefined ? "the scheme is missing" : `not ${scheme}://`})`;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${expected} (${refusalReason(value)})`;
  }
  if (url.hostname === "") return `${expected} (the host is missing)`;
  // The parser takes port 0; nothing listens there.
  if (url.port === "0") return `${expected} (the port 0 is outside 1-65535)`;
  return url;
}

/**
 * A zod schema for one URL variable: trims, checks with {@link parseUrlSetting} and gives the
 * value back as written, without trailing slashes (services append their paths).
 */
export function urlSetting(schemes: readonly string[]) {
  return z
    .string()
    .trim()
    .transform((value, context) => {
      const parsed = parseUrlSetting(value, schemes);
      if (typeof parsed === "string") {
        context.addIssue({ code: "custom", message: parsed });
        return z.NEVER;
      }
      return value.replace(/\/+$/, "");
    });
}

/** The schemes the HTTP services (ntfy, weather, Shelly, Nanoleaf) speak. */
export const HTTP_SCHEMES = ["http", "https"] as const;

/**
 * What is wrong with MQTT_HOST, or null: it must be a bare host name or address the URL parser
 * takes as it is (the broker URL is built from it and MQTT_PORT), with no scheme, port, path or user.
 */
export function brokerHostProblem(host: string): string | null {
  const expected = "expected a host name or IP address";
  if (/\s/.test(host)) return `${expected} (it contains a space)`;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(host)) return `${expected}, without a scheme (not ${host})`;
  if (/[/@?#]/.test(host)) return `${expected}, without a path or user (not ${host})`;
  if (/^[^[]*:.*:/.test(host)) return `${expected} (an IPv6 address goes in brackets: [${host}])`;
  if (/^[^[]*:/.test(host)) return `${expected}, without a port (set MQTT_PORT)`;
  try {
    // The http parser, not mqtt's: for a scheme it does not know, the URL parser takes almost any host.
    if (new URL(`http://${host}`).hostname === "") return expected;
  } catch {
    return `${expected} (not ${host})`;
  }
  return null;
}
