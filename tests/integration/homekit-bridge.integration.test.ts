/**
 * The HomeKit bridge against a real HAP client (hap-controller, the controller side of the
 * HomeKit Accessory Protocol) and a real MQTT broker carrying Zigbee2MQTT-shaped traffic.
 * The client connects by address and port, so no mDNS is needed.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { connect, createServer, type Server } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import { HttpClient } from "hap-controller";
import mqtt, { type MqttClient as MqttJs } from "mqtt";
import { MemoryLogger } from "../../src/adapters/logging/memory-logger.js";
import { FetchHttpClient } from "../../src/adapters/http-client/fetch-http-client.js";
import { MqttJsClient } from "../../src/adapters/mqtt/mqttjs-client.js";
import { HomeKitBridge, HomeKitPortInUseError } from "../../src/adapters/services/homekit/homekit-bridge.js";
import { ShellyRelayService } from "../../src/adapters/services/shelly/shelly-relay-service.js";
import { zigbee2MqttMessages } from "../../src/adapters/zigbee2mqtt/zigbee2mqtt-messages.js";
import { DeviceRegistry } from "../../src/application/automation/device-registry.js";
import { MqttService } from "../../src/application/automation/mqtt-service.js";
import type { ZigbeeDevice } from "../../src/domain/automation/zigbee-device.js";
import { FakeShellyMqtt, ShellyDeviceModel } from "../support/fake-shelly.js";
import { blind, colorBulb, doorSensor, plug } from "../support/homekit-fixtures.js";
import { freePort, waitFor } from "../support/network.js";
import { acquireBroker, type TestBroker, uniqueTopicPrefix } from "../support/test-servers.js";
import { coordinator, motionSensor } from "../support/zigbee2mqtt-fixtures.js";

/** HAP short UUIDs (HAP specification, "Apple-defined services/characteristics"). */
const LIGHTBULB = "00000043";
const ON = "00000025";
const CONTACT_SENSOR_STATE = "0000006A";

type HapAccessories = Awaited<ReturnType<HttpClient["getAccessories"]>>;

/** `aid.iid` of the first characteristic of `type` in a service of `serviceType` on the accessory named `name`. */
function findCharacteristic(accessories: HapAccessories, name: string, serviceType: string, type: string): string {
  for (const accessory of accessories.accessories) {
    const accessoryName = accessory.services
      .flatMap((service) => service.characteristics)
      .find((characteristic) => characteristic.type?.startsWith("00000023"))?.value;
    if (accessoryName !== name) continue;
    for (const service of accessory.services) {
      if (!service.type.startsWith(serviceType)) continue;
      const characteristic = service.characteristics.find((candidate) => candidate.type?.startsWith(type));
      if (characteristic) return `${accessory.aid}.${characteristic.iid}`;
    }
  }
  throw new Error(`No ${type} characteristic on "${name}"`);
}

function accessoryNames(accessories: HapAccessories): unknown[] {
  return accessories.accessories.map(
    (accessory) =>
      accessory.services
        .flatMap((service) => service.characteristics)
        .find((characteristic) => characteristic.type?.startsWith("00000023"))?.value,
  );
}

async function readValue(client: HttpClient, id: string): Promise<unknown> {
  const { characteristics } = await client.getCharacteristics([id]);
  return characteristics[0]?.value;
}

/** A port that is free with the next one free too (bridges take consecutive ports). */
async function twoFreePorts(): Promise<number> {
  for (;;) {
    const first = await freePort();
    if (first >= 65535) continue;
    const probe = createServer();
    const free = await new Promise<boolean>((resolve) => {
      probe.once("error", () => resolve(false));
      probe.listen(first + 1, () => probe.close(() => resolve(true)));
    });
    if (free) return first;
  }
}

/** Whether a TCP connection to `host:port` is accepted (true) or refused (false). */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** An IPv4 address of this machine other than 127.0.0.1: a network interface's, else 127.0.0.2 (all of 127/8 is loopback). */
function otherLocalAddress(): string {
  const external = Object.values(networkInterfaces())
    .flat()
    .find((info) => info !== undefined && info.family === "IPv4" && !info.internal);
  return external?.address ?? "127.0.0.2";
}

function publish(client: MqttJs, topic: string, payload: unknown, retain = false): Promise<void> {
  const text = typeof payload === "string" ? payload : JSON.stringify(payload);
  return new Promise((resolve, reject) => {
    client.publish(topic, text, { qos: 1, retain }, (error) => (error ? reject(error) : resolve()));
  });
}

describe("HomeKit bridge with a real HAP client (hap-controller) and a real broker", function () {
  this.timeout(60_000);

  let broker: TestBroker;
  let zigbee2mqtt: MqttJs;
  let service: MqttService;
  let registry: DeviceRegistry;
  let prefix: string;
  let dataDir: string;
  let homekit: HomeKitBridge | null;
  const clients: HttpClient[] = [];
  const logger = new MemoryLogger();
  /** Commands the bridge published, as Zigbee2MQTT would receive them. */
  let commands: { topic: string; payload: unknown }[];

  function devices(...list: ZigbeeDevice[]): Promise<void> {
    return publish(zigbee2mqtt, `${prefix}/bridge/devices`, [coordinator, ...list], true);
  }

  function startBridge(overrides: Partial<ConstructorParameters<typeof HomeKitBridge>[0]> = {}): HomeKitBridge {
    homekit = new HomeKitBridge({
      mqtt: service,
      logger,
      deviceRegistry: registry,
      dataDir,
      port: 0,
      bind: "127.0.0.1",
      advertiser: "ciao",
      zigbeePrefix: prefix,
      ...overrides,
    });
    return homekit;
  }

  async function pairedClient(bridge: HomeKitBridge): Promise<HttpClient> {
    const info = bridge.describe(true);
    const first = info.bridges[0]!;
    const client = new HttpClient(first.username, "127.0.0.1", first.port!);
    clients.push(client);
    await client.pairSetup(info.setupCode!);
    return client;
  }

  before(async () => {
    broker = await acquireBroker("homekit-bridge");
  });

  after(async () => {
    await broker.release();
  });

  beforeEach(async () => {
    prefix = uniqueTopicPrefix("hk");
    dataDir = await mkdtemp(path.join(tmpdir(), "hearth-homekit-"));
    commands = [];
    homekit = null;
    zigbee2mqtt = await mqtt.connectAsync(broker.url, { clientId: `fake-z2m-${Date.now()}` });
    await zigbee2mqtt.subscribeAsync(`${prefix}/+/set`);
    zigbee2mqtt.on("message", (topic, payload) => {
      if (topic.endsWith("/set")) commands.push({ topic, payload: JSON.parse(payload.toString()) });
    });
    await devices(colorBulb(), doorSensor(), motionSensor());
    service = new MqttService(new MqttJsClient({ url: broker.url }, logger), logger, { zigbeePrefix: prefix });
    await service.connect();
    await waitFor("the engine's MQTT connection", () => service.isConnected);
    registry = new DeviceRegistry({ messages: zigbee2MqttMessages, mqtt: service, prefix, logger });
    await registry.start();
  });

  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => undefined);
    await homekit?.onStop();
    await registry.stop();
    await service.disconnect();
    await publish(zigbee2mqtt, `${prefix}/bridge/devices`, "", true);
    await zigbee2mqtt.endAsync();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("pairs with the setup code, lists the accessories, reads a light's On and turns a HomeKit write into the MQTT /set command", async () => {
    const bridge = startBridge();
    await bridge.onStart();
    await waitFor("the retained device list to become accessories", () => bridge.status().accessories === 3);

    const client = await pairedClient(bridge);
    const accessories = await client.getAccessories();
    expect(accessoryNames(accessories)).to.include.members(["Hearth", "desk lamp", "freezer door", "hallway motion"]);
    const on = findCharacteristic(accessories, "desk lamp", LIGHTBULB, ON);

    expect(await readValue(client, on)).to.be.oneOf([false, 0]);
    await publish(zigbee2mqtt, `${prefix}/desk_lamp`, { state: "ON", brightness: 127, linkquality: 80 });
    await waitFor(
      "the lamp's state to reach HomeKit",
      async () => (await readValue(client, on)) === true || (await readValue(client, on)) === 1,
    );

    await client.setCharacteristics({ [on]: false });
    await waitFor("the /set command on the broker", () => commands.length > 0);
    expect(commands).to.deep.equal([{ topic: `${prefix}/desk_lamp/set`, payload: { state: "OFF" } }]);

    await publish(zigbee2mqtt, `${prefix}/freezer_door`, { contact: false, battery: 90 });
    const contact = findCharacteristic(accessories, "freezer door", "00000080", CONTACT_SENSOR_STATE);
    await waitFor("the open door to reach HomeKit", async () => (await readValue(client, contact)) === 1);
  });

  it("adds a joining device and removes a leaving one without a restart; a rename keeps the accessory", async () => {
    const bridge = startBridge();
    await bridge.onStart();
    await waitFor("the retained devices", () => bridge.status().accessories === 3);
    const client = await pairedClient(bridge);

    const newPlug = plug();
    await publish(zigbee2mqtt, `${prefix}/bridge/event`, {
      type: "device_joined",
      data: { friendly_name: newPlug.friendly_name, ieee_address: newPlug.ieee_address },
    });
    await devices(colorBulb(), doorSensor(), motionSensor(), newPlug);
    await waitFor("the plug to be bridged", () => bridge.status().accessories === 4);
    expect(accessoryNames(await client.getAccessories())).to.include("coffee plug");

    const before = await client.getAccessories();
    const lampAid = findCharacteristic(before, "desk lamp", LIGHTBULB, ON);
    await devices(colorBulb("office_lamp"), doorSensor(), newPlug);
    await waitFor("the motion sensor to leave", () => bridge.status().accessories === 3);
    await waitFor("the rename to reach HomeKit", async () =>
      accessoryNames(await client.getAccessories()).includes("office lamp"),
    );
    const after = await client.getAccessories();
    expect(accessoryNames(after)).to.not.include("hallway motion");
    // Same aid and iid: HomeKit sees the same accessory, so its room and scenes stay.
    expect(findCharacteristic(after, "office lamp", LIGHTBULB, ON)).to.equal(lampAid);

    await client.setCharacteristics({ [lampAid]: true });
    await waitFor("the command under the new name", () => commands.length > 0);
    expect(commands[0]).to.deep.equal({ topic: `${prefix}/office_lamp/set`, payload: { state: "ON" } });
  });

  it("moves a Zigbee cover from HomeKit and shows where it is", async () => {
    await devices(blind());
    const bridge = startBridge();
    await bridge.onStart();
    await waitFor("the blind to be bridged", () => bridge.status().accessories === 1);
    const client = await pairedClient(bridge);
    const accessories = await client.getAccessories();
    const target = findCharacteristic(accessories, "bedroom blind", "0000008C", "0000007C");
    const current = findCharacteristic(accessories, "bedroom blind", "0000008C", "0000006D");
    await client.setCharacteristics({ [target]: 30 });
    await waitFor("the position command", () => commands.length > 0);
    expect(commands[0]).to.deep.equal({ topic: `${prefix}/bedroom_blind/set`, payload: { position: 30 } });
    await publish(zigbee2mqtt, `${prefix}/bedroom_blind`, { position: 30, state: "OPEN" });
    await waitFor("the position to reach HomeKit", async () => (await readValue(client, current)) === 30);
  });

  it("keeps its username, setup code and pairings across a restart", async () => {
    const first = startBridge();
    await first.onStart();
    const firstInfo = first.describe(true);
    const client = await pairedClient(first);
    const pairing = client.getLongTermData()!;
    await client.close();
    await first.onStop();
    homekit = null;

    const second = startBridge();
    await second.onStart();
    const secondInfo = second.describe(true);
    expect(secondInfo.setupCode).to.equal(firstInfo.setupCode);
    expect(secondInfo.bridges[0]!.username).to.equal(firstInfo.bridges[0]!.username);
    expect(secondInfo.bridges[0]!.paired).to.equal(true);

    // The controller's keys from the first run still verify: the pairing survived.
    const again = new HttpClient(secondInfo.bridges[0]!.username, "127.0.0.1", secondInfo.bridges[0]!.port!, pairing);
    clients.push(again);
    await waitFor("the retained devices", () => second.status().accessories === 3);
    expect(accessoryNames(await again.getAccessories())).to.include("desk lamp");
  });

  it("splits accessories over bridges on consecutive ports when one is full, each with its own username", async () => {
    const port = await twoFreePorts();
    const bridge = startBridge({ maxAccessoriesPerBridge: 2, port });
    await bridge.onStart();
    await waitFor("the retained devices", () => bridge.status().accessories === 3);
    const info = bridge.describe(true);
    expect(info.bridges.map((entry) => entry.accessories)).to.deep.equal([2, 1]);
    expect(info.bridges.map((entry) => entry.name)).to.deep.equal(["Hearth", "Hearth 2"]);
    expect(info.bridges.map((entry) => entry.port)).to.deep.equal([port, port + 1]);
    expect(new Set(info.bridges.map((entry) => entry.username)).size).to.equal(2);
    expect(
      info.bridges.every((entry) => typeof entry.port === "number" && entry.setupUri?.startsWith("X-HM://")),
    ).to.equal(true);

    const second = info.bridges[1]!;
    const client = new HttpClient(second.username, "127.0.0.1", second.port!);
    clients.push(client);
    await client.pairSetup(info.setupCode!);
    expect((await client.getAccessories()).accessories).to.have.length(2); // the bridge itself and one device
  });

  it("listens only on the HOMEKIT_BIND address, not on the machine's other addresses", async () => {
    const other = otherLocalAddress();
    const bridge = startBridge({ bind: "127.0.0.1" });
    await bridge.onStart();
    const port = bridge.describe(false).bridges[0]!.port!;
    expect(await accepts("127.0.0.1", port), "127.0.0.1").to.equal(true);
    expect(await accepts(other, port), other).to.equal(false);
    await pairedClient(bridge);
  });

  it("listens on every HOMEKIT_BIND address when it names several, and serves HAP on each", async () => {
    const other = otherLocalAddress();
    const bridge = startBridge({ bind: ["127.0.0.1", other] });
    await bridge.onStart();
    const first = bridge.describe(true).bridges[0]!;
    expect(await accepts("127.0.0.1", first.port!)).to.equal(true);
    expect(await accepts(other, first.port!)).to.equal(true);
    const client = new HttpClient(first.username, other, first.port!);
    clients.push(client);
    await client.pairSetup(bridge.describe(true).setupCode!);
    expect(accessoryNames(await client.getAccessories())).to.include("Hearth");
    await bridge.onStop();
    expect(await accepts(other, first.port!)).to.equal(false);
  });

  it("fails to start with a clear error when its port is taken, and leaves nothing running", async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, resolve));
    const address = blocker.address();
    const port = typeof address === "object" && address ? address.port : 0;
    try {
      const bridge = startBridge({ port });
      let failure: unknown;
      await bridge.onStart().catch((error: unknown) => {
        failure = error;
      });
      expect(failure).to.be.instanceOf(HomeKitPortInUseError);
      expect((failure as Error).message)
        .to.contain(String(port))
        .and.contain("HOMEKIT_PORT");
      expect(bridge.status()).to.include({ reachable: false });
      expect(bridge.status().lastError).to.contain(String(port));
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});

describe("HomeKit bridge with Shelly relays (fake Shelly Gen 2 over MQTT RPC) and a real HAP client", function () {
  this.timeout(60_000);

  const SWITCH = "00000049";
  const WINDOW_COVERING = "0000008C";
  const TARGET_POSITION = "0000007C";
  const CURRENT_POSITION = "0000006D";
  let broker: TestBroker;
  let service: MqttService;
  let switchDevice: ShellyDeviceModel;
  let coverDevice: ShellyDeviceModel;
  let fakes: FakeShellyMqtt[];
  let relay: ShellyRelayService;
  let homekit: HomeKitBridge;
  let client: HttpClient;
  let dataDir: string;
  const logger = new MemoryLogger();

  before(async () => {
    broker = await acquireBroker("homekit-relays");
  });

  after(async () => {
    await broker.release();
  });

  beforeEach(async () => {
    const prefix = uniqueTopicPrefix("hk-shelly");
    dataDir = await mkdtemp(path.join(tmpdir(), "hearth-homekit-relay-"));
    service = new MqttService(new MqttJsClient({ url: broker.url }, logger), logger, { zigbeePrefix: `${prefix}/z2m` });
    await service.connect();
    await waitFor("the engine's MQTT connection", () => service.isConnected);
    switchDevice = new ShellyDeviceModel("shellyplus1-hk", { switches: [0] });
    coverDevice = new ShellyDeviceModel("shellyplus2pm-hk", { switches: [], covers: [0] });
    fakes = [
      await FakeShellyMqtt.start(broker.url, `${prefix}/garage`, switchDevice),
      await FakeShellyMqtt.start(broker.url, `${prefix}/blinds`, coverDevice),
    ];
    relay = new ShellyRelayService(new FetchHttpClient(logger), service, logger, {
      devices: {
        garage: { transport: "mqtt", address: `${prefix}/garage` },
        blinds: { transport: "mqtt", address: `${prefix}/blinds`, covers: [0] },
      },
      clientId: `${prefix}/hearth`,
      // An absent device must fail the write well within HomeKit's own time limit.
      timeoutMs: 1500,
    });
    relay.onStart();
    homekit = new HomeKitBridge({
      mqtt: service,
      logger,
      deviceRegistry: null,
      relay,
      dataDir,
      port: 0,
      bind: "127.0.0.1",
    });
    await homekit.onStart();
    const info = homekit.describe(true);
    client = new HttpClient(info.bridges[0]!.username, "127.0.0.1", info.bridges[0]!.port!);
    await client.pairSetup(info.setupCode!);
  });

  afterEach(async () => {
    await client.close().catch(() => undefined);
    await homekit.onStop();
    relay.onStop();
    for (const fake of fakes) await fake.close();
    await service.disconnect();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("bridges a switch channel and a cover channel; HomeKit writes reach the devices and their changes reach HomeKit", async () => {
    const accessories = await client.getAccessories();
    expect(accessoryNames(accessories)).to.include.members(["garage", "blinds"]);
    const garageOn = findCharacteristic(accessories, "garage", SWITCH, ON);
    await waitFor(
      "the switch's state from GetStatus",
      async () => (await readValue(client, garageOn)) === false || (await readValue(client, garageOn)) === 0,
    );

    await client.setCharacteristics({ [garageOn]: true });
    expect(switchDevice.switches.get(0)?.output).to.equal(true);

    // A press on the device itself arrives as NotifyStatus and reaches HomeKit.
    switchDevice.press(0);
    await waitFor("the button press to reach HomeKit", async () =>
      [false, 0].includes((await readValue(client, garageOn)) as never),
    );

    const target = findCharacteristic(accessories, "blinds", WINDOW_COVERING, TARGET_POSITION);
    const current = findCharacteristic(accessories, "blinds", WINDOW_COVERING, CURRENT_POSITION);
    await client.setCharacteristics({ [target]: 40 });
    expect(coverDevice.calls.at(-1)).to.deep.include({ method: "Cover.GoToPosition" });
    expect(coverDevice.covers.get(0)?.current_pos).to.equal(40);
    await waitFor("the cover position to reach HomeKit", async () => (await readValue(client, current)) === 40);
  });

  it("answers a write to an unreachable relay with HomeKit's No Response, and logs it", async () => {
    await fakes[0]!.close();
    fakes.shift();
    const accessories = await client.getAccessories();
    const garageOn = findCharacteristic(accessories, "garage", SWITCH, ON);
    const answer = await client.setCharacteristics({ [garageOn]: true });
    expect(JSON.stringify(answer)).to.contain("-70402");
    expect(logger.entries.some((entry) => entry.msg === "HomeKit write could not be delivered")).to.equal(true);
  });
});
