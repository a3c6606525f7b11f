/**
 * The HomeKit bridge as `npm start` builds it: from HOMEKIT_* configuration alone, started
 * and stopped by the engine, reported by /api/homekit and /api/services, and reachable by a
 * real HAP client whose writes arrive on the broker as Zigbee2MQTT commands.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import { HttpClient } from "hap-controller";
import mqtt, { type MqttClient as MqttJs } from "mqtt";
import { MemoryLogger } from "../../src/adapters/logging/memory-logger.js";
import { HomeKitBridge } from "../../src/adapters/services/homekit/homekit-bridge.js";
import { createEngine, type Engine } from "../../src/composition/create-engine.js";
import { colorBulb } from "../support/homekit-fixtures.js";
import { freePort, waitFor } from "../support/network.js";
import { acquireBroker, type TestBroker, uniqueTopicPrefix } from "../support/test-servers.js";
import { coordinator } from "../support/zigbee2mqtt-fixtures.js";

const TOKEN = "homekit-engine-token";

describe("HomeKit bridge in the engine, configured by HOMEKIT_* alone", function () {
  this.timeout(60_000);

  let broker: TestBroker;
  let engine: Engine;
  let zigbee2mqtt: MqttJs;
  let prefix: string;
  let dataDir: string;
  let homeKitPort: number;
  const logger = new MemoryLogger();
  const commands: { topic: string; payload: unknown }[] = [];

  const api = async (route: string, token?: string) => {
    const response = await fetch(`http://127.0.0.1:${engine.httpPort}/api${route}`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  before(async () => {
    broker = await acquireBroker("homekit-engine");
    prefix = uniqueTopicPrefix("hk-engine");
    dataDir = await mkdtemp(path.join(tmpdir(), "hearth-homekit-engine-"));
    homeKitPort = await freePort();
    zigbee2mqtt = await mqtt.connectAsync(broker.url, { clientId: `fake-z2m-${Date.now()}` });
    await zigbee2mqtt.subscribeAsync(`${prefix}/+/set`);
    zigbee2mqtt.on("message", (topic, payload) => commands.push({ topic, payload: JSON.parse(payload.toString()) }));
    await zigbee2mqtt.publishAsync(`${prefix}/bridge/devices`, JSON.stringify([coordinator, colorBulb()]), {
      retain: true,
      qos: 1,
    });

    engine = createEngine({
      // The example automation of docs/services/homekit.md.
      automationsDir: new URL("fixtures/homekit-automations/", import.meta.url).pathname,
      logger,
      httpPort: 0,
      httpHost: "127.0.0.1",
      handleSignals: false,
      config: {
        MQTT_HOST: broker.host,
        MQTT_PORT: broker.port,
        HTTP_TOKEN: TOKEN,
        ZIGBEE2MQTT_PREFIX: prefix,
        DATA_DIR: dataDir,
        STATE_PERSIST: false,
        DEVICE_REGISTRY_ENABLED: true,
        DEVICE_REGISTRY_PERSIST: false,
        HOMEKIT_ENABLED: true,
        HOMEKIT_PORT: homeKitPort,
        HOMEKIT_SETUP_CODE: "031-45-154",
        HOMEKIT_BRIDGE_NAME: "Hearth Test",
        HOMEKIT_BIND: ["127.0.0.1"],
      },
    });
    await engine.start();
  });

  after(async () => {
    await engine?.stop();
    await zigbee2mqtt.publishAsync(`${prefix}/bridge/devices`, "", { retain: true, qos: 1 });
    await zigbee2mqtt.endAsync();
    await broker.release();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("reports the bridge on its configured port, with the setup code only to an authenticated caller", async () => {
    await waitFor("the lamp to be bridged", async () => (await api("/homekit", TOKEN)).body.accessories === 1);
    const { status, body } = await api("/homekit", TOKEN);
    expect(status).to.equal(200);
    expect(body.setupCode).to.equal("031-45-154");
    const bridges = body.bridges as {
      name: string;
      port: number;
      accessories: number;
      setupUri: string;
      setupQr: string;
    }[];
    expect(bridges).to.have.length(1);
    expect(bridges[0]).to.include({ name: "Hearth Test", port: homeKitPort, accessories: 1 });
    expect(bridges[0]!.setupUri).to.match(/^X-HM:\/\/[0-9A-Z]{9}[0-9A-Z]{4}$/);
    expect(bridges[0]!.setupQr).to.match(/^data:image\/svg\+xml;base64,/);

    expect((await api("/homekit")).status).to.equal(401);

    const services = await api("/services", TOKEN);
    const homekit = (
      services.body.services as { key: string; provider: string; reachable: boolean; config: Record<string, unknown> }[]
    ).find((entry) => entry.key === "homekit")!;
    expect(homekit).to.deep.include({ provider: "homekit", reachable: true });
    expect(homekit.config.setupCode).to.equal("***");
    expect(JSON.stringify(services.body)).to.not.contain("031-45-154");
  });

  it("pairs a HAP client and turns its write into the Zigbee2MQTT command", async () => {
    const { body } = await api("/homekit", TOKEN);
    const bridge = (body.bridges as { username: string; port: number }[])[0]!;
    const client = new HttpClient(bridge.username, "127.0.0.1", bridge.port);
    try {
      await client.pairSetup("031-45-154");
      const accessories = await client.getAccessories();
      const lamp = accessories.accessories.find((accessory) => Number(accessory.aid) !== 1)!;
      const on = lamp.services
        .find((service) => service.type?.startsWith("00000043"))!
        .characteristics.find((characteristic) => characteristic.type?.startsWith("00000025"))!;
      await client.setCharacteristics({ [`${lamp.aid}.${on.iid}`]: true });
      await waitFor("the /set command", () => commands.length > 0);
      expect(commands[0]).to.deep.equal({ topic: `${prefix}/desk_lamp/set`, payload: { state: "ON" } });
    } finally {
      await client.close();
    }
  });

  it("runs the documented watchdog automation, which keeps a summary without the setup code", async () => {
    const response = await fetch(`http://127.0.0.1:${engine.httpPort}/api/automations/homekit-watchdog/trigger`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ type: "cron" }),
    });
    expect(response.status).to.equal(200);
    const summary = engine.state.get<{ reachable: boolean; accessories: number; bridges: { port: number }[] }>(
      "homekit.summary",
    );
    expect(summary).to.deep.include({ reachable: true, accessories: 1 });
    expect(summary?.bridges[0]?.port).to.equal(homeKitPort);
    expect(JSON.stringify(summary)).to.not.contain("031-45-154");
  });

  it("never writes the setup code to the log", () => {
    const text = JSON.stringify(logger.entries);
    expect(text).to.contain("***-**-154");
    expect(text).to.not.contain("031-45-154");
  });
});

describe("HomeKit bridge passed to createEngine({ services }) as a factory", function () {
  this.timeout(60_000);

  it("gets { mqtt, logger, deviceRegistry, relay } from the engine and runs in its lifecycle", async () => {
    const broker = await acquireBroker("homekit-factory");
    const dataDir = await mkdtemp(path.join(tmpdir(), "hearth-homekit-factory-"));
    const contexts: unknown[] = [];
    const engine = createEngine({
      automationsDir: path.join(dataDir, "automations"),
      logger: new MemoryLogger(),
      httpPort: 0,
      httpHost: "127.0.0.1",
      handleSignals: false,
      config: {
        MQTT_HOST: broker.host,
        MQTT_PORT: broker.port,
        DATA_DIR: dataDir,
        STATE_PERSIST: false,
        ZIGBEE2MQTT_PREFIX: uniqueTopicPrefix("hk-f"),
      },
      services: {
        homekit: (context) => {
          contexts.push(context);
          return new HomeKitBridge({
            ...context,
            dataDir: path.join(dataDir, "homekit"),
            port: 0,
            bind: "127.0.0.1",
            setupCode: "482-91-375",
          });
        },
      },
    });
    try {
      await engine.start();
      expect(contexts).to.have.length(1);
      expect(contexts[0]).to.include.keys("http", "logger", "mqtt", "deviceRegistry", "relay");
      expect((contexts[0] as { deviceRegistry: unknown }).deviceRegistry).to.equal(engine.deviceRegistry);
      const bridge = engine.services.get<HomeKitBridge>("homekit")!;
      const report = bridge.describe(true);
      expect(report.setupCode).to.equal("482-91-375");
      expect(report.bridges[0]?.port).to.be.a("number");
    } finally {
      await engine.stop();
      await broker.release();
      await rm(dataDir, { recursive: true, force: true });
    }
    expect(engine.services.get<HomeKitBridge>("homekit")!.status().reachable).to.equal(false);
  });
});
