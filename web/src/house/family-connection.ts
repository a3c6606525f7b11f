/** The family app's connection to the engine: its routes under /api/v1/house, as the signed-in admin. */
import { currentAccessToken, refreshSession, requestAt } from "../api.js";
import { navigate } from "../router.js";
import type { HouseConnection } from "./connection.js";

export const familyConnection: HouseConnection = {
  apiBase: "/api/v1/house",
  eventsUrl: "/api/v1/house/events",
  request: (method, url, body) => requestAt(url, method, body),
  streamHeaders(): Record<string, string> {
    const token = currentAccessToken();
    return token ? { Authorization: `Bearer ${token}` } : {};
  },
  renew: () => refreshSession(),
  href: (slug) => (slug ? `/house/${slug}` : "/house"),
  navigate: (href) => navigate(href),
  accounts: true,
};
