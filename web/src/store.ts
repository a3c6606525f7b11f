import { useLayoutEffect, useState } from "preact/hooks";
import type { FreezerDetail, Household, User } from "./api.js";
import type { QueuedWrite } from "./offline.js";

/** What every screen needs: who is signed in, which household is open, whether we are online. */
export interface AppState {
  /** undefined while the app starts and asks for a session. */
  user: User | null | undefined;
  households: Household[];
  householdId: string | null;
  freezers: FreezerDetail[];
  online: boolean;
  /** An invite code from /invite/<code>, kept until the user is signed in and it is accepted. */
  pendingInvite: string | null;
  /** Why the session could not be resumed at start (a rate limit, a server error), if it failed. */
  bootError: unknown;
  /** Whether the household list has been loaded once this session (until then no screen may say "none"). */
  householdsLoaded: boolean;
  /** Why the household list could not be loaded; shown with a retry instead of an empty state. */
  householdsError: unknown;
  /** A sentence about something that happened to the user, not by their hand (removed from a household). */
  notice: string | null;
  /** The last thing said to screen readers (a screen change, an add); read by the live region. */
  announcement: string;
  /** Writes made offline, waiting to be sent or refused by the server. */
  pending: QueuedWrite[];
  /** Bumped by every live event of the household, so open lists and items reload. */
  liveVersion: number;
}

const listeners = new Set<() => void>();
let state: AppState = {
  user: undefined,
  households: [],
  householdId: null,
  freezers: [],
  online: typeof navigator === "undefined" ? true : navigator.onLine,
  pendingInvite: null,
  bootError: null,
  householdsLoaded: false,
  householdsError: null,
  notice: null,
  announcement: "",
  pending: [],
  liveVersion: 0,
};

/** Says `text` to screen readers through the app's polite live region. */
export function announce(text: string): void {
  // The same sentence twice in a row would not be read again; a trailing no-break space changes it.
  setState({ announcement: state.announcement === text ? `${text}\u00a0` : text });
}

export function getState(): AppState {
  return state;
}

export function setState(changes: Partial<AppState>): void {
  state = { ...state, ...changes };
  for (const listener of listeners) listener();
}

/** Calls `listener` after every change of the state; returns the unsubscribe. */
export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current state, re-rendering the component whenever it changes. */
export function useAppState(): AppState {
  const [, setVersion] = useState(0);
  const rendered = state;
  useLayoutEffect(() => {
    const listener = () => setVersion((version) => version + 1);
    listeners.add(listener);
    // A change between this render and the subscription (offline, the boot fails at once)
    // would otherwise never reach the component.
    if (state !== rendered) listener();
    return () => {
      listeners.delete(listener);
    };
  }, []);
  return state;
}

// ---- The offline copy: the last loaded lists, read back when the API cannot be reached.

const PREFIX = "hearth.";

export function remember(key: string, value: unknown): void {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // Storage full or disabled (private mode): the app works, only without an offline copy.
  }
}

export function recall<T>(key: string): T | null {
  try {
    const text = localStorage.getItem(PREFIX + key);
    return text === null ? null : (JSON.parse(text) as T);
  } catch {
    return null;
  }
}

export function forgetAll(): void {
  try {
    for (const key of Object.keys(localStorage)) if (key.startsWith(PREFIX)) localStorage.removeItem(key);
  } catch {
    // Nothing stored, nothing to forget.
  }
}

export function currentHousehold(): Household | null {
  return state.households.find((household) => household.id === state.householdId) ?? null;
}

export function compartmentName(compartmentId: string): string | null {
  for (const freezer of state.freezers) {
    const found = freezer.compartments.find((compartment) => compartment.id === compartmentId);
    if (found) return found.name;
  }
  return null;
}

export function freezerName(freezerId: string): string | null {
  return state.freezers.find((freezer) => freezer.id === freezerId)?.name ?? null;
}
