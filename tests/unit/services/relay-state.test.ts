import { expect } from "chai";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { StateManager } from "../../../src/application/automation/state-manager.js";
import { mirrorRelayStatus, relayStateValue } from "../../../src/composition/relay-state.js";
import type { RelayStatusChange, RelayStatusListener } from "../../../src/ports/relay-service.js";

const at = new Date("2026-01-01T00:00:00Z");
const switchChange = (on: boolean, powerW?: number): RelayStatusChange => ({
  kind: "switch",
  device: "garage",
  channel: 1,
  status: {
    device: "garage",
    channel: 1,
    on,
    updatedAt: at,
    source: "button",
    ...(powerW !== undefined ? { powerW } : {}),
  },
  previous: null,
});

describe("relay status mirrored into state", () => {
  let listeners: Set<RelayStatusListener>;
  let state: StateManager;
  let changes: unknown[];
  const relay = () => ({
    onStatusChange(listener: RelayStatusListener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  });
  const emit = (change: RelayStatusChange) => {
    for (const listener of listeners) listener(change);
  };

  beforeEach(() => {
    listeners = new Set();
    state = new StateManager({ persist: false, filePath: "unused" }, { logger: new MemoryLogger() });
    changes = [];
    state.onChange("relay.garage.1", (_key, value) => changes.push(value));
  });

  it("sets relay.<device>.<channel> on a change, without timestamps", () => {
    mirrorRelayStatus(relay(), state);
    emit(switchChange(true, 12));
    expect(state.get("relay.garage.1")).to.deep.equal({ kind: "switch", on: true, powerW: 12, source: "button" });
  });

  it("does not fire state triggers for a change of power alone, and stops when asked", () => {
    const stop = mirrorRelayStatus(relay(), state);
    emit(switchChange(true, 12));
    emit(switchChange(true, 14));
    expect(state.get("relay.garage.1")).to.deep.include({ powerW: 14 });
    emit(switchChange(false, 0));
    expect(changes).to.have.length(2);
    stop();
    emit(switchChange(true, 5));
    expect(changes).to.have.length(2);
    expect(listeners.size).to.equal(0);
  });

  it("describes covers by state and position, and ignores relay services without status changes", () => {
    expect(
      relayStateValue({
        kind: "cover",
        device: "blinds",
        channel: 0,
        status: { device: "blinds", channel: 0, state: "opening", position: 30, updatedAt: at },
        previous: null,
      }),
    ).to.deep.equal({ kind: "cover", state: "opening", position: 30 });
    expect(() => mirrorRelayStatus({ custom: true }, state)()).not.to.throw();
    expect(() => mirrorRelayStatus(null, state)()).not.to.throw();
  });
});

describe("well-known service keys are typed", () => {
  it("types get, use and getOrThrow of notifications, weather, relay and lightPanels without a type argument", async () => {
    const { ServiceRegistry } = await import("../../../src/application/automation/service-registry.js");
    const registry: import("../../../src/ports/engine-services.js").ServiceRegistryApi = new ServiceRegistry(
      new MemoryLogger(),
    );
    const relay = { devices: () => [{ name: "garage" }] };
    registry.register("relays", relay);
    // These lines only compile when the keys carry their service types.
    const names = registry.use("relay", (service) => service.devices().map((device) => device.name));
    const weather = registry.get("weather");
    const hasCurrent: boolean = weather === null || typeof weather.current === "function";
    expect(names).to.deep.equal(["garage"]);
    expect(hasCurrent).to.equal(true);
    expect(registry.getOrThrow("relayService").hasDevice).to.equal(undefined);
  });
});
