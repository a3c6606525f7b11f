import { expect } from "chai";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { CronScheduler } from "../../../src/adapters/scheduling/cron-scheduler.js";
import {
  AutomationManager,
  ON_START_LIMIT_MS,
  ON_STOP_LIMIT_MS,
} from "../../../src/application/automation/automation-manager.js";
import { MqttService } from "../../../src/application/automation/mqtt-service.js";
import { ServiceRegistry } from "../../../src/application/automation/service-registry.js";
import { StateManager } from "../../../src/application/automation/state-manager.js";
import { Automation } from "../../../src/application/automation/sdk/automation.js";
import type { Trigger, TriggerContext } from "../../../src/domain/automation/trigger.js";
import type { AutomationSource } from "../../../src/ports/automation-source.js";
import type { HttpClient } from "../../../src/ports/http-client.js";
import { FakeMqttClient, FakeTime } from "../../support/engine-fakes.js";

/** Files whose "contents" (the exported value, or an error to throw) the test swaps. */
class SwappableSource implements AutomationSource {
  readonly files = new Map<string, () => unknown>();
  loads = 0;
  async listFiles(): Promise<string[]> {
    return [...this.files.keys()].sort();
  }
  async loadDefaultExport(file: string): Promise<unknown> {
    this.loads++;
    const load = this.files.get(file);
    if (!load) throw new Error(`ENOENT: ${file}`);
    return load();
  }
}

const events: string[] = [];

function version(label: string, options: { topic?: string; onStart?: () => void; name?: string } = {}) {
  return class extends Automation {
    readonly name = options.name ?? "porch";
    readonly triggers: Trigger[] = [
      { type: "mqtt", topic: options.topic ?? "home/porch" },
      { type: "cron", expression: "*/5 * * * *" },
      { type: "state", key: "porch.mode" },
    ];
    async execute(context: TriggerContext): Promise<void> {
      events.push(`${label} ${context.type}`);
    }
    override async onStart(): Promise<void> {
      options.onStart?.();
      this.every(60_000, () => events.push(`${label} tick`));
    }
    override async onStop(): Promise<void> {
      events.push(`${label} stop`);
    }
  };
}

function setup() {
  events.length = 0;
  const logger = new MemoryLogger();
  const client = new FakeMqttClient();
  // What the broker holds, in the order (un)subscriptions were sent.
  const broker = new Set<string>();
  const subscribe = client.subscribe.bind(client);
  const unsubscribe = client.unsubscribe.bind(client);
  client.subscribe = (filters) => {
    for (const filter of filters) broker.add(filter);
    subscribe(filters);
  };
  client.unsubscribe = (filters) => {
    for (const filter of filters) broker.delete(filter);
    unsubscribe(filters);
  };
  const mqtt = new MqttService(client, logger, { zigbeePrefix: "z2m" });
  const state = new StateManager({}, { logger });
  const time = new FakeTime("2026-01-01T00:00:00Z");
  const scheduler = new CronScheduler({ timeZone: "UTC", clock: time, timer: time, logger });
  const source = new SwappableSource();
  const manager = new AutomationManager({
    logger,
    mqtt,
    state,
    http: {} as HttpClient,
    config: { ZIGBEE2MQTT_PREFIX: "z2m", HTTP_PORT: 0 },
    services: new ServiceRegistry(logger),
    deviceRegistry: null,
    scheduler,
    source,
    clock: time,
    timer: time,
  });
  return { logger, client, broker, mqtt, state, time, scheduler, source, manager };
}

describe("AutomationManager reloads", () => {
  it("replaces a running version: onStop, triggers, subscriptions and timers of the old one go", async () => {
    const { client, broker, mqtt, state, time, scheduler, source, manager } = setup();
    await client.connect();
    source.files.set("/a/porch.ts", () => version("v1"));
    await manager.discoverAndRegister("/a");
    source.files.set("/a/porch.ts", () => version("v2", { topic: "home/porch/v2" }));

    expect(await manager.loadFile("/a/porch.ts")).to.deep.equal({ status: "reloaded", name: "porch" });
    expect(events).to.deep.equal(["v1 stop"]);
    expect(broker).to.deep.equal(new Set(["home/porch/v2"]));
    expect(scheduler.size).to.equal(1);
    expect(manager.pendingTimers("porch")).to.equal(1);

    client.deliver("home/porch", {});
    client.deliver("home/porch/v2", {});
    state.set("porch.mode", "on");
    time.advance(5 * 60_000);
    await manager.idle();
    expect(events.slice(1)).to.deep.equal([
      "v2 mqtt",
      "v2 state",
      "v2 tick",
      "v2 tick",
      "v2 tick",
      "v2 tick",
      "v2 cron",
      "v2 tick",
    ]);
    expect(manager.getAutomation("porch")).to.include({ status: "running", reloads: 1, reloadError: null });
    expect(mqtt.subscriptionCount).to.equal(1);
  });

  it("keeps the previous version running when the new file fails to load, and reports why", async () => {
    const { client, source, manager } = setup();
    await client.connect();
    source.files.set("/a/porch.ts", () => version("v1"));
    await manager.discoverAndRegister("/a");
    source.files.set("/a/porch.ts", () => {
      throw new SyntaxError("Unexpected token '}'");
    });

    const outcome = await manager.loadFile("/a/porch.ts");
    expect(outcome).to.deep.equal({
      status: "kept_previous",
      name: "porch",
      error: "failed to load: Unexpected token '}'",
    });
    expect(events).to.deep.equal([]);
    client.deliver("home/porch", {});
    await manager.idle();
    expect(events).to.deep.equal(["v1 mqtt"]);
    const info = manager.getAutomation("porch");
    expect(info?.status).to.equal("running");
    expect(info?.reloadError?.message).to.equal("failed to load: Unexpected token '}'");
  });

  it("keeps the previous version when the new one does not validate (bad trigger)", async () => {
    const { client, broker, source, manager } = setup();
    await client.connect();
    source.files.set("/a/porch.ts", () => version("v1"));
    await manager.discoverAndRegister("/a");
    source.files.set("/a/porch.ts", () => version("v2", { topic: "home/#/bad" }));

    const outcome = await manager.loadFile("/a/porch.ts");
    expect(outcome.status).to.equal("kept_previous");
    expect(events).to.deep.equal([]);
    expect(broker).to.deep.equal(new Set(["home/porch"]));
  });

  it("puts the previous version back when the new one's onStart throws", async () => {
    const { client, broker, source, manager } = setup();
    await client.connect();
    source.files.set("/a/porch.ts", () => version("v1"));
    await manager.discoverAndRegister("/a");
    source.files.set("/a/porch.ts", () =>
      version("v2", {
        onStart: () => {
          throw new Error("no lamp");
        },
      }),
    );

    const outcome = await manager.loadFile("/a/porch.ts");
    expect(outcome).to.deep.equal({ status: "kept_previous", name: "porch", error: "onStart() failed: no lamp" });
    expect(broker).to.deep.equal(new Set(["home/porch"]));
    expect(manager.pendingTimers("porch")).to.equal(1);
    client.deliver("home/porch", {});
    await manager.idle();
    expect(events).to.deep.equal(["v1 stop", "v1 mqtt"]);
  });

  it("registers an added file, and retries a file that failed before once it is fixed", async () => {
    const { client, source, manager } = setup();
    await client.connect();
    source.files.set("/a/porch.ts", () => "not a class");
    await manager.discoverAndRegister("/a");
    expect(manager.getAutomation("porch")?.status).to.equal("failed");

    source.files.set("/a/porch.ts", () => version("v1"));
    expect(await manager.loadFile("/a/porch.ts")).to.deep.equal({ status: "registered", name: "porch" });
    expect(manager.listAutomations().map((info) => info.status)).to.deep.equal(["running"]);
  });

  it("forgets a removed file's automation after its onStop", async () => {
    const { client, broker, scheduler, source, manager } = setup();
    await client.connect();
    source.files.set("/a/porch.ts", () => version("v1"));
    await manager.discoverAndRegister("/a");
    expect(await manager.removeFile("/a/porch.ts")).to.deep.equal(["porch"]);
    expect(events).to.deep.equal(["v1 stop"]);
    expect(manager.listAutomations()).to.deep.equal([]);
    expect(broker.size).to.equal(0);
    expect(scheduler.size).to.equal(0);
  });

  it("refuses a reload that takes the name of another running automation", async () => {
    const { client, source, manager } = setup();
    await client.connect();
    source.files.set("/a/porch.ts", () => version("v1"));
    source.files.set("/a/garden.ts", () => version("g1", { name: "garden", topic: "home/garden" }));
    await manager.discoverAndRegister("/a");
    source.files.set("/a/garden.ts", () => version("g2", { name: "porch" }));
    const outcome = await manager.loadFile("/a/garden.ts");
    expect(outcome).to.include({ status: "kept_previous", name: "garden" });
    expect((outcome as { error: string }).error).to.match(/duplicate name "porch"/);
  });

  it("registers a file that failed as a duplicate once the other file is removed or renames its automation", async () => {
    const { client, source, manager } = setup();
    await client.connect();
    source.files.set("/a/porch.ts", () => version("v1"));
    source.files.set("/a/porch2.ts", () => version("copy", { topic: "home/porch-copy" }));
    await manager.discoverAndRegister("/a");
    expect(manager.getAutomation("porch")?.file).to.equal("/a/porch.ts");

    source.files.delete("/a/porch.ts");
    await manager.removeFile("/a/porch.ts");
    const porch = manager.getAutomation("porch");
    expect(porch).to.include({ status: "running", file: "/a/porch2.ts" });
    expect(manager.listAutomations()).to.have.length(1);

    // The other way out: the running file takes another name.
    source.files.set("/a/porch.ts", () => version("v2"));
    await manager.loadFile("/a/porch.ts");
    expect(manager.getAutomation("porch")?.file).to.equal("/a/porch2.ts");
    source.files.set("/a/porch2.ts", () => version("copy", { name: "porch-two", topic: "home/porch-copy" }));
    await manager.loadFile("/a/porch2.ts");
    expect(manager.getAutomation("porch")).to.include({ status: "running", file: "/a/porch.ts" });
    expect(manager.getAutomation("porch-two")).to.include({ status: "running", file: "/a/porch2.ts" });
  });

  it("gives up on an onStart() or onStop() that never settles, so later files and stops go on", async () => {
    const { client, source, manager, time, broker } = setup();
    await client.connect();
    class Hanging extends Automation {
      readonly name = "hanging";
      readonly triggers: Trigger[] = [{ type: "mqtt", topic: "home/hanging" }];
      async execute(): Promise<void> {}
      override async onStart(): Promise<void> {
        await new Promise(() => {});
      }
    }
    source.files.set("/a/hanging.ts", () => Hanging);
    const loading = manager.loadFile("/a/hanging.ts");
    // Let the import and the wiring happen before the clock moves.
    await new Promise((resolve) => setImmediate(resolve));
    time.advance(ON_START_LIMIT_MS);
    const outcome = await loading;
    expect(outcome).to.include({ status: "failed" });
    expect((outcome as { error: string }).error).to.equal("onStart() failed: onStart() did not finish within 60 s");
    expect(broker.has("home/hanging")).to.equal(false);

    class StuckStop extends Automation {
      readonly name = "stuck-stop";
      readonly triggers: Trigger[] = [{ type: "mqtt", topic: "home/stuck" }];
      async execute(): Promise<void> {}
      override async onStop(): Promise<void> {
        await new Promise(() => {});
      }
    }
    source.files.set("/a/stuck.ts", () => StuckStop);
    expect(await manager.loadFile("/a/stuck.ts")).to.deep.equal({ status: "registered", name: "stuck-stop" });
    const removing = manager.removeFile("/a/stuck.ts");
    await new Promise((resolve) => setImmediate(resolve));
    time.advance(ON_STOP_LIMIT_MS);
    expect(await removing).to.deep.equal(["stuck-stop"]);
    expect(broker.has("home/stuck")).to.equal(false);
  });

  it("keeps the handler count, broker subscriptions, cron jobs and timers flat over 200 reloads", async () => {
    const { client, broker, mqtt, scheduler, source, manager, time } = setup();
    await client.connect();
    source.files.set("/a/porch.ts", () => version("v"));
    await manager.discoverAndRegister("/a");
    for (let reload = 0; reload < 200; reload++) await manager.loadFile("/a/porch.ts");
    expect(mqtt.subscriptionCount).to.equal(1);
    expect(broker).to.deep.equal(new Set(["home/porch"]));
    expect(scheduler.size).to.equal(1);
    expect(time.pendingCount).to.equal(2);
    expect(manager.pendingTimers("porch")).to.equal(1);
    expect(manager.getAutomation("porch")?.reloads).to.equal(200);
    // The topic stayed subscribed through every swap: no gap for messages, no broker churn.
    expect(client.unsubscribed).to.deep.equal([]);
    expect(client.subscribed).to.deep.equal([["home/porch"]]);
  });
});
