import { zigbee2MqttMessages } from "../../../src/adapters/zigbee2mqtt/zigbee2mqtt-messages.js";
import { expect } from "chai";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import {
  DeviceRegistry,
  type DeviceRegistryTimers,
  MAX_PENDING_DEVICE_STATES,
} from "../../../src/application/automation/device-registry.js";
import type { DeviceState, ZigbeeDevice } from "../../../src/domain/automation/zigbee-device.js";
import type { JsonStore } from "../../../src/ports/json-store.js";
import { FakeMqttService } from "../../support/fake-mqtt-service.js";
import { bulb, coordinator, motionSensor } from "../../support/zigbee2mqtt-fixtures.js";

class FakeTimers implements DeviceRegistryTimers {
  private pending = new Map<number, { callback: () => void; ms: number }>();
  private nextId = 1;

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.pending.set(id, { callback, ms });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  get count(): number {
    return this.pending.size;
  }

  delays(): number[] {
    return [...this.pending.values()].map((timer) => timer.ms);
  }

  /** Fires every pending timer. */
  flush(): void {
    const due = [...this.pending.values()];
    this.pending.clear();
    for (const timer of due) timer.callback();
  }
}

class MemoryStore implements JsonStore {
  saves: unknown[] = [];
  movedAside: unknown[] = [];
  constructor(public document: unknown = undefined) {}
  async load(): Promise<unknown> {
    return this.document === undefined ? undefined : structuredClone(this.document);
  }
  async save(document: unknown): Promise<void> {
    this.document = structuredClone(document);
    this.saves.push(this.document);
  }
  async moveAside(): Promise<string | null> {
    if (this.document === undefined) return null;
    this.movedAside.push(this.document);
    this.document = undefined;
    return "memory:aside";
  }
}

const PREFIX = "zigbee2mqtt";

describe("DeviceRegistry", () => {
  let mqtt: FakeMqttService;
  let logger: MemoryLogger;
  let timers: FakeTimers;
  let store: MemoryStore;
  let registry: DeviceRegistry;
  let added: ZigbeeDevice[];
  let removed: ZigbeeDevice[];

  function create(options: { names?: Record<string, string>; store?: MemoryStore | null } = {}): DeviceRegistry {
    const created = new DeviceRegistry({
      messages: zigbee2MqttMessages,
      mqtt,
      prefix: PREFIX,
      logger,
      names: options.names,
      store: options.store === undefined ? store : options.store,
      timers,
    });
    created.onDeviceAdded((device) => added.push(device));
    created.onDeviceRemoved((device) => removed.push(device));
    return created;
  }

  const publishDevices = (devices: ZigbeeDevice[]) => mqtt.emit(`${PREFIX}/bridge/devices`, devices);
  const publishEvent = (type: string, data: Record<string, unknown>) =>
    mqtt.emit(`${PREFIX}/bridge/event`, { type, data });

  beforeEach(async () => {
    mqtt = new FakeMqttService(PREFIX);
    logger = new MemoryLogger();
    timers = new FakeTimers();
    store = new MemoryStore();
    added = [];
    removed = [];
    registry = create({ names: { hallway_motion: "Hallway motion", "0x0017880108f1e2d3": "Lamp by the sofa" } });
    await registry.start();
  });

  it("subscribes to the bridge prefix at start and unsubscribes at stop", async () => {
    expect(mqtt.subscribedTopics()).to.deep.equal([`${PREFIX}/#`]);
    await registry.stop();
    expect(mqtt.subscribedTopics()).to.deep.equal([]);
  });

  it("tracks devices from the retained device list, ignoring the coordinator, without announcing them", async () => {
    await publishDevices([coordinator, motionSensor(), bulb()]);
    expect(registry.getDevices().map((device) => device.friendly_name)).to.deep.equal([
      "hallway_motion",
      "living_room_lamp",
    ]);
    expect(registry.hasDevice("Coordinator")).to.equal(false);
    expect(registry.getDevice("hallway_motion")?.definition?.model).to.equal("RTCGQ11LM");
    expect(added).to.deep.equal([]);
    expect(removed).to.deep.equal([]);
  });

  it("announces devices appearing or vanishing in a later device list", async () => {
    await publishDevices([coordinator, motionSensor()]);
    await publishDevices([coordinator, bulb()]);
    expect(added.map((device) => device.friendly_name)).to.deep.equal(["living_room_lamp"]);
    expect(removed.map((device) => device.friendly_name)).to.deep.equal(["hallway_motion"]);
    expect(registry.hasDevice("hallway_motion")).to.equal(false);
  });

  it("announces joins and leaves from bridge events, once", async () => {
    await publishDevices([coordinator, motionSensor()]);
    await publishEvent("device_joined", { friendly_name: "0x0017880108f1e2d3", ieee_address: "0x0017880108f1e2d3" });
    await publishEvent("device_interview", {
      friendly_name: "0x0017880108f1e2d3",
      ieee_address: "0x0017880108f1e2d3",
      status: "successful",
      supported: true,
      definition: bulb().definition,
    });
    await publishDevices([coordinator, motionSensor(), bulb("0x0017880108f1e2d3")]);
    expect(added.map((device) => device.ieee_address)).to.deep.equal(["0x0017880108f1e2d3"]);
    expect(registry.getDevice("0x0017880108f1e2d3")?.definition?.vendor).to.equal("Philips");

    await publishEvent("device_leave", { friendly_name: "hallway_motion", ieee_address: "0x00158d0004a1b2c3" });
    await publishDevices([coordinator, bulb("0x0017880108f1e2d3")]);
    expect(removed.map((device) => device.friendly_name)).to.deep.equal(["hallway_motion"]);
  });

  it("ignores device_announce and events about the coordinator", async () => {
    await publishDevices([coordinator, motionSensor()]);
    await publishEvent("device_announce", { friendly_name: "hallway_motion", ieee_address: "0x00158d0004a1b2c3" });
    await publishEvent("device_joined", { friendly_name: "Coordinator", ieee_address: coordinator.ieee_address });
    expect(added).to.deep.equal([]);
  });

  it("merges partial state updates and hands handlers the full state and the device", async () => {
    await publishDevices([coordinator, bulb()]);
    const seen: [DeviceState, ZigbeeDevice][] = [];
    registry.onDeviceStateChange("living_room_lamp", (state, device) => {
      seen.push([state, device]);
    });
    await mqtt.emit(`${PREFIX}/living_room_lamp`, { state: "ON", brightness: 200, linkquality: 120 });
    await mqtt.emit(`${PREFIX}/living_room_lamp`, { brightness: 80 });
    expect(seen).to.have.length(2);
    expect(seen[1]![0]).to.deep.equal({ state: "ON", brightness: 80, linkquality: 120 });
    expect(seen[1]![1].ieee_address).to.equal("0x0017880108f1e2d3");
    expect(registry.getDeviceState("living_room_lamp")).to.deep.equal({
      state: "ON",
      brightness: 80,
      linkquality: 120,
    });
  });

  it("ignores /set, /get, /availability and bridge topics and unknown devices", async () => {
    await publishDevices([coordinator, bulb()]);
    let calls = 0;
    registry.onDeviceStateChange("living_room_lamp", () => {
      calls++;
    });
    await mqtt.emit(`${PREFIX}/living_room_lamp/set`, { state: "OFF" });
    await mqtt.emit(`${PREFIX}/living_room_lamp/get`, { state: "" });
    await mqtt.emit(`${PREFIX}/living_room_lamp/availability`, { state: "online" });
    await mqtt.emit(`${PREFIX}/bridge/state`, { state: "online" });
    await mqtt.emit(`${PREFIX}/kitchen_plug`, { state: "ON" });
    expect(calls).to.equal(0);
    expect(registry.getDeviceState("living_room_lamp")).to.equal(null);
    expect(registry.getDeviceState("kitchen_plug")).to.equal(null);
  });

  it("follows friendly names that contain slashes", async () => {
    await publishDevices([coordinator, bulb("living/lamp")]);
    await mqtt.emit(`${PREFIX}/living/lamp`, { state: "ON" });
    expect(registry.getDeviceState("living/lamp")).to.deep.equal({ state: "ON" });
  });

  it("warns about and ignores malformed payloads", async () => {
    await publishDevices([coordinator, bulb()]);
    await mqtt.emit(`${PREFIX}/bridge/devices`, { not: "a list" });
    await mqtt.emit(`${PREFIX}/bridge/devices`, [{ friendly_name: "no ieee" }]);
    await mqtt.emit(`${PREFIX}/bridge/event`, { type: "device_joined" });
    await mqtt.emit(`${PREFIX}/living_room_lamp`, "not json");
    expect(logger.at("warn")).to.have.length(4);
    expect(registry.getDevices()).to.have.length(1);
  });

  it("reports a rename, carries state over and moves state handlers to the new name", async () => {
    await publishDevices([coordinator, bulb()]);
    await mqtt.emit(`${PREFIX}/living_room_lamp`, { state: "ON", brightness: 10 });
    const seen: DeviceState[] = [];
    registry.onDeviceStateChange("living_room_lamp", (state) => {
      seen.push(state);
    });
    await publishDevices([coordinator, bulb("sofa_lamp")]);
    expect(added).to.deep.equal([]);
    expect(removed).to.deep.equal([]);
    expect(logger.entries.some((e) => e.msg === "Device renamed" && e.fields.to === "sofa_lamp")).to.equal(true);
    expect(registry.hasDevice("living_room_lamp")).to.equal(false);
    expect(registry.getDeviceState("sofa_lamp")).to.deep.equal({ state: "ON", brightness: 10 });
    await mqtt.emit(`${PREFIX}/sofa_lamp`, { brightness: 99 });
    expect(seen).to.deep.equal([{ state: "ON", brightness: 99 }]);
  });

  it("removes a state handler by the name it was registered under, even after renames", async () => {
    await publishDevices([coordinator, bulb()]);
    const seen: DeviceState[] = [];
    const handler = (state: DeviceState) => {
      seen.push(state);
    };
    registry.onDeviceStateChange("living_room_lamp", handler);
    await publishDevices([coordinator, bulb("sofa_lamp")]);
    await publishDevices([coordinator, bulb("reading_lamp")]);
    // Unwiring a device_state trigger at shutdown uses the trigger's (old) name.
    registry.offDeviceStateChange("living_room_lamp", handler);
    await mqtt.emit(`${PREFIX}/reading_lamp`, { state: "ON" });
    expect(seen).to.deep.equal([]);

    // Renaming back and forth never loops.
    registry.onDeviceStateChange("reading_lamp", handler);
    await publishDevices([coordinator, bulb("living_room_lamp")]);
    await publishDevices([coordinator, bulb("reading_lamp")]);
    registry.offDeviceStateChange("living_room_lamp", handler);
    await mqtt.emit(`${PREFIX}/reading_lamp`, { state: "OFF" });
    expect(seen).to.deep.equal([]);
  });

  it("gives nice names by friendly name or IEEE address and finds devices by them", async () => {
    await publishDevices([coordinator, motionSensor(), bulb()]);
    expect(registry.getNiceName("hallway_motion")).to.equal("Hallway motion");
    expect(registry.getNiceName("living_room_lamp")).to.equal("Lamp by the sofa");
    expect(registry.getNiceName("unknown_thing")).to.equal("unknown_thing");
    expect(registry.getDevice("Lamp by the sofa")?.friendly_name).to.equal("living_room_lamp");
    expect(registry.getDevice("0x00158d0004a1b2c3")?.friendly_name).to.equal("hallway_motion");
  });

  it("takes a device called constructor or __proto__ as a device, with its own name as its nice name", async () => {
    await publishDevices([
      coordinator,
      bulb("constructor", "0x0000000000000c01"),
      bulb("__proto__", "0x0000000000000c02"),
    ]);
    expect(registry.getNiceName("constructor")).to.equal("constructor");
    expect(registry.getNiceName("__proto__")).to.equal("__proto__");
    expect(registry.getNiceName("toString")).to.equal("toString");
    expect(registry.getDevice("constructor")?.ieee_address).to.equal("0x0000000000000c01");
    expect(registry.getDevice("toString")).to.equal(null);
  });

  it("isolates a failing handler from the others", async () => {
    await publishDevices([coordinator, bulb()]);
    let reached = false;
    registry.onDeviceStateChange("living_room_lamp", () => {
      throw new Error("boom");
    });
    registry.onDeviceStateChange("living_room_lamp", () => {
      reached = true;
    });
    await mqtt.emit(`${PREFIX}/living_room_lamp`, { state: "ON" });
    expect(reached).to.equal(true);
    expect(logger.at("error")).to.have.length(1);
  });

  it("stops calling handlers removed with off*", async () => {
    await publishDevices([coordinator]);
    const handler = () => {
      throw new Error("should not run");
    };
    registry.onDeviceAdded(handler);
    registry.offDeviceAdded(handler);
    registry.onDeviceRemoved(handler);
    registry.offDeviceRemoved(handler);
    const stateHandler = () => {
      throw new Error("should not run");
    };
    registry.onDeviceStateChange("living_room_lamp", stateHandler);
    registry.offDeviceStateChange("living_room_lamp", stateHandler);
    await publishDevices([coordinator, bulb()]);
    await mqtt.emit(`${PREFIX}/living_room_lamp`, { state: "ON" });
    await publishDevices([coordinator]);
    expect(logger.at("error")).to.have.length(0);
  });

  describe("state that arrives before the device list", () => {
    // The broker delivers retained messages in no set order across topics.
    function recordStates(name: string): DeviceState[] {
      const seen: DeviceState[] = [];
      registry.onDeviceStateChange(name, (state) => {
        seen.push(state);
      });
      return seen;
    }

    it("applies it, merged, when the first device list introduces the name, firing handlers as a list-first order would", async () => {
      const seen = recordStates("living_room_lamp");
      await mqtt.emit(`${PREFIX}/living_room_lamp`, { state: "ON", brightness: 200 });
      await mqtt.emit(`${PREFIX}/living_room_lamp`, { brightness: 80 });
      expect(registry.getDeviceState("living_room_lamp")).to.equal(null);
      expect(seen).to.deep.equal([]);

      await publishDevices([coordinator, bulb(), motionSensor()]);
      expect(registry.getDeviceState("living_room_lamp")).to.deep.equal({ state: "ON", brightness: 80 });
      // Same as a retained state arriving after the list: one update with the merged state.
      expect(seen).to.deep.equal([{ state: "ON", brightness: 80 }]);
      expect(registry.getDeviceState("hallway_motion")).to.equal(null);
      expect(added).to.deep.equal([]);

      await mqtt.emit(`${PREFIX}/living_room_lamp`, { state: "OFF" });
      expect(seen[1]).to.deep.equal({ state: "OFF", brightness: 80 });
    });

    it("fires the same handlers whichever of list and retained state the broker delivers first", async () => {
      const stateFirst = recordStates("living_room_lamp");
      await mqtt.emit(`${PREFIX}/living_room_lamp`, { state: "ON" });
      await publishDevices([coordinator, bulb()]);
      await registry.stop();

      mqtt = new FakeMqttService(PREFIX);
      registry = create({ store: null });
      await registry.start();
      const listFirst = recordStates("living_room_lamp");
      await publishDevices([coordinator, bulb()]);
      await mqtt.emit(`${PREFIX}/living_room_lamp`, { state: "ON" });
      expect(stateFirst).to.deep.equal(listFirst);
    });

    it("applies it when a join event introduces the name, after announcing the join", async () => {
      await publishDevices([coordinator]);
      const order: string[] = [];
      registry.onDeviceAdded((device) => order.push(`joined ${device.friendly_name}`));
      registry.onDeviceStateChange("kitchen_plug", (state) => {
        order.push(`state ${JSON.stringify(state)}`);
      });
      await mqtt.emit(`${PREFIX}/kitchen_plug`, { state: "ON" });
      await publishEvent("device_joined", { friendly_name: "kitchen_plug", ieee_address: "0xa4c138d2e1f00001" });
      expect(order).to.deep.equal(["joined kitchen_plug", 'state {"state":"ON"}']);
      expect(registry.getDeviceState("kitchen_plug")).to.deep.equal({ state: "ON" });
    });

    it("never exposes or saves state for a name that is not a device, and drops it at the next list", async () => {
      await mqtt.emit(`${PREFIX}/all_lights`, { state: "ON" }); // a Zigbee2MQTT group, never listed
      await mqtt.emit(`${PREFIX}/living_room_lamp`, { state: "ON" });
      expect(registry.getDevices()).to.deep.equal([]);
      expect(registry.hasDevice("all_lights")).to.equal(false);
      expect(registry.getDevice("all_lights")).to.equal(null);
      expect(registry.getDeviceState("all_lights")).to.equal(null);

      await publishDevices([coordinator, motionSensor()]);
      expect(registry.getDevices().map((device) => device.friendly_name)).to.deep.equal(["hallway_motion"]);
      expect(registry.getDeviceState("all_lights")).to.equal(null);
      await registry.stop();
      expect(store.document).to.deep.include({ states: {} });

      // Dropped, not kept for later: a device that takes the name later starts clean.
      await registry.start();
      await publishDevices([coordinator, motionSensor(), bulb()]);
      expect(registry.getDeviceState("living_room_lamp")).to.equal(null);
    });

    it("does not apply state held for a device that has since been removed", async () => {
      await publishDevices([coordinator, bulb(), motionSensor()]);
      await publishDevices([coordinator, motionSensor()]);
      expect(removed.map((device) => device.friendly_name)).to.deep.equal(["living_room_lamp"]);
      await mqtt.emit(`${PREFIX}/living_room_lamp`, { state: "ON" }); // a late message for the gone device
      expect(registry.getDeviceState("living_room_lamp")).to.equal(null);
      expect(registry.getDevices()).to.have.length(1);
      await publishDevices([coordinator, motionSensor()]);
      await publishEvent("device_joined", { friendly_name: "living_room_lamp", ieee_address: "0xa4c138d2e1f00009" });
      expect(registry.getDeviceState("living_room_lamp")).to.equal(null);
    });

    it("holds at most MAX_PENDING_DEVICE_STATES names, dropping the one updated longest ago", async () => {
      const total = MAX_PENDING_DEVICE_STATES + 10;
      const names = Array.from({ length: total }, (_, index) => `sensor_${index}`);
      const first = names.slice(0, MAX_PENDING_DEVICE_STATES);
      const overflow = names.slice(MAX_PENDING_DEVICE_STATES);
      for (const name of first) await mqtt.emit(`${PREFIX}/${name}`, { battery: 50 });
      // sensor_0 reports again before the bound is reached, so sensor_1 becomes the stalest.
      await mqtt.emit(`${PREFIX}/sensor_0`, { temperature: 21 });
      for (const name of overflow) await mqtt.emit(`${PREFIX}/${name}`, { battery: 50 });
      await mqtt.emit(`${PREFIX}/${names[total - 1]}`, { temperature: 19 });

      const devices = names.map((name, index) => motionSensor(name, `0x${index.toString(16).padStart(16, "0")}`));
      await publishDevices([coordinator, ...devices]);
      const withState = names.filter((name) => registry.getDeviceState(name) !== null);
      expect(withState).to.have.length(MAX_PENDING_DEVICE_STATES);
      expect(withState).to.not.include.members(names.slice(1, 11));
      expect(registry.getDeviceState("sensor_0")).to.deep.equal({ battery: 50, temperature: 21 });
      expect(registry.getDeviceState(names[total - 1]!)).to.deep.equal({ battery: 50, temperature: 19 });
    });

    it("merges state held under a new name over the carried state when the list renames the device", async () => {
      await publishDevices([coordinator, bulb()]);
      await mqtt.emit(`${PREFIX}/living_room_lamp`, { state: "ON", brightness: 10 });
      const seen = recordStates("living_room_lamp");
      // Zigbee2MQTT publishes under the new name; the renamed list may come after it.
      await mqtt.emit(`${PREFIX}/sofa_lamp`, { brightness: 99 });
      expect(seen).to.deep.equal([]);
      await publishDevices([coordinator, bulb("sofa_lamp")]);
      expect(added).to.deep.equal([]);
      expect(removed).to.deep.equal([]);
      expect(logger.entries.some((e) => e.msg === "Device renamed" && e.fields.to === "sofa_lamp")).to.equal(true);
      expect(registry.getDeviceState("sofa_lamp")).to.deep.equal({ state: "ON", brightness: 99 });
      expect(seen).to.deep.equal([{ state: "ON", brightness: 99 }]);
    });

    it("never holds command, availability, bridge or malformed topics as state", async () => {
      const seen = recordStates("living_room_lamp");
      await mqtt.emit(`${PREFIX}/living_room_lamp/availability`, { state: "online" });
      await mqtt.emit(`${PREFIX}/living_room_lamp/set`, { state: "OFF" });
      await mqtt.emit(`${PREFIX}/living_room_lamp/set/brightness`, { value: 3 });
      await mqtt.emit(`${PREFIX}/living_room_lamp/get`, { state: "" });
      await mqtt.emit(`${PREFIX}/living_room_lamp/get/state`, { state: "" });
      await mqtt.emit(`${PREFIX}/living_room_lamp/`, { trailing: true });
      await mqtt.emit(`${PREFIX}//living_room_lamp`, { leading: true });
      await mqtt.emit(`${PREFIX}/`, { empty: true });
      await mqtt.emit(`${PREFIX}/bridge/state`, { state: "online" });
      await mqtt.emit(`${PREFIX}/bridge/info`, { version: "2.0.0" });
      await mqtt.emit(`${PREFIX}/bridge`, { state: "online" });
      await mqtt.emit(`${PREFIX}/living_room_lamp`, "online"); // not a JSON object
      await publishDevices([coordinator, bulb(), bulb("bridge_lamp", "0xa4c138d2e1f00002")]);
      expect(registry.getDeviceState("living_room_lamp")).to.equal(null);
      expect(seen).to.deep.equal([]);
      // Unknown names are not worth a warning: they may be anything.
      expect(logger.at("warn")).to.deep.equal([]);
    });

    it("forgets held state at stop, since a restart gets the retained messages again", async () => {
      await mqtt.emit(`${PREFIX}/living_room_lamp`, { state: "ON" });
      await registry.stop();
      await registry.start();
      await publishDevices([coordinator, bulb()]);
      expect(registry.getDeviceState("living_room_lamp")).to.equal(null);
    });
  });

  describe("persistence", () => {
    it("debounces saves to one write per second and saves at stop", async () => {
      await publishDevices([coordinator, bulb()]);
      await mqtt.emit(`${PREFIX}/living_room_lamp`, { state: "ON" });
      await mqtt.emit(`${PREFIX}/living_room_lamp`, { brightness: 5 });
      expect(timers.count).to.equal(1);
      expect(timers.delays()).to.deep.equal([1000]);
      expect(store.saves).to.have.length(0);
      timers.flush();
      await new Promise((resolve) => setImmediate(resolve));
      expect(store.saves).to.have.length(1);
      await mqtt.emit(`${PREFIX}/living_room_lamp`, { brightness: 6 });
      await registry.stop();
      expect(timers.count).to.equal(0);
      expect(store.saves).to.have.length(2);
      expect(store.document).to.deep.include({ states: { living_room_lamp: { state: "ON", brightness: 6 } } });
    });

    it("restores devices and states without announcing them, then follows the first list silently", async () => {
      await publishDevices([coordinator, motionSensor(), bulb()]);
      await mqtt.emit(`${PREFIX}/living_room_lamp`, { state: "ON" });
      await registry.stop();

      mqtt = new FakeMqttService(PREFIX);
      added = [];
      removed = [];
      const restored = create();
      await restored.start();
      expect(restored.getDevices()).to.have.length(2);
      expect(restored.getDeviceState("living_room_lamp")).to.deep.equal({ state: "ON" });
      await publishDevices([coordinator, bulb()]);
      expect(added).to.deep.equal([]);
      expect(removed).to.deep.equal([]);
      expect(restored.hasDevice("hallway_motion")).to.equal(false);
      await publishDevices([coordinator, bulb(), motionSensor()]);
      expect(added.map((device) => device.friendly_name)).to.deep.equal(["hallway_motion"]);
    });

    it("starts empty with a warning when the stored document is malformed, moving it aside", async () => {
      const broken = new MemoryStore({ devices: "nope" });
      const restored = create({ store: broken });
      await restored.load();
      expect(restored.getDevices()).to.deep.equal([]);
      expect(logger.at("warn").length).to.be.greaterThan(0);
      // Kept for the user to repair instead of being overwritten by the next save.
      expect(broken.movedAside).to.deep.equal([{ devices: "nope" }]);
      expect(broken.document).to.equal(undefined);
    });

    it("never writes without a store", async () => {
      const inMemory = create({ store: null });
      await inMemory.start();
      await publishDevices([coordinator, bulb()]);
      await inMemory.stop();
      expect(timers.count).to.equal(1); // only the registry under test (with a store) scheduled a save
    });
  });
});
