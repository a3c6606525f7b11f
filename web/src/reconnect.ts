/**
 * Getting back online. The browser's own online event covers a phone that had no network at all,
 * but Hearth usually runs on a box at home: in a shop the phone is online and only Hearth cannot
 * be reached, so no browser event ever says it can again. While the app is offline by its own
 * finding it asks Hearth's health route, with a growing pause, and at once when the app comes
 * back to the front; once Hearth answers, the session resumes and the writes made offline go out.
 */
import { currentAccessToken, finishPendingSignOut } from "./api.js";
import { boot, flushPending } from "./data.js";
import { getState, setState, subscribe } from "./store.js";

const FIRST_PAUSE_MS = 2000;
const LONGEST_PAUSE_MS = 30_000;
const PROBE_TIMEOUT_MS = 10_000;

let probing = false;
let wake: (() => void) | null = null;

/** The connection is back (the browser says so, or Hearth answered a probe). */
async function backOnline(): Promise<void> {
  setState({ online: true });
  // Started offline from the stored copy: there is no session yet, so resume it as a start would.
  if (getState().user && !currentAccessToken()) await boot();
  void finishPendingSignOut();
  // Writes queued offline go out on any screen, not only when the home screen is open.
  await flushPending();
}

/** Whether Hearth answers with its database up: a 503 would refuse the writes waiting here. */
async function hearthAnswers(): Promise<boolean> {
  try {
    const response = await fetch("/api/v1/health", {
      cache: "no-store",
      credentials: "omit",
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    return response.ok;
  } catch {
    return false;
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      wake = null;
      resolve();
    }
    wake = done;
  });
}

async function probeUntilBack(): Promise<void> {
  if (probing) return;
  probing = true;
  try {
    let wait = FIRST_PAUSE_MS;
    while (!getState().online) {
      await pause(wait);
      if (getState().online) return;
      // No network at all: the browser's online event will say when there is.
      if (navigator.onLine === false) continue;
      if (await hearthAnswers()) {
        await backOnline();
        return;
      }
      wait = Math.min(wait * 2, LONGEST_PAUSE_MS);
    }
  } finally {
    probing = false;
  }
}

/** Follows the connection for the whole app: called once at start. */
export function watchConnection(): void {
  window.addEventListener("online", () => void backOnline());
  window.addEventListener("offline", () => setState({ online: false }));
  // A phone unlocked or the app brought to the front: ask now rather than after the pause.
  const askNow = () => wake?.();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") askNow();
  });
  window.addEventListener("focus", askNow);
  subscribe(() => {
    if (!getState().online) void probeUntilBack();
  });
  if (!getState().online) void probeUntilBack();
}
