/**
 * Mirrors relay status changes into the engine's state as `relay.<device>.<channel>`, so
 * automations react to a Shelly button press with an ordinary state trigger.
 */
import type { StateManagerApi } from "../ports/state-store.js";
import type { RelayService, RelayStatusChange } from "../ports/relay-service.js";

/** The state value of a switch or cover; no timestamps, so only real changes fire triggers. */
export function relayStateValue(change: RelayStatusChange): Record<string, unknown> {
  if (change.kind === "switch") {
    const { on, powerW, source } = change.status;
    return {
      kind: "switch",
      on,
      ...(powerW !== undefined ? { powerW } : {}),
      ...(source !== undefined ? { source } : {}),
    };
  }
  const { state, position, source } = change.status;
  return { kind: "cover", state, position, ...(source !== undefined ? { source } : {}) };
}

/** What the mirror needs of the engine's state: reads, and writes with and without change listeners. */
export interface RelayStateTarget {
  get: StateManagerApi["get"];
  set: StateManagerApi["set"];
  setQuietly(key: string, value: unknown): void;
}

/** Starts mirroring; returns the function that stops it. Does nothing for a relay service without `onStatusChange`. */
export function mirrorRelayStatus(relay: unknown, state: RelayStateTarget): () => void {
  if (typeof (relay as Partial<RelayService> | null)?.onStatusChange !== "function") return () => {};
  return (relay as RelayService).onStatusChange((change) => {
    const value = relayStateValue(change);
    // Power readings arrive every few seconds on metering models; a change of watts alone is not
    // news for state triggers, but the value must still show the new figure.
    const key = `relay.${change.device}.${change.channel}`;
    const previous = state.get<Record<string, unknown>>(key);
    const { powerW: _newPower, ...withoutPower } = value;
    const { powerW: _oldPower, ...previousWithoutPower } = previous ?? {};
    if (previous && JSON.stringify(withoutPower) === JSON.stringify(previousWithoutPower)) {
      state.setQuietly(key, value);
      return;
    }
    state.set(key, value);
  });
}
