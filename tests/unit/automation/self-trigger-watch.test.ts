import { expect } from "chai";
import { Automation, type Trigger, type TriggerContext } from "hearth";
import { createTestEngine, type TestEngine } from "hearth/testing";

const LOOP_WARNING = "The automation keeps triggering itself";

/** Counts up by publishing the next number to the topic its own trigger listens on. */
class CountUp extends Automation {
  readonly name = "count-up";
  readonly triggers: Trigger[] = [{ type: "mqtt", topic: "loop/+/count" }];
  async execute(context: TriggerContext): Promise<void> {
    if (context.type !== "mqtt") return;
    const n = Number(context.payload.n);
    if (n < 30) this.mqtt.publish(context.topic, { n: n + 1 });
  }
}

/** Answers each button press with a status on its own topic: once per press, as intended. */
class PressAck extends Automation {
  readonly name = "press-ack";
  readonly triggers: Trigger[] = [{ type: "mqtt", topic: "button/#" }];
  async execute(context: TriggerContext): Promise<void> {
    if (context.type === "mqtt" && context.topic === "button/press") this.mqtt.publish("button/ack", { ok: true });
  }
}

/** Publishes to its own topic but its filter skips its own messages: no loop. */
class FilteredEcho extends Automation {
  readonly name = "filtered-echo";
  readonly triggers: Trigger[] = [{ type: "mqtt", topic: "echo/x", filter: (payload) => payload.from !== "me" }];
  async execute(): Promise<void> {
    this.mqtt.publish("echo/x", { from: "me" });
  }
}

describe("self-trigger loop warning", () => {
  let t: TestEngine;
  afterEach(() => t.stop());

  const warnings = () => t.logs.filter((entry) => entry.msg.startsWith(LOOP_WARNING));

  it("warns once, naming the automation and topic, when its runs keep publishing to its own trigger", async () => {
    t = await createTestEngine({ automations: [CountUp] });
    await t.publish("loop/a/count", { n: 0 });
    expect(t.publishedTo("loop/a/count")).to.have.length(30);
    expect(warnings()).to.have.length(1);
    expect(warnings()[0]).to.deep.include({ level: "warn" });
    expect(warnings()[0]?.fields).to.include({ automation: "count-up", topic: "loop/a/count" });

    // The same loop again soon after: no second warning (rate-limited) ...
    await t.advance("1m");
    await t.publish("loop/a/count", { n: 0 });
    expect(warnings()).to.have.length(1);
    // ... until ten minutes after the first.
    await t.advance("10m");
    await t.publish("loop/a/count", { n: 0 });
    expect(warnings()).to.have.length(2);
  });

  it("stays quiet for an automation that publishes to its own topic once per outside message", async () => {
    t = await createTestEngine({ automations: [PressAck] });
    for (let press = 0; press < 60; press++) {
      await t.publish("button/press", {});
      await t.advance("100ms");
    }
    expect(t.publishedTo("button/ack")).to.have.length(60);
    expect(warnings()).to.deep.equal([]);
  });

  it("stays quiet when the trigger's filter turns the automation's own messages away", async () => {
    t = await createTestEngine({ automations: [FilteredEcho] });
    for (let message = 0; message < 40; message++) await t.publish("echo/x", { from: "sensor" });
    expect(warnings()).to.deep.equal([]);
  });

  it("does not take a device's message long after the automation's publish for its echo", async () => {
    t = await createTestEngine({ automations: [CountUp] });
    // Runs of a loop spread out over minutes are not a tight loop.
    for (let round = 0; round < 25; round++) {
      await t.publish("loop/b/count", { n: 29 });
      await t.advance("30s");
    }
    expect(warnings()).to.deep.equal([]);
  });
});
