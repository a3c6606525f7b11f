/**
 * The engine console's connection: the engine's own debug API (/api) and event stream
 * (/api/events) on its port, signed in by the cookie /status/login sets, or open when the
 * engine has no HTTP_TOKEN. A 401 means the session is gone (a restart forgets sessions): the
 * browser goes to the sign-in page, which comes back here.
 */
import { failure, fetchJson } from "../api.js";
import type { HouseConnection } from "../house/connection.js";

/** The page's hash for a House page: "#overview" for the overview (""), else "#<slug>". */
export function hashOf(slug: string): string {
  return `#${slug || "overview"}`;
}

export function statusConnection(settings: { apiBase: string; loginUrl: string | null }): HouseConnection {
  const { apiBase, loginUrl } = settings;
  const signIn = () => {
    if (loginUrl) location.assign(loginUrl);
  };
  return {
    apiBase,
    eventsUrl: `${apiBase}/events`,
    async request<T>(method: string, url: string, body?: unknown): Promise<T> {
      const response = await fetchJson(url, method, body);
      if (response.status === 401) signIn();
      if (!response.ok) throw await failure(response);
      const text = await response.text();
      return (text ? JSON.parse(text) : undefined) as T;
    },
    streamHeaders: () => ({}),
    async renew() {
      signIn();
      return false;
    },
    href: hashOf,
    accounts: false,
  };
}
