import type { Request } from "express";

/** Label of a request that reached no router and no route (a scanner's random URL). */
export const UNMATCHED_ROUTE = "unmatched";

/** Decodes one path segment the way Express decodes parameters; a malformed escape stays as it is. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Whether `value` (a `:name` string or a `*name` list of segments) was taken from `segments` at `index`. */
function matchesAt(segments: string[], index: number, value: unknown): boolean {
  if (typeof value === "string") return value !== "" && decodeSegment(segments[index] ?? "") === value;
  if (!Array.isArray(value) || value.length === 0) return false;
  return value.every((part, offset) => decodeSegment(segments[index + offset] ?? "") === part);
}

/**
 * Turns the path a router mount consumed (`/households/ck9x…/items`) back into its
 * pattern (`/households/:hid/items`), using the parameters Express extracted from it.
 */
function mountPattern(consumed: string, params: unknown): string {
  const unused = Object.entries(params !== null && typeof params === "object" ? params : {});
  const segments = consumed.split("/");
  const pattern: string[] = [];
  let index = 0;
  while (index < segments.length) {
    const found = unused.findIndex(([, value]) => matchesAt(segments, index, value));
    if (found < 0) {
      pattern.push(segments[index] ?? "");
      index += 1;
      continue;
    }
    const [name, value] = unused.splice(found, 1)[0] as [string, unknown];
    pattern.push(Array.isArray(value) ? `*${name}` : `:${name}`);
    index += Array.isArray(value) ? value.length : 1;
  }
  return pattern.join("/");
}

function joinRoute(base: string, routePath: string): string {
  const joined = `${base}${routePath === "/" && base ? "" : routePath}`;
  return joined || "/";
}

/**
 * Follows Express routing one request to name its route template for metrics labels,
 * e.g. `/api/v1/households/:hid/items/:iid`, never the URL (ids would make one series
 * per household). Call it before the routers run; the returned function names the
 * template once the response has finished.
 *
 * Express keeps only the *actual* path of router mounts in `req.baseUrl`, and restores it
 * (and `req.params`) before an error bubbles to an outer error handler, so reading
 * `req.baseUrl + req.route.path` at the end gives ids in nested mounts and a bare
 * `/:iid` for every 4xx an outer handler answers. So this watches the two assignments
 * Express makes while routing: each new `baseUrl` (a router mount entered, turned back
 * into its pattern with the parameters just extracted from it) and each `route` matched
 * (recorded with the mount pattern it was matched under).
 *
 * A request no route matched is labelled with the deepest router it entered plus `/*`
 * (`/api/*` for a 401 from the debug API's token check, `/webhook/*` for webhooks,
 * which a router-level handler answers), or {@link UNMATCHED_ROUTE} when it entered none.
 */
export function trackRouteTemplate(req: Request): () => string {
  const initial = typeof req.baseUrl === "string" ? req.baseUrl : "";
  let baseUrl = initial;
  let route: unknown = req.route;
  let matched: string | null = null;
  /** Actual mount path → its pattern. */
  const mounts = new Map<string, string>([[initial, initial]]);
  const patternOf = (actual: string) => mounts.get(actual) ?? actual;

  Object.defineProperty(req, "baseUrl", {
    configurable: true,
    enumerable: true,
    get: () => baseUrl,
    set(value: unknown) {
      const next = typeof value === "string" ? value : "";
      // A longer value that extends the current one is a router mount being entered;
      // `req.params` holds what Express just extracted from that mount's path.
      if (next.length > baseUrl.length && next.startsWith(baseUrl) && !mounts.has(next)) {
        mounts.set(next, patternOf(baseUrl) + mountPattern(next.slice(baseUrl.length), req.params));
      }
      baseUrl = next;
    },
  });
  Object.defineProperty(req, "route", {
    configurable: true,
    enumerable: true,
    get: () => route,
    set(value: unknown) {
      route = value;
      const routePath = (value as { path?: unknown } | null | undefined)?.path;
      if (typeof routePath === "string") matched = joinRoute(patternOf(baseUrl), routePath);
    },
  });

  return () => {
    if (matched !== null) return matched;
    let deepest = initial;
    for (const actual of mounts.keys()) if (actual.length > deepest.length) deepest = actual;
    return deepest === initial ? UNMATCHED_ROUTE : `${patternOf(deepest)}/*`;
  };
}
