/**
 * Where the House pages reach the engine. One set of pages serves two entries of the app: the
 * family app's House section (the engine's debug API through the inventory API at
 * /api/v1/house, signed in with the account's token) and the engine's own console at /status
 * (the engine's /api, signed in with the /status/login cookie or not at all). Each entry gives
 * the pages its connection through this context; nothing in house/ names a URL of its own.
 */
import { createContext } from "preact";
import { useContext } from "preact/hooks";

export interface HouseConnection {
  /** The debug API's base, without a trailing slash: "/api/v1/house" or "/api". */
  apiBase: string;
  /** The live event stream (Server-Sent Events) of the same engine. */
  eventsUrl: string;
  /** Sends one request to `url` (under apiBase), signed in the way the entry is; throws ApiError. */
  request<T>(method: string, url: string, body?: unknown): Promise<T>;
  /** Headers that sign the event stream in (the account's bearer token); none for a cookie session. */
  streamHeaders(): Record<string, string>;
  /** After the stream answered 401: true when a retry may succeed at once (a refreshed session). */
  renew(): Promise<boolean>;
  /** The address of the House page `slug` ("" for the overview). */
  href(slug: string): string;
  /** Moves to `href` without a page load; absent, the link is followed as the browser does (a #fragment). */
  navigate?: (href: string) => void;
  /** Whether the entry has accounts, so the Admins page (the installation's roles) belongs in it. */
  accounts: boolean;
}

export const HouseConnectionContext = createContext<HouseConnection | null>(null);

/** The connection of the entry the House pages are rendered in. */
export function useHouseConnection(): HouseConnection {
  const connection = useContext(HouseConnectionContext);
  if (!connection) throw new Error("the House pages are rendered outside a HouseConnectionContext");
  return connection;
}
