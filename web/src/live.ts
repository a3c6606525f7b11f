/**
 * Live updates: the household's events (GET /api/v1/households/:hid/events, Server-Sent Events)
 * read with fetch, since EventSource cannot send the bearer token. Reconnects with backoff and
 * `Last-Event-ID`; every change bumps `liveVersion`, which open lists and items reload on.
 */
import { currentAccessToken, refreshSession } from "./api.js";
import { loadFreezers, membershipLost } from "./data.js";
import { getState, setState } from "./store.js";

const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;
/** Events closer together than this reload once (an import, a burst of take-outs). */
const COALESCE_MS = 150;

let following: { householdId: string; controller: AbortController } | null = null;
let pendingBump: ReturnType<typeof setTimeout> | null = null;

function bump(reloadFreezers: boolean): void {
  if (reloadFreezers) void loadFreezers().catch(() => undefined);
  if (pendingBump) return;
  pendingBump = setTimeout(() => {
    pendingBump = null;
    setState({ liveVersion: getState().liveVersion + 1 });
  }, COALESCE_MS);
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** One event block of the stream ("id: …\nevent: …\ndata: …"); false when the stream should end. */
function handle(block: string, householdId: string, remember: (id: string) => void): boolean {
  let type = "message";
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "id") remember(value);
    else if (field === "event") type = value;
  }
  if (type === "message") return true;
  if (type === "membership.ended") {
    void membershipLost(householdId);
    return false;
  }
  bump(type === "reset" || type.startsWith("freezer.") || type.startsWith("compartment."));
  return true;
}

async function follow(householdId: string, signal: AbortSignal): Promise<void> {
  const last: { id: string | null } = { id: null };
  let delay = FIRST_DELAY_MS;
  while (!signal.aborted) {
    try {
      const token = currentAccessToken();
      const headers: Record<string, string> = { Accept: "text/event-stream" };
      if (token) headers.Authorization = `Bearer ${token}`;
      if (last.id) headers["Last-Event-ID"] = last.id;
      const response = await fetch(`/api/v1/households/${encodeURIComponent(householdId)}/events`, {
        headers,
        cache: "no-store",
        credentials: "same-origin",
        signal,
      });
      if (response.status === 401) {
        // The access token expired: refresh (once across tabs) and reconnect at once.
        if (await refreshSession().catch(() => false)) continue;
      } else if (response.status === 403) {
        void membershipLost(householdId);
        return;
      } else if (response.status === 404 || response.status === 405 || response.status === 501) {
        // A server without the event stream: the app works as before, without live updates.
        return;
      } else if (response.ok && response.body) {
        delay = FIRST_DELAY_MS;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        let open = true;
        while (open) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          for (let end = buffer.search(/\r?\n\r?\n/); end >= 0; end = buffer.search(/\r?\n\r?\n/)) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
            if (
              !handle(block, householdId, (id) => {
                last.id = id;
              })
            ) {
              open = false;
              break;
            }
          }
        }
        if (!open) return;
      }
    } catch {
      // Offline, a proxy closing an idle stream, a restart: reconnect after the backoff below.
    }
    if (signal.aborted) return;
    await wait(delay + Math.random() * delay * 0.3, signal);
    delay = Math.min(delay * 2, MAX_DELAY_MS);
  }
}

/** Follows the open household's events while online and signed in; switches with the household. */
export function followLive(): void {
  const { user, householdId, online } = getState();
  const wanted = user && online && householdId ? householdId : null;
  if (following?.householdId === wanted) return;
  following?.controller.abort();
  following = null;
  if (!wanted) return;
  const controller = new AbortController();
  following = { householdId: wanted, controller };
  void follow(wanted, controller.signal);
}
