import { expect } from "chai";
import { Automation, type Trigger, type TriggerContext } from "hearth";
import { createTestEngine, type TestEngine } from "hearth/testing";
import { AutomationTimers } from "../../../src/application/automation/automation-timers.js";
import { MAX_TRACE_ITEMS, truncateForTrace } from "../../../src/application/automation/run-traces.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { FakeTime } from "../../support/engine-fakes.js";

class Chatty extends Automation {
  readonly name = "chatty";
  readonly triggers: Trigger[] = [{ type: "mqtt", topic: "test/chatty" }];
  async execute(context: TriggerContext): Promise<void> {
    if (context.type !== "mqtt") return;
    const count = Number(context.payload.count ?? 1);
    for (let n = 0; n < count; n++) this.logger.info("line", { n });
    await Promise.resolve();
    // After an await the run is still traced (AsyncLocalStorage).
    this.mqtt.publish("test/out", { big: "y".repeat(Number(context.payload.size ?? 1)) }, { retain: true });
    this.state.set("chatty.last", count);
    this.state.delete("chatty.gone");
    this.after(1000, () => this.logger.info("later"));
    if (context.payload.fail === true) throw new TypeError("bad payload");
  }
}

describe("run traces", () => {
  let t: TestEngine | undefined;
  afterEach(() => t?.stop());

  it("records the trigger, duration, log lines, publishes and state changes of a run, after awaits too", async () => {
    t = await createTestEngine({ automations: [Chatty], state: { "chatty.gone": 1 } });
    await t.publish("test/chatty", { count: 2 });
    const [trace] = t.traces("chatty").traces;
    expect(trace).to.deep.include({
      id: 1,
      automation: "chatty",
      trigger: { type: "mqtt", topic: "test/chatty", payload: { count: 2 } },
      status: "ok",
      published: [{ topic: "test/out", payload: { big: "y" }, retain: true }],
      stateChanges: [
        { key: "chatty.last", newValue: 2 },
        { key: "chatty.gone", newValue: null, deleted: true },
      ],
      serviceCalls: [],
      omitted: {},
    });
    expect(trace?.logs.map((line) => [line.level, line.msg, line.fields])).to.deep.equal([
      ["info", "line", { n: 0 }],
      ["info", "line", { n: 1 }],
    ]);
    expect(trace?.durationMs).to.be.a("number");
    // Times come from the engine's clock (the kit's fake one here).
    expect(trace?.startedAt).to.equal("2026-01-01T00:00:00.000Z");
    expect(trace?.logs[0]?.time).to.equal("2026-01-01T00:00:00.000Z");
    // A timer callback runs outside the run: it does not grow a finished trace.
    await t.advance("1s");
    expect(t.traces("chatty").traces[0]?.logs).to.have.length(2);
  });

  it("traces after awaits also for a plain execute() that returns a promise, from its second run on", async () => {
    class Plain extends Automation {
      readonly name = "plain";
      readonly triggers: Trigger[] = [{ type: "state", key: "go" }];
      execute(): Promise<void> {
        return this.work();
      }
      private async work(): Promise<void> {
        this.logger.info("before await");
        await Promise.resolve();
        this.logger.info("after await");
      }
    }
    t = await createTestEngine({ automations: [Plain] });
    await t.setState("go", 1);
    await t.setState("go", 2);
    const [second, first] = t.traces("plain").traces;
    expect(first?.logs.map((line) => line.msg)).to.deep.equal(["before await"]);
    expect(second?.logs.map((line) => line.msg)).to.deep.equal(["before await", "after await"]);
  });

  it("keeps overlapping runs of one automation apart across their awaits", async () => {
    const gates = new Map<number, () => void>();
    class Overlapping extends Automation {
      readonly name = "overlapping";
      readonly triggers: Trigger[] = [{ type: "mqtt", topic: "test/overlap" }];
      async execute(context: TriggerContext): Promise<void> {
        if (context.type !== "mqtt") return;
        const n = Number(context.payload.n);
        this.logger.info(`start ${n}`);
        await new Promise<void>((resolve) => gates.set(n, resolve));
        this.logger.info(`after ${n}`);
        this.mqtt.publish(`test/done/${n}`, { n });
      }
    }
    t = await createTestEngine({ automations: [Overlapping] });
    // Both runs are in progress at once; the second ends first.
    const first = t.publish("test/overlap", { n: 1 });
    const second = t.publish("test/overlap", { n: 2 });
    gates.get(2)?.();
    await Promise.resolve();
    gates.get(1)?.();
    await Promise.all([first, second]);
    const traces = t.traces("overlapping").traces;
    const byRun = Object.fromEntries(
      traces.map((trace) => [
        (trace.trigger as { payload: { n: number } }).payload.n,
        { logs: trace.logs.map((line) => line.msg), published: trace.published.map((message) => message.topic) },
      ]),
    );
    expect(byRun).to.deep.equal({
      1: { logs: ["start 1", "after 1"], published: ["test/done/1"] },
      2: { logs: ["start 2", "after 2"], published: ["test/done/2"] },
    });
  });

  it("serialises the trigger when the trace is read, cut to the payload limit", async () => {
    t = await createTestEngine({ automations: [Chatty], traceRuns: 2 });
    await t.publish("test/chatty", { count: 0, note: "x".repeat(5000) });
    const trigger = t.traces("chatty").traces[0]?.trigger as { truncated?: boolean; preview?: string } | undefined;
    expect(trigger).to.deep.include({ truncated: true });
    expect(trigger?.preview).to.have.length(2048);
  });

  it("records the error and stack of a failed run", async () => {
    t = await createTestEngine({ automations: [Chatty] });
    await t.publish("test/chatty", { fail: true });
    const [trace] = t.traces("chatty").traces;
    expect(trace?.status).to.equal("error");
    expect(trace?.error?.message).to.equal("bad payload");
    expect(trace?.error?.stack).to.match(/^TypeError: bad payload\n\s+at Chatty\.execute/);
    expect(trace?.error?.stack).to.not.match(/application.automation.(automation-manager|run-traces)/);
  });

  it("keeps the last N runs, newest first, and bounds every list and payload", async () => {
    t = await createTestEngine({ automations: [Chatty], traceRuns: 3 });
    for (let run = 1; run <= 5; run++) await t.publish("test/chatty", { count: 1, run });
    expect(t.traces("chatty").traces.map((trace) => trace.id)).to.deep.equal([5, 4, 3]);

    await t.publish("test/chatty", { count: MAX_TRACE_ITEMS + 7, size: 10_000 });
    const [trace] = t.traces("chatty").traces;
    expect(trace?.logs).to.have.length(MAX_TRACE_ITEMS);
    expect(trace?.omitted).to.deep.equal({ logs: 7 });
    expect(trace?.published[0]?.payload).to.deep.include({ truncated: true, bytes: 10_010 });
    expect((trace?.published[0]?.payload as { preview: string } | undefined)?.preview).to.have.length(2048);
  });

  it("truncates only what is too long, and copes with values JSON cannot hold", () => {
    expect(truncateForTrace({ a: 1 }, 100)).to.deep.equal({ a: 1 });
    expect(truncateForTrace("short", 100)).to.equal("short");
    expect(truncateForTrace(undefined, 100)).to.equal(null);
    expect(truncateForTrace("x".repeat(10), 4)).to.deep.equal({ truncated: true, bytes: 10, preview: "xxxx" });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(truncateForTrace(cyclic, 100)).to.equal("[not serialisable]");
  });
});

describe("AutomationTimers", () => {
  it("cancels, repeats, logs failing callbacks and clears everything at once", async () => {
    const time = new FakeTime();
    const logger = new MemoryLogger();
    const timers = new AutomationTimers(time, logger);
    const fired: string[] = [];
    const once = timers.after(100, () => fired.push("once"));
    const cancelled = timers.after(100, () => fired.push("cancelled"));
    cancelled.cancel();
    cancelled.cancel();
    const series = timers.every(50, () => {
      fired.push("tick");
      throw new Error("tick failed");
    });
    timers.after(10, async () => {
      throw new Error("async failure");
    });
    time.advance(100);
    await Promise.resolve();
    expect(fired).to.deep.equal(["tick", "once", "tick"]);
    expect(
      logger
        .at("error")
        .map((entry) => entry.msg)
        .sort(),
    ).to.deep.equal([
      "A after() timer callback failed",
      "A every() timer callback failed",
      "A every() timer callback failed",
    ]);
    once.cancel();
    expect(timers.pending).to.equal(1);
    expect(timers.clearAll()).to.equal(1);
    series.cancel();
    time.advance(1000);
    expect(fired).to.have.length(3);
    expect(time.pendingCount).to.equal(0);
  });

  it("refuses delays that are not a number of 0 ms or more, and intervals of 0", () => {
    const timers = new AutomationTimers(new FakeTime(), new MemoryLogger());
    expect(() => timers.after(-1, () => {})).to.throw(RangeError);
    expect(() => timers.after(Number.NaN, () => {})).to.throw(RangeError);
    expect(() => timers.every(0, () => {})).to.throw(RangeError, /above 0/);
  });
});
