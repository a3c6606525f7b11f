import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect } from "chai";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { createEngine } from "../../../src/composition/create-engine.js";
import { loadConfig } from "../../../src/composition/config.js";
import { FakeMqttClient, FakeTime, waitFor } from "../../support/engine-fakes.js";

const STOP_SIGNALS = ["SIGINT", "SIGTERM"] as const;

describe("createEngine (fake MQTT client and fake time)", () => {
  let dir: string;
  beforeEach(async () => {
    await mkdir("tmp", { recursive: true });
    dir = await mkdtemp(path.resolve("tmp", "create-engine-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("runs a cron automation from disk at 08:00 in TZ, and reports readiness", async () => {
    await writeFile(
      path.join(dir, "morning.ts"),
      `import { Automation, type Trigger, type TriggerContext } from "hearth";
export default class Morning extends Automation {
  readonly name = "morning";
  readonly triggers: Trigger[] = [{ type: "cron", expression: "0 8 * * *" }];
  async execute(context: TriggerContext): Promise<void> {
    if (context.type === "cron") this.state.set("last-morning", context.firedAt.toISOString());
  }
}
`,
    );
    const time = new FakeTime("2026-06-01T00:00:00Z");
    const client = new FakeMqttClient();
    const engine = createEngine({
      automationsDir: dir,
      logger: new MemoryLogger(),
      mqttClient: client,
      clock: time,
      timer: time,
      config: { TZ: "Europe/Berlin", HTTP_PORT: 0, DEVICE_REGISTRY_ENABLED: false },
    });
    expect(engine.isReady).to.equal(false);
    await engine.start();
    expect(engine.isReady).to.equal(true);
    expect(engine.httpPort).to.equal(null);
    expect(engine.deviceRegistry).to.equal(null);
    expect(engine.notifications).to.equal(null);
    time.advance(24 * 3600_000);
    await new Promise((resolve) => setImmediate(resolve));
    // 08:00 in Berlin in June (UTC+2) is 06:00 UTC.
    expect(engine.state.get("last-morning")).to.equal("2026-06-01T06:00:00.000Z");
    expect(engine.manager.getAutomation("morning")?.stats.runs).to.equal(1);

    client.setConnected(false);
    expect(engine.isReady).to.equal(false);
    client.setConnected(true);
    expect(engine.isReady).to.equal(true);
    await engine.stop();
    expect(engine.isReady).to.equal(false);
    expect(engine.scheduler.size).to.equal(0);
  });

  it("saves what a run still in flight when stop began writes to the state", async () => {
    await writeFile(
      path.join(dir, "slow.ts"),
      `import { Automation, type Trigger } from "hearth";
export default class Slow extends Automation {
  readonly name = "slow";
  readonly triggers: Trigger[] = [{ type: "mqtt", topic: "slow/go" }];
  async execute(): Promise<void> {
    await (globalThis as { __hearthGate?: Promise<void> }).__hearthGate;
    // A little real I/O after the gate, as a webhook answer or a device call would take.
    await new Promise((resolve) => setTimeout(resolve, 20));
    this.state.set("finished", true);
  }
}
`,
    );
    let open = () => {};
    (globalThis as { __hearthGate?: Promise<void> }).__hearthGate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const stateFile = path.join(dir, "state.json");
    const client = new FakeMqttClient();
    const engine = createEngine({
      automationsDir: dir,
      logger: new MemoryLogger(),
      mqttClient: client,
      config: { HTTP_PORT: 0, DEVICE_REGISTRY_ENABLED: false, STATE_PERSIST: true, STATE_FILE_PATH: stateFile },
    });
    try {
      await engine.start();
      client.deliver("slow/go", "{}");
      await waitFor(() => engine.manager.busy, 5000, "the run to start");
      const stopping = engine.stop();
      open();
      await stopping;
      expect(JSON.parse(await readFile(stateFile, "utf8"))).to.deep.include({ finished: true });
    } finally {
      delete (globalThis as { __hearthGate?: Promise<void> }).__hearthGate;
    }
  });

  it("runs the stop sequence on SIGTERM and SIGINT, then exits 0", async () => {
    await writeFile(
      path.join(dir, "farewell.ts"),
      `import { Automation, type Trigger } from "hearth";
export default class Farewell extends Automation {
  readonly name = "farewell";
  readonly triggers: Trigger[] = [{ type: "mqtt", topic: "farewell/never" }];
  async execute(): Promise<void> {}
  override async onStop(): Promise<void> { this.state.set("said-goodbye", true); }
}
`,
    );
    const listeners = () => STOP_SIGNALS.map((signal) => process.listenerCount(signal));
    const before = listeners();
    for (const signal of STOP_SIGNALS) {
      const engine = createEngine({
        automationsDir: dir,
        logger: new MemoryLogger(),
        mqttClient: new FakeMqttClient(),
        config: { HTTP_PORT: 0, DEVICE_REGISTRY_ENABLED: false },
      });
      await engine.start();
      expect(listeners()).to.deep.equal(before.map((count) => count + 1));
      const exits: (number | undefined)[] = [];
      const realExit = process.exit;
      process.exit = ((code?: number) => {
        exits.push(code);
      }) as typeof process.exit;
      try {
        process.emit(signal, signal);
        // Stopping has begun: a second signal gets Node's default handling again.
        expect(listeners()).to.deep.equal(before);
        await waitFor(() => exits.length > 0, 5000, "the engine to exit");
      } finally {
        process.exit = realExit;
      }
      expect(exits, signal).to.deep.equal([0]);
      expect(engine.isReady).to.equal(false);
      expect(engine.state.get("said-goodbye")).to.equal(true);
    }
  });

  it("leaves SIGINT and SIGTERM alone with handleSignals: false", async () => {
    const before = STOP_SIGNALS.map((signal) => process.listenerCount(signal));
    const engine = createEngine({
      automationsDir: dir,
      logger: new MemoryLogger(),
      mqttClient: new FakeMqttClient(),
      handleSignals: false,
      config: { HTTP_PORT: 0, DEVICE_REGISTRY_ENABLED: false },
    });
    await engine.start();
    expect(STOP_SIGNALS.map((signal) => process.listenerCount(signal))).to.deep.equal(before);
    await engine.stop();
  });

  it("keeps running when an automation leaves a rejected promise nobody catches, and names the automation", async () => {
    await writeFile(
      path.join(dir, "stray.ts"),
      `import { Automation, type Trigger } from "hearth";
export default class Stray extends Automation {
  readonly name = "stray";
  readonly triggers: Trigger[] = [{ type: "mqtt", topic: "stray/go" }];
  async execute(): Promise<void> {
    // A fire-and-forget call that fails after the run ended.
    void Promise.resolve().then(() => { throw new Error("stray rejection"); });
  }
}
`,
    );
    const before = process.listenerCount("unhandledRejection");
    const logger = new MemoryLogger();
    const client = new FakeMqttClient();
    const engine = createEngine({
      automationsDir: dir,
      logger,
      mqttClient: client,
      config: { HTTP_PORT: 0, DEVICE_REGISTRY_ENABLED: false },
    });
    await engine.start();
    try {
      expect(process.listenerCount("unhandledRejection")).to.equal(before + 1);
      client.deliver("stray/go", {});
      const logged = () =>
        logger.entries.find((entry) => entry.msg.startsWith("Unhandled promise rejection in the automation"));
      await waitFor(() => logged() !== undefined, 5000, "the stray rejection to be logged");
      expect(logged()?.level).to.equal("error");
      expect(logged()?.fields.automation).to.equal("stray");
      expect(engine.manager.getAutomation("stray")?.stats).to.include({ errors: 1, lastError: "stray rejection" });
      expect(engine.isReady).to.equal(true);
    } finally {
      await engine.stop();
    }
    expect(process.listenerCount("unhandledRejection")).to.equal(before);
  });

  it("serves webhooks, the debug API and the web UI on its HTTP server by default", async () => {
    // The web build's console entry, as scripts/build-web.mjs leaves it (a stand-in: no build here).
    const webAppDir = path.join(dir, "web-build");
    await mkdir(path.join(webAppDir, "status"), { recursive: true });
    await writeFile(path.join(webAppDir, "status", "status.js"), "export {};\n");
    await writeFile(path.join(webAppDir, "status", "status.css"), "body {}\n");
    const served = async (config: Record<string, unknown>) => {
      const engine = createEngine({
        automationsDir: dir,
        logger: new MemoryLogger(),
        mqttClient: new FakeMqttClient(),
        handleSignals: false,
        httpPort: 0,
        httpHost: "127.0.0.1",
        config: { DEVICE_REGISTRY_ENABLED: false, WEB_APP_DIR: webAppDir, ...config },
      });
      await engine.start();
      try {
        const get = (route: string) => fetch(`http://127.0.0.1:${engine.httpPort}${route}`, { redirect: "manual" });
        return {
          status: (await get("/api/status")).status,
          webhook: (await get("/webhook/nothing")).status,
          page: await get("/status"),
        };
      } finally {
        await engine.stop();
      }
    };
    const open = await served({ WEB_UI_ENABLED: true, HTTP_TOKEN: undefined });
    expect([open.status, open.webhook, open.page.status]).to.deep.equal([200, 404, 200]);
    expect(open.page.headers.get("content-type")).to.match(/text\/html/);
    const guarded = await served({ WEB_UI_ENABLED: true, HTTP_TOKEN: "s3cret-token" });
    expect([guarded.status, guarded.page.status]).to.deep.equal([401, 303]);
    expect(guarded.page.headers.get("location")).to.equal("/status/login");
    const off = await served({ WEB_UI_ENABLED: false });
    expect(off.page.status).to.equal(404);
  });

  it("keeps /api/logs working with a custom logger: entries go to it and into the ring buffer", async () => {
    const logger = new MemoryLogger();
    const engine = createEngine({
      automationsDir: dir,
      logger,
      mqttClient: new FakeMqttClient(),
      handleSignals: false,
      config: { HTTP_PORT: 0, DEVICE_REGISTRY_ENABLED: false, LOG_LEVEL: "info" },
    });
    await engine.start();
    await engine.stop();
    expect(logger.entries.some((entry) => entry.msg === "Engine started")).to.equal(true);
    const recorded = engine.logBuffer.query({ limit: 1000 }).map((entry) => entry.msg);
    expect(recorded).to.include("Engine started");
    expect(recorded).to.include("Engine stopped");
  });

  it("does not read from the environment what the caller's config sets (LOG_LEVEL=verbose in the environment)", () => {
    const previous = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = "verbose";
    try {
      const engine = createEngine({
        automationsDir: dir,
        config: { LOG_LEVEL: "info", HTTP_PORT: 0 },
        logger: new MemoryLogger(),
        mqttClient: new FakeMqttClient(),
        handleSignals: false,
      });
      expect(engine.config.LOG_LEVEL).to.equal("info");
      // Without the override, the environment's mistake is still reported, naming the variable.
      expect(() =>
        createEngine({ automationsDir: dir, mqttClient: new FakeMqttClient(), handleSignals: false }),
      ).to.throw(/LOG_LEVEL/);
    } finally {
      if (previous === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = previous;
    }
  });

  it("does not read the inventory's variables, which an embedded engine does not use", () => {
    const previous = process.env.RATE_LIMIT_PER_MINUTE;
    process.env.RATE_LIMIT_PER_MINUTE = "lots";
    try {
      const engine = createEngine({
        automationsDir: dir,
        config: { HTTP_PORT: 0 },
        logger: new MemoryLogger(),
        mqttClient: new FakeMqttClient(),
        handleSignals: false,
      });
      expect(engine.config.RATE_LIMIT_PER_MINUTE).to.equal(100);
      // Hearth's own start, which runs the inventory, still refuses the value, naming it.
      expect(() => loadConfig(process.env)).to.throw(/RATE_LIMIT_PER_MINUTE/);
    } finally {
      if (previous === undefined) delete process.env.RATE_LIMIT_PER_MINUTE;
      else process.env.RATE_LIMIT_PER_MINUTE = previous;
    }
  });

  it("requires automationsDir", () => {
    expect(() => createEngine({} as never)).to.throw(/automationsDir/);
  });
});
