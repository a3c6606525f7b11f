import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import { FileAutomationSource } from "../../../src/adapters/loading/file-automation-source.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { CronScheduler } from "../../../src/adapters/scheduling/cron-scheduler.js";
import { AutomationManager } from "../../../src/application/automation/automation-manager.js";
import type { DeviceEventHandler, DeviceRegistryApi, DeviceStateHandler } from "../../../src/ports/device-registry.js";
import { MqttService } from "../../../src/application/automation/mqtt-service.js";
import { ServiceRegistry } from "../../../src/application/automation/service-registry.js";
import { StateManager } from "../../../src/application/automation/state-manager.js";
import { Automation } from "../../../src/application/automation/sdk/automation.js";
import type { Trigger, TriggerContext } from "../../../src/domain/automation/trigger.js";
import type { ZigbeeDevice } from "../../../src/domain/automation/zigbee-device.js";
import type { HttpClient } from "../../../src/ports/http-client.js";
import { FakeMqttClient, FakeTime } from "../../support/engine-fakes.js";

const SRC = path.resolve("src");

class FakeDeviceRegistry implements DeviceRegistryApi {
  readonly stateHandlers = new Map<string, Set<DeviceStateHandler>>();
  readonly added = new Set<DeviceEventHandler>();
  readonly removed = new Set<DeviceEventHandler>();
  getDevices = () => [];
  getDevice = () => null;
  hasDevice = () => false;
  getNiceName = (name: string) => name;
  getDeviceState = () => null;
  onDeviceStateChange(name: string, handler: DeviceStateHandler) {
    const set = this.stateHandlers.get(name) ?? new Set();
    set.add(handler);
    this.stateHandlers.set(name, set);
  }
  offDeviceStateChange(name: string, handler: DeviceStateHandler) {
    this.stateHandlers.get(name)?.delete(handler);
  }
  onDeviceAdded(handler: DeviceEventHandler) {
    this.added.add(handler);
  }
  offDeviceAdded(handler: DeviceEventHandler) {
    this.added.delete(handler);
  }
  onDeviceRemoved(handler: DeviceEventHandler) {
    this.removed.add(handler);
  }
  offDeviceRemoved(handler: DeviceEventHandler) {
    this.removed.delete(handler);
  }
}

function setup(options: { deviceRegistry?: DeviceRegistryApi | null; services?: Record<string, unknown> } = {}) {
  const logger = new MemoryLogger();
  const client = new FakeMqttClient();
  const mqtt = new MqttService(client, logger, { zigbeePrefix: "z2m" });
  const state = new StateManager({}, { logger });
  const time = new FakeTime("2026-01-01T00:00:00Z");
  const scheduler = new CronScheduler({ timeZone: "UTC", clock: time, timer: time, logger });
  const services = new ServiceRegistry(logger);
  for (const [key, service] of Object.entries(options.services ?? {})) services.register(key, service);
  const manager = new AutomationManager({
    logger,
    mqtt,
    state,
    http: {} as HttpClient,
    config: { ZIGBEE2MQTT_PREFIX: "z2m", HTTP_PORT: 8080 },
    services,
    deviceRegistry: options.deviceRegistry === undefined ? null : options.deviceRegistry,
    scheduler,
    source: new FileAutomationSource(),
    clock: time,
  });
  return { logger, client, mqtt, state, time, scheduler, services, manager };
}

class Recorder extends Automation {
  readonly contexts: TriggerContext[] = [];
  constructor(
    readonly name: string,
    readonly triggers: Trigger[],
    private readonly behaviour: (context: TriggerContext) => void | Promise<void> = () => {},
  ) {
    super();
  }
  async execute(context: TriggerContext): Promise<void> {
    this.contexts.push(context);
    await this.behaviour(context);
  }
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe("AutomationManager", () => {
  it("wires mqtt, cron and state triggers and runs execute for each firing", async () => {
    const { client, manager, state, time } = setup();
    await client.connect();
    const automation = new Recorder("all-kinds", [
      { type: "mqtt", topic: "home/+/motion", filter: (payload) => payload.occupancy === true },
      { type: "cron", expression: "0 * * * *" },
      { type: "state", key: "mode" },
    ]);
    expect(await manager.register(automation)).to.equal(true);
    client.deliver("home/hall/motion", { occupancy: false });
    client.deliver("home/hall/motion", { occupancy: true });
    time.advance(3600_000);
    state.set("mode", "away");
    await flush();
    expect(automation.contexts.map((context) => context.type)).to.deep.equal(["mqtt", "cron", "state"]);
    expect(automation.contexts[0]).to.deep.equal({
      type: "mqtt",
      topic: "home/hall/motion",
      payload: { occupancy: true },
    });
    expect(automation.contexts[2]).to.deep.equal({ type: "state", key: "mode", newValue: "away", oldValue: undefined });
    const info = manager.getAutomation("all-kinds");
    expect(info?.status).to.equal("running");
    expect(info?.stats.runs).to.equal(3);
    expect(info?.triggers[0]).to.deep.equal({ type: "mqtt", topic: "home/+/motion", hasFilter: true });
  });

  it("catches and counts execute errors without affecting other automations", async () => {
    const { client, manager, logger } = setup();
    await client.connect();
    const failing = new Recorder("failing", [{ type: "mqtt", topic: "t" }], () => {
      throw new Error("kaput");
    });
    const healthy = new Recorder("healthy", [{ type: "mqtt", topic: "t" }]);
    await manager.register(failing);
    await manager.register(healthy);
    client.deliver("t", "{}");
    await flush();
    expect(healthy.contexts).to.have.length(1);
    const stats = manager.getAutomation("failing")?.stats;
    expect(stats).to.include({ runs: 1, errors: 1, lastError: "kaput", lastRunAt: "2026-01-01T00:00:00.000Z" });
    expect(stats?.lastDurationMs).to.be.a("number");
    expect(logger.at("error").find((entry) => entry.msg === "Automation failed")?.fields.automation).to.equal(
      "failing",
    );
  });

  it("rejects bad names, duplicates, bad triggers and missing services, listing them as failed", async () => {
    const { manager } = setup();
    expect(await manager.register(new Recorder("Not Kebab", []))).to.equal(false);
    expect(await manager.register(new Recorder("dup", []))).to.equal(true);
    expect(await manager.register(new Recorder("dup", []))).to.equal(false);
    expect(await manager.register(new Recorder("bad-cron", [{ type: "cron", expression: "every day" }]))).to.equal(
      false,
    );
    expect(await manager.register(new Recorder("empty-topic", [{ type: "mqtt", topic: "" }]))).to.equal(false);
    expect(await manager.register(new Recorder("odd-type", [{ type: "sunrise" } as unknown as Trigger]))).to.equal(
      false,
    );
    const needy = new Recorder("needy", []);
    Object.assign(needy, { requiredServices: ["weather"] });
    expect(await manager.register(needy)).to.equal(false);
    const failed = manager.listAutomations().filter((info) => info.status === "failed");
    expect(failed.map((info) => info.name)).to.deep.equal([
      "Not Kebab",
      "dup",
      "bad-cron",
      "empty-topic",
      "odd-type",
      "needy",
    ]);
    expect(failed.find((info) => info.name === "needy")?.error).to.match(/missing required service.*weather/);
    expect(failed.find((info) => info.name === "bad-cron")?.error).to.match(/cron/);
    expect(manager.getAutomation("dup")?.status).to.equal("running");
  });

  it("reports every problem of an automation at once", async () => {
    const { manager } = setup();
    const messy = new Recorder("Bad Name", [
      { type: "cron", expression: "every day" },
      { type: "mqtt", topic: "" },
    ]);
    Object.assign(messy, { requiredServices: ["weather"] });
    expect(await manager.register(messy)).to.equal(false);
    const error = manager.getAutomation("Bad Name")?.error ?? "";
    expect(error).to.match(/^4 problems: /);
    expect(error).to.match(/kebab-case/);
    expect(error).to.match(/missing required service.*weather/);
    expect(error).to.match(/trigger 1 \(cron\)/);
    expect(error).to.match(/trigger 2 \(mqtt\)/);
  });

  it("validates webhook secrets and never shows their value", async () => {
    const { manager } = setup();
    const weak = new Recorder("weak-secret", [{ type: "webhook", path: "a", secret: "short" }]);
    const odd = new Recorder("odd-secret", [
      { type: "webhook", path: "b", secret: { type: "hmac", secret: "long-enough", algorithm: "md5" } as never },
    ]);
    expect(await manager.register(weak)).to.equal(false);
    expect(await manager.register(odd)).to.equal(false);
    expect(manager.getAutomation("weak-secret")?.error).to.match(/at least 8 characters/);
    expect(manager.getAutomation("odd-secret")?.error).to.match(/algorithm/);
    const good = new Recorder("phone-home", [
      { type: "webhook", path: "phone/arrived", secret: "correct-horse-battery" },
      { type: "webhook", path: "signed", secret: { type: "hmac", secret: "hmac-secret-value", header: "X-Sig" } },
    ]);
    expect(await manager.register(good)).to.equal(true);
    const described = JSON.stringify(manager.getAutomation("phone-home"));
    expect(described).not.to.include("correct-horse-battery").and.not.to.include("hmac-secret-value");
    expect(manager.getAutomation("phone-home")?.triggers.map((trigger) => trigger.secret)).to.deep.equal([
      { type: "token", header: "X-Webhook-Token" },
      { type: "hmac", header: "X-Sig" },
    ]);
    expect(manager.findWebhookTargets("phone/arrived")[0]?.triggers[0]?.secret).to.deep.equal({
      type: "token",
      token: "correct-horse-battery",
    });
  });

  it("wires all triggers or none", async () => {
    const { client, manager, mqtt, scheduler } = setup();
    await client.connect();
    const automation = new Recorder("half-wired", [
      { type: "mqtt", topic: "first/topic" },
      { type: "cron", expression: "* * * * *" },
      { type: "mqtt", topic: "third/topic" },
    ]);
    const original = mqtt.subscribe.bind(mqtt);
    mqtt.subscribe = (topic, handler) => {
      if (topic === "third/topic") throw new Error("broker said no");
      original(topic, handler);
    };
    expect(await manager.register(automation)).to.equal(false);
    expect(mqtt.subscriptionCount).to.equal(0);
    expect(scheduler.size).to.equal(0);
    expect(manager.getAutomation("half-wired")?.error).to.match(/trigger 3.*broker said no/);
  });

  it("unwires everything and fails the automation when onStart throws", async () => {
    const { manager, mqtt } = setup();
    class BadStart extends Recorder {
      override async onStart(): Promise<void> {
        throw new Error("no start");
      }
    }
    expect(await manager.register(new BadStart("bad-start", [{ type: "mqtt", topic: "x" }]))).to.equal(false);
    expect(mqtt.subscriptionCount).to.equal(0);
    expect(manager.getAutomation("bad-start")?.error).to.match(/onStart/);
  });

  it("skips device triggers with a warning when the registry is disabled, keeping others", async () => {
    const { client, manager, logger } = setup({ deviceRegistry: null });
    await client.connect();
    const automation = new Recorder("devices", [
      { type: "device_state", friendlyName: "lamp" },
      { type: "device_joined" },
      { type: "mqtt", topic: "still/works" },
    ]);
    expect(await manager.register(automation)).to.equal(true);
    expect(logger.at("warn").filter((entry) => entry.msg.includes("Device registry is disabled"))).to.have.length(2);
    client.deliver("still/works", "{}");
    await flush();
    expect(automation.contexts).to.have.length(1);
  });

  it("wires device triggers through the registry", async () => {
    const registry = new FakeDeviceRegistry();
    const { manager } = setup({ deviceRegistry: registry });
    const automation = new Recorder("devices", [
      { type: "device_state", friendlyName: "lamp", filter: (state) => state.state === "ON" },
      { type: "device_joined", friendlyName: "sensor" },
      { type: "device_left" },
    ]);
    await manager.register(automation);
    const lamp = { friendly_name: "lamp", ieee_address: "0x1", type: "Router" } as ZigbeeDevice;
    const sensor = { friendly_name: "sensor", ieee_address: "0x2", type: "EndDevice" } as ZigbeeDevice;
    for (const handler of registry.stateHandlers.get("lamp") ?? []) {
      handler({ state: "OFF" }, lamp);
      handler({ state: "ON", brightness: 3 }, lamp);
    }
    for (const handler of registry.added) {
      handler(lamp);
      handler(sensor);
    }
    for (const handler of registry.removed) handler(lamp);
    await flush();
    expect(automation.contexts).to.deep.equal([
      { type: "device_state", friendlyName: "lamp", state: { state: "ON", brightness: 3 }, device: lamp },
      { type: "device_joined", device: sensor },
      { type: "device_left", device: lamp },
    ]);
    await manager.stopAll();
    expect(registry.added.size + registry.removed.size + (registry.stateHandlers.get("lamp")?.size ?? 0)).to.equal(0);
  });

  it("finds webhook targets and runs them manually", async () => {
    const { manager } = setup();
    const hook = new Recorder("hook", [{ type: "webhook", path: "/doorbell/" }], (context) => {
      if (context.type === "webhook" && context.body === "fail") throw new Error("bad body");
    });
    await manager.register(hook);
    await manager.register(new Recorder("hook-two", [{ type: "webhook", path: "doorbell", methods: ["GET", "PUT"] }]));
    expect(manager.findWebhookTargets("doorbell")).to.deep.equal([
      { name: "hook", methods: ["POST"], triggers: [{ methods: ["POST"] }] },
      { name: "hook-two", methods: ["GET", "PUT"], triggers: [{ methods: ["GET", "PUT"] }] },
    ]);
    expect(manager.findWebhookTargets("other")).to.deep.equal([]);
    const context = {
      type: "webhook",
      path: "doorbell",
      method: "POST",
      headers: {},
      query: {},
      body: "fail",
    } as const;
    expect(await manager.runAutomation("hook", context)).to.deep.equal({ status: "error", error: "bad body" });
    expect(await manager.runAutomation("nobody", context)).to.deep.equal({ status: "not_found" });
    expect(await manager.triggerAutomation("nobody", context)).to.equal(false);
    expect(await manager.triggerAutomation("hook", { ...context, body: {} })).to.equal(true);
    const runs: string[] = [];
    manager.onRun((event) => runs.push(`${event.automation}:${event.error ? "error" : "ok"}`));
    await manager.runAutomation("hook", context);
    expect(runs).to.deep.equal(["hook:error"]);
    expect(
      await manager.register(new Recorder("bad-hook", [{ type: "webhook", path: "x", methods: ["PATCH" as "GET"] }])),
    ).to.equal(false);
  });

  it("refuses webhook paths no request can reach (a query, a fragment, dot segments) and says why", async () => {
    const { client, manager } = setup();
    await client.connect();
    const unreachable = ["doorbell?token=abc", "door#bell", "garage/../open", "./porch"];
    for (const [index, path] of unreachable.entries()) {
      expect(await manager.register(new Recorder(`unreachable-${index}`, [{ type: "webhook", path }])), path).to.equal(
        false,
      );
    }
    const reasons = manager.listAutomations().map((automation) => automation.error);
    expect(reasons[0]).to.match(/must not contain "\?" or "#".*context\.query/);
    expect(reasons[2]).to.match(/must not contain "\." or "\.\." segments/);
    expect(await manager.register(new Recorder("dotted", [{ type: "webhook", path: "v1.2/.well-known" }]))).to.equal(
      true,
    );
  });

  it("calls onStop and unwires on stopAll", async () => {
    const { client, manager, mqtt, scheduler } = setup();
    await client.connect();
    const stopped: string[] = [];
    class Stoppable extends Recorder {
      override async onStop(): Promise<void> {
        stopped.push(this.name);
      }
    }
    await manager.register(
      new Stoppable("one", [
        { type: "mqtt", topic: "a" },
        { type: "cron", expression: "* * * * *" },
      ]),
    );
    await manager.register(new Stoppable("two", [{ type: "mqtt", topic: "a" }]));
    await manager.stopAll();
    expect(stopped).to.deep.equal(["two", "one"]);
    expect(mqtt.subscriptionCount).to.equal(0);
    expect(scheduler.size).to.equal(0);
    expect(manager.listAutomations()).to.deep.equal([]);
  });

  it("gives automations their runtime: scoped logger, notify without a service, require", async () => {
    const { manager, logger } = setup({ services: { weather: { temperature: 21 } } });
    let missing: unknown;
    const automation = new Recorder("helpers", [], async () => {});
    await manager.register(automation);
    automation.logger.info("hello");
    await automation.notify({ message: "hi" });
    const weather = automation.require("weather");
    try {
      automation.require("nope");
    } catch (error) {
      missing = error;
    }
    expect(logger.entries.find((entry) => entry.msg === "hello")?.fields.automation).to.equal("helpers");
    expect(logger.at("warn").some((entry) => entry.msg.includes("no notifications service"))).to.equal(true);
    expect(weather).to.deep.equal({ temperature: 21 });
    expect((missing as { code?: string }).code).to.equal("SERVICE_NOT_AVAILABLE");
    expect(automation.deviceRegistry).to.equal(null);
    expect(automation.config.ZIGBEE2MQTT_PREFIX).to.equal("z2m");
  });

  describe("discovery", () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(path.join(tmpdir(), "hearth-automations-"));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    const tsAutomation = (name: string, extra = "") => `
import { Automation } from ${JSON.stringify(path.join(SRC, "application/automation/sdk/automation.ts"))};
import type { TriggerContext } from ${JSON.stringify(path.join(SRC, "domain/automation/trigger.ts"))};
export default class extends Automation {
  readonly name = ${JSON.stringify(name)};
  readonly triggers = [{ type: "state" as const, key: "k" }];
  ${extra}
  async execute(_context: TriggerContext): Promise<void> {}
}
`;

    it("loads .ts and .js files, skips .d.ts, and recurses only when asked", async () => {
      await writeFile(path.join(dir, "one.ts"), tsAutomation("one"));
      await writeFile(path.join(dir, "types.d.ts"), "export declare const x: number;\n");
      await writeFile(path.join(dir, "notes.txt"), "not code");
      // A .js automation built against a separate copy of the base class: recognised by its brand.
      await writeFile(
        path.join(dir, "two.js"),
        `class FakeBase { static [Symbol.for("hearth.automation")] = true; [Symbol.for("hearth.automation.attach")](runtime) { this.runtime = runtime; } async onStart() {} async onStop() {} }
export default class Two extends FakeBase { name = "two"; triggers = []; async execute() {} }\n`,
      );
      await mkdir(path.join(dir, "nested"));
      await writeFile(path.join(dir, "nested", "three.ts"), tsAutomation("three"));

      const flat = setup();
      expect(await flat.manager.discoverAndRegister(dir)).to.deep.equal({ registered: 2, failed: 0 });
      expect(flat.manager.listAutomations().map((info) => info.name)).to.deep.equal(["one", "two"]);
      expect(flat.manager.getAutomation("one")?.file).to.equal(path.join(dir, "one.ts"));

      const deep = setup();
      expect(await deep.manager.discoverAndRegister(dir, true)).to.deep.equal({ registered: 3, failed: 0 });
    });

    it('loads the shipped examples in ./automations, which import "hearth" by name', async () => {
      const { manager, client, state } = setup();
      await client.connect();
      expect(await manager.discoverAndRegister(path.resolve("automations"))).to.deep.equal({
        registered: 5,
        failed: 0,
      });
      const webhook = { type: "webhook", path: "away-mode", method: "POST", headers: {}, query: {} } as const;
      expect(await manager.runAutomation("away-mode-webhook", { ...webhook, body: { away: true } })).to.deep.equal({
        status: "ok",
      });
      await flush();
      expect(state.get("away")).to.equal(true);
      expect(client.published.map((message) => message.topic)).to.deep.equal([
        "z2m/hallway_light/set",
        "z2m/living_room_lamp/set",
        "z2m/kitchen_ceiling/set",
      ]);
      // Its refusal is recognised though it comes from the package "hearth" resolves to, not this source.
      expect((await manager.runAutomation("away-mode-webhook", { ...webhook, body: "nonsense" })).status).to.equal(
        "refused",
      );
      expect(manager.listAutomations().map((info) => info.name)).to.have.members([
        "away-lights-off",
        "away-mode-webhook",
        "door-reminder",
        "freezer-door-alarm",
        "motion-light",
      ]);
      await manager.stopAll();
    });

    it("records load errors and non-automation exports as failures with file and reason", async () => {
      await writeFile(path.join(dir, "broken.ts"), "export default class { syntax error here");
      await writeFile(path.join(dir, "plain.ts"), "export default class NotAnAutomation {}\n");
      await writeFile(path.join(dir, "throws.ts"), 'throw new Error("top-level failure");\n');
      await writeFile(path.join(dir, "good.ts"), tsAutomation("good"));
      await writeFile(path.join(dir, "zz-dup.ts"), tsAutomation("good"));
      const { manager, logger } = setup();
      expect(await manager.discoverAndRegister(dir)).to.deep.equal({ registered: 1, failed: 4 });
      const failed = manager.listAutomations().filter((info) => info.status === "failed");
      expect(failed.map((info) => [info.name, path.basename(info.file ?? "")])).to.have.deep.members([
        ["broken", "broken.ts"],
        ["plain", "plain.ts"],
        ["throws", "throws.ts"],
        ["good", "zz-dup.ts"],
      ]);
      expect(failed.find((info) => info.name === "throws")?.error).to.match(/top-level failure/);
      expect(failed.find((info) => info.name === "plain")?.error).to.match(/not a class extending Automation/);
      expect(failed.find((info) => info.file?.endsWith("zz-dup.ts"))?.error).to.match(/duplicate/);
      const errors = logger.at("error").filter((entry) => entry.msg === "Automation not registered");
      expect(errors).to.have.length(4);
      expect(
        errors.every((entry) => typeof entry.fields.file === "string" && typeof entry.fields.automation === "string"),
      ).to.equal(true);
    });
  });
});
