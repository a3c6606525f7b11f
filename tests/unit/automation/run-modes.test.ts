import { expect } from "chai";
import { Automation, type RunMode, type Trigger, type TriggerContext } from "hearth";
import { createTestEngine, type TestEngine } from "hearth/testing";
import { PILED_UP_RUNS } from "../../../src/application/automation/automation-manager.js";

/** An automation whose runs wait for the test to release them, recording what happened. */
function gatedAutomation(mode: RunMode | undefined, max?: number) {
  const events: string[] = [];
  const gates: (() => void)[] = [];
  class Gated extends Automation {
    readonly name = "gated";
    readonly triggers: Trigger[] = [{ type: "mqtt", topic: "test/go" }];
    override readonly mode = mode;
    override readonly max = max;

    async execute(context: TriggerContext): Promise<void> {
      if (context.type !== "mqtt") return;
      const id = String(context.payload.id);
      events.push(`start ${id}`);
      context.signal?.addEventListener("abort", () => events.push(`abort ${id}`));
      await new Promise<void>((resolve) => gates.push(resolve));
      events.push(`end ${id}${context.signal?.aborted ? " (aborted)" : ""}`);
    }
  }
  return { Gated, events, release: () => gates.shift()?.() };
}

/** Publishes without waiting for the runs to end (they wait on the gate). */
async function fire(t: TestEngine, id: number): Promise<void> {
  const settled = t.publish("test/go", { id });
  await Promise.race([settled, new Promise((resolve) => setImmediate(resolve))]);
}

describe("run modes", () => {
  let t: TestEngine | undefined;
  afterEach(() => t?.stop());

  it("parallel (the default) runs firings side by side", async () => {
    const { Gated, events, release } = gatedAutomation(undefined);
    t = await createTestEngine({ automations: [Gated] });
    await fire(t, 1);
    await fire(t, 2);
    expect(events).to.deep.equal(["start 1", "start 2"]);
    expect(t.info("gated")).to.include({ mode: "parallel", max: null, active: 2 });
    release();
    release();
    await t.settle();
    expect(events).to.deep.equal(["start 1", "start 2", "end 1", "end 2"]);
  });

  it("parallel without max warns once when runs pile up, and again only after they all ended", async () => {
    const { Gated, release } = gatedAutomation(undefined);
    t = await createTestEngine({ automations: [Gated] });
    const engine = t;
    const warnings = () =>
      engine.logs.filter((entry) => entry.level === "warn" && /in progress at once/.test(entry.msg));
    for (let id = 1; id < PILED_UP_RUNS; id++) await fire(t, id);
    expect(warnings()).to.have.length(0);
    await fire(t, PILED_UP_RUNS);
    await fire(t, PILED_UP_RUNS + 1);
    expect(warnings()).to.have.length(1);
    expect(warnings()[0]?.msg).to.include(`${PILED_UP_RUNS} runs`);
    for (let id = 0; id <= PILED_UP_RUNS; id++) release();
    await t.settle();
    for (let id = 1; id <= PILED_UP_RUNS; id++) await fire(t, id);
    expect(warnings()).to.have.length(2);
    for (let id = 0; id < PILED_UP_RUNS; id++) release();
    await t.settle();
  });

  it("parallel with max drops firings beyond it and counts them", async () => {
    const { Gated, events, release } = gatedAutomation("parallel", 2);
    t = await createTestEngine({ automations: [Gated] });
    await fire(t, 1);
    await fire(t, 2);
    await fire(t, 3);
    expect(events).to.deep.equal(["start 1", "start 2"]);
    expect(t.info("gated").stats.dropped).to.equal(1);
    release();
    release();
    await t.settle();
  });

  it("single drops a firing while a run is in progress and counts it", async () => {
    const { Gated, events, release } = gatedAutomation("single");
    t = await createTestEngine({ automations: [Gated] });
    await fire(t, 1);
    await fire(t, 2);
    expect(t.info("gated").stats).to.include({ runs: 1, dropped: 1 });
    const manual = await t.manager.runAutomation("gated", { type: "mqtt", topic: "test/go", payload: { id: 3 } });
    expect(manual).to.deep.equal({ status: "dropped", reason: "a run is in progress (mode single)" });
    release();
    await t.settle();
    await fire(t, 4);
    release();
    await t.settle();
    expect(events).to.deep.equal(["start 1", "end 1", "start 4", "end 4"]);
  });

  it("restart aborts the running one through its signal and starts the new run", async () => {
    const { Gated, events, release } = gatedAutomation("restart");
    t = await createTestEngine({ automations: [Gated] });
    await fire(t, 1);
    await fire(t, 2);
    expect(events).to.deep.equal(["start 1", "abort 1", "start 2"]);
    release();
    release();
    await t.settle();
    expect(events).to.deep.equal(["start 1", "abort 1", "start 2", "end 1 (aborted)", "end 2"]);
  });

  it("restart marks a run that gave up on its signal as aborted, not as an error", async () => {
    class GivesUp extends Automation {
      readonly name = "gives-up";
      readonly triggers: Trigger[] = [{ type: "mqtt", topic: "test/go" }];
      override readonly mode = "restart" as const;
      async execute(context: TriggerContext): Promise<void> {
        await new Promise<void>((resolve, reject) => {
          context.signal?.addEventListener("abort", () => reject(context.signal?.reason));
          if (context.type === "mqtt" && context.payload.last === true) resolve();
        });
      }
    }
    t = await createTestEngine({ automations: [GivesUp] });
    await fire(t, 1);
    await t.publish("test/go", { last: true });
    const traces = t.traces("gives-up").traces;
    expect(traces.map((trace) => trace.status)).to.deep.equal(["ok", "aborted"]);
    expect(traces[1]?.error?.message).to.match(/newer firing/);
    expect(t.info("gives-up").stats.errors).to.equal(0);
  });

  it("queued runs one after another, in order", async () => {
    const { Gated, events, release } = gatedAutomation("queued");
    t = await createTestEngine({ automations: [Gated] });
    await fire(t, 1);
    await fire(t, 2);
    await fire(t, 3);
    expect(events).to.deep.equal(["start 1"]);
    expect(t.info("gated")).to.include({ mode: "queued", max: 10, active: 1, queued: 2 });
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).to.deep.equal(["start 1", "end 1", "start 2"]);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await t.settle();
    expect(events).to.deep.equal(["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"]);
  });

  it("queued with max drops firings once that many are running or waiting", async () => {
    const { Gated, release } = gatedAutomation("queued", 2);
    t = await createTestEngine({ automations: [Gated] });
    await fire(t, 1);
    await fire(t, 2);
    await fire(t, 3);
    expect(t.info("gated")).to.include({ active: 1, queued: 1 });
    expect(t.info("gated").stats.dropped).to.equal(1);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await t.settle();
  });

  it("queued firings still waiting when the automation stops are dropped", async () => {
    const { Gated, events, release } = gatedAutomation("queued");
    t = await createTestEngine({ automations: [Gated] });
    await fire(t, 1);
    await fire(t, 2);
    const stopping = t.stop();
    release();
    await stopping;
    expect(events).to.deep.equal(["start 1", "abort 1", "end 1 (aborted)"]);
  });

  for (const [field, value, problem] of [
    ["mode", "sometimes", /mode "sometimes" is not one of parallel, single, restart, queued/],
    ["max", 0, /max must be a whole number above 0/],
    ["max", 1.5, /max must be a whole number above 0/],
  ] as const) {
    it(`refuses to register with ${field} ${JSON.stringify(value)}`, async () => {
      class Bad extends Automation {
        readonly name = "bad";
        readonly triggers: Trigger[] = [];
        constructor() {
          super();
          Object.defineProperty(this, field, { value });
        }
        async execute(): Promise<void> {}
      }
      let error: unknown;
      try {
        t = await createTestEngine({ automations: [Bad] });
      } catch (caught) {
        error = caught;
      }
      expect(String(error)).to.match(problem);
    });
  }
});
