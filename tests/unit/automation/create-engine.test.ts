import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect } from "chai";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { createEngine } from "../../../src/composition/create-engine.js";
import { FakeMqttClient, FakeTime } from "../../support/engine-fakes.js";

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

  it("requires automationsDir", () => {
    expect(() => createEngine({} as never)).to.throw(/automationsDir/);
  });
});
