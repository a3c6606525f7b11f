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
  const logger = new MemoryLogger();

  before(async () => {
    broker = await acquireBroker("device-registry");
  });

  after(async () => {
    await broker.release();
  });

  beforeEach(async () => {
    prefix = uniqueTopicPrefix("z2m");
    bridge = await mqtt.connectAsync(broker.url, { clientId: `fake-z2m-${Date.now()}` });
    // Zigbee2MQTT keeps the device list retained, so the engine sees it on subscribe.
    await publish(bridge, `${prefix}/bridge/devices`, [coordinator, motionSensor(), bulb()], true);
    service = new MqttService(new MqttJsClient({ url: broker.url }, logger), logger, { zigbeePrefix: prefix });
    await service.connect();
    await until(() => service.isConnected, "the engine to connect");
    registry = new DeviceRegistry({ mqtt: service, prefix, logger, names: { hallway_motion: "Hallway" } });
  });

  afterEach(async () => {
    await registry.stop();
    await service.disconnect();
    await publish(bridge, `${prefix}/bridge/devices`, "", true); // clears the retained list
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
    await until(() => added.length === 1 && registry.getDevice("kitchen_plug")?.definition?.vendor === "Tuya", "the join");

    await publish(bridge, `${prefix}/bridge/devices`, [coordinator, bulb("sofa_lamp"), plug], true);
    await until(() => removed.length === 1 && registry.hasDevice("sofa_lamp"), "the leave and the rename");
    expect(removed[0].friendly_name).to.equal("hallway_motion");
    expect(registry.getDeviceState("sofa_lamp")).to.deep.equal({ state: "ON", brightness: 12, linkquality: 90 });
    await publish(bridge, `${prefix}/sofa_lamp`, { state: "OFF" });
    await until(() => states.length === 3, "a state update under the new name");
    expect(states[2].state).to.equal("OFF");
    expect(added).to.have.length(1);
  });
});
