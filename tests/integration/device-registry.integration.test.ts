import { zigbee2MqttMessages } from "../../src/adapters/zigbee2mqtt/zigbee2mqtt-messages.js";
import { expect } from "chai";
import mqtt, { type MqttClient as MqttJs } from "mqtt";
import { MemoryLogger } from "../../src/adapters/logging/memory-logger.js";
import { MqttJsClient } from "../../src/adapters/mqtt/mqttjs-client.js";
import { DeviceRegistry } from "../../src/application/automation/device-registry.js";
import { MqttService } from "../../src/application/automation/mqtt-service.js";
import type { DeviceState, ZigbeeDevice } from "../../src/domain/automation/zigbee-device.js";
import { acquireBroker, type TestBroker, uniqueTopicPrefix } from "../support/test-servers.js";
import { bulb, coordinator, motionSensor } from "../support/zigbee2mqtt-fixtures.js";

async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function publish(client: MqttJs, topic: string, payload: unknown, retain = false): Promise<void> {
  const text = typeof payload === "string" ? payload : JSON.stringify(payload);
  return new Promise((resolve, reject) => {
    client.publish(topic, text, { qos: 1, retain }, (error) => (error ? reject(error) : resolve()));
  });
}

describe("DeviceRegistry over a real broker (Zigbee2MQTT-shaped traffic)", () => {
  let broker: TestBroker;
  let bridge: MqttJs;
  let service: MqttService;
  let registry: DeviceRegistry;
  let prefix: string;
  /** Retained topics a test published beyond the shared device list; cleared after it. */
  let retainedTopics: string[];
  const logger = new MemoryLogger();

  before(async () => {
    broker = await acquireBroker("device-registry");
  });

  after(async () => {
    await broker.release();
  });

  beforeEach(async () => {
    prefix = uniqueTopicPrefix("z2m");
    retainedTopics = [];
    bridge = await mqtt.connectAsync(broker.url, { clientId: `fake-z2m-${Date.now()}` });
    // Zigbee2MQTT keeps the device list retained, so the engine sees it on subscribe.
    await publish(bridge, `${prefix}/bridge/devices`, [coordinator, motionSensor(), bulb()], true);
    service = new MqttService(new MqttJsClient({ url: broker.url }, logger), logger, { zigbeePrefix: prefix });
    await service.connect();
    await until(() => service.isConnected, "the engine to connect");
    registry = new DeviceRegistry({
      messages: zigbee2MqttMessages,
      mqtt: service,
      prefix,
      logger,
      names: { hallway_motion: "Hallway" },
    });
  });

  afterEach(async () => {
    await registry.stop();
    await service.disconnect();
    await publish(bridge, `${prefix}/bridge/devices`, "", true); // clears the retained list
    for (const topic of retainedTopics) await publish(bridge, topic, "", true);
    await bridge.endAsync();
  });

  it("learns the retained device list, merges state updates and follows joins, leaves and renames", async () => {
    const added: ZigbeeDevice[] = [];
    const removed: ZigbeeDevice[] = [];
    const states: DeviceState[] = [];
    registry.onDeviceAdded((device) => added.push(device));
    registry.onDeviceRemoved((device) => removed.push(device));
    registry.onDeviceStateChange("living_room_lamp", (state) => {
      states.push(state);
    });
    await registry.start();
    await until(() => registry.getDevices().length === 2, "the retained device list");
    expect(registry.getNiceName("hallway_motion")).to.equal("Hallway");
    expect(added).to.deep.equal([]);

    await publish(bridge, `${prefix}/living_room_lamp`, { state: "ON", brightness: 254, linkquality: 90 });
    await publish(bridge, `${prefix}/living_room_lamp`, { brightness: 12 });
    await publish(bridge, `${prefix}/living_room_lamp/set`, { state: "OFF" });
    await until(() => states.length === 2, "two merged state updates");
    expect(states[1]).to.deep.equal({ state: "ON", brightness: 12, linkquality: 90 });

    const plug = { ...bulb("kitchen_plug", "0xa4c138d2e1f00001"), definition: { model: "TS011F", vendor: "Tuya" } };
    await publish(bridge, `${prefix}/bridge/event`, {
      type: "device_joined",
      data: { friendly_name: plug.friendly_name, ieee_address: plug.ieee_address },
    });
    await publish(bridge, `${prefix}/bridge/devices`, [coordinator, motionSensor(), bulb(), plug], true);
    await until(
      () => added.length === 1 && registry.getDevice("kitchen_plug")?.definition?.vendor === "Tuya",
      "the join",
    );

    await publish(bridge, `${prefix}/bridge/devices`, [coordinator, bulb("sofa_lamp"), plug], true);
    await until(() => removed.length === 1 && registry.hasDevice("sofa_lamp"), "the leave and the rename");
    expect(removed[0]!.friendly_name).to.equal("hallway_motion");
    expect(registry.getDeviceState("sofa_lamp")).to.deep.equal({ state: "ON", brightness: 12, linkquality: 90 });
    await publish(bridge, `${prefix}/sofa_lamp`, { state: "OFF" });
    await until(() => states.length === 3, "a state update under the new name");
    expect(states[2]!.state).to.equal("OFF");
    expect(added).to.have.length(1);
  });

  it("applies a device's retained state published before the retained device list", async () => {
    // A prefix of its own: the shared one already holds a retained list, published first.
    const early = uniqueTopicPrefix("z2m-early");
    const retain = async (topic: string, payload: unknown) => {
      retainedTopics.push(topic);
      await publish(bridge, topic, payload, true);
    };
    await retain(`${early}/living_room_lamp`, { state: "ON", brightness: 42 });
    await retain(`${early}/living_room_lamp/availability`, { state: "online" });
    await retain(`${early}/all_lights`, { state: "ON" }); // a group: never in the device list
    await retain(`${early}/bridge/devices`, [coordinator, motionSensor(), bulb()]);

    // Records the order this broker delivers the retained messages in, to say whether this
    // run exercised state-before-list (the outcome must be the same either way).
    const observer = await mqtt.connectAsync(broker.url, { clientId: `observer-${Date.now()}` });
    const order: string[] = [];
    observer.on("message", (topic) => order.push(topic.slice(early.length + 1)));
    await observer.subscribeAsync(`${early}/#`);

    registry = new DeviceRegistry({ messages: zigbee2MqttMessages, mqtt: service, prefix: early, logger });
    const states: DeviceState[] = [];
    registry.onDeviceStateChange("living_room_lamp", (state) => {
      states.push(state);
    });
    await registry.start();
    await until(() => registry.getDeviceState("living_room_lamp") !== null, "the retained state to be applied");
    await until(() => order.length === 4, "the observer to see every retained message");
    await observer.endAsync();
    const stateFirst = order.indexOf("living_room_lamp") < order.indexOf("bridge/devices");
    console.log(
      `      [device-registry] broker delivered the retained state ${stateFirst ? "before" : "after"} the device list`,
    );

    expect(registry.getDevices().map((device) => device.friendly_name)).to.have.members([
      "hallway_motion",
      "living_room_lamp",
    ]);
    expect(registry.getDeviceState("living_room_lamp")).to.deep.equal({ state: "ON", brightness: 42 });
    expect(states).to.deep.equal([{ state: "ON", brightness: 42 }]);
    expect(registry.hasDevice("all_lights")).to.equal(false);
    expect(registry.getDeviceState("all_lights")).to.equal(null);
  });
});
