import { expect } from "chai";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { CronScheduler } from "../../../src/adapters/scheduling/cron-scheduler.js";
import { FakeTime } from "../../support/engine-fakes.js";

function scheduler(start: string, timeZone?: string) {
  const time = new FakeTime(start);
  const logger = new MemoryLogger();
  return { time, logger, cron: new CronScheduler({ timeZone, clock: time, timer: time, logger }) };
}

describe("CronScheduler", () => {
  it("fires 5-field expressions at each matching minute", () => {
    const { time, cron } = scheduler("2026-03-01T10:00:30Z", "UTC");
    const fired: string[] = [];
    cron.schedule("job", "*/15 * * * *", (at) => fired.push(at.toISOString()));
    time.advance(60 * 60_000);
    expect(fired).to.deep.equal([
      "2026-03-01T10:15:00.000Z",
      "2026-03-01T10:30:00.000Z",
      "2026-03-01T10:45:00.000Z",
      "2026-03-01T11:00:00.000Z",
    ]);
  });

  it("accepts 6 fields (seconds first)", () => {
    const { time, cron } = scheduler("2026-03-01T10:00:00Z", "UTC");
    let count = 0;
    cron.schedule("seconds", "*/10 * * * * *", () => count++);
    time.advance(60_000);
    expect(count).to.equal(6);
  });

  it("reads expressions in the configured timezone", () => {
    const { time, cron } = scheduler("2026-01-15T00:00:00Z", "Europe/Berlin");
    const fired: Date[] = [];
    cron.schedule("morning", "0 8 * * *", (at) => fired.push(at));
    time.advance(24 * 3600_000);
    // 08:00 in Berlin (UTC+1 in January) is 07:00 UTC.
    expect(fired.map((at) => at.toISOString())).to.deep.equal(["2026-01-15T07:00:00.000Z"]);
    const other = scheduler("2026-01-15T00:00:00Z", "America/New_York");
    const nyc: Date[] = [];
    other.cron.schedule("morning", "0 8 * * *", (at) => nyc.push(at));
    other.time.advance(24 * 3600_000);
    expect(nyc.map((at) => at.toISOString())).to.deep.equal(["2026-01-15T13:00:00.000Z"]);
  });

  it("validates expressions: 5 or 6 fields, valid values", () => {
    const { cron } = scheduler("2026-01-01T00:00:00Z");
    expect(cron.validate("* * * * *")).to.equal(null);
    expect(cron.validate("0 * * * * *")).to.equal(null);
    expect(cron.validate("* * * *")).to.match(/5 or 6 fields/);
    expect(cron.validate("* * * * * * *")).to.match(/5 or 6 fields/);
    expect(cron.validate("61 * * * *")).to.be.a("string");
    expect(cron.validate("")).to.be.a("string");
    // Valid fields, but no such day: said as such, not as the cron library's request for a bug report.
    expect(cron.validate("0 0 30 2 *")).to.match(/^no date in the next 8 years matches it/);
    expect(cron.validate("0 0 31 4 *")).to.match(/^no date in the next 8 years matches it/);
    expect(cron.validate("0 0 29 2 *")).to.equal(null);
    expect(() => cron.schedule("feb-30", "0 0 30 2 *", () => {})).to.throw(
      'Invalid cron expression "0 0 30 2 *": no date in the next 8 years',
    );
    expect(() => cron.schedule("bad", "nope", () => {})).to.throw(/Invalid cron expression/);
  });

  it("removes jobs by id and by prefix, and stops all", () => {
    const { time, cron } = scheduler("2026-01-01T00:00:00Z", "UTC");
    const fired: string[] = [];
    cron.schedule("a#0", "* * * * *", () => fired.push("a0"));
    cron.schedule("a#1", "* * * * *", () => fired.push("a1"));
    cron.schedule("b#0", "* * * * *", () => fired.push("b0"));
    expect(cron.removeByPrefix("a#")).to.equal(2);
    time.advance(60_000);
    expect(fired).to.deep.equal(["b0"]);
    expect(cron.remove("b#0")).to.equal(true);
    expect(cron.remove("b#0")).to.equal(false);
    cron.schedule("c", "* * * * *", () => fired.push("c"));
    cron.stopAll();
    time.advance(120_000);
    expect(fired).to.deep.equal(["b0"]);
    expect(time.pendingCount).to.equal(0);
  });

  it("keeps the schedule going when a callback throws", () => {
    const { time, cron, logger } = scheduler("2026-01-01T00:00:00Z", "UTC");
    let calls = 0;
    cron.schedule("flaky", "* * * * *", () => {
      calls++;
      throw new Error("oops");
    });
    time.advance(3 * 60_000);
    expect(calls).to.equal(3);
    expect(logger.at("error")).to.have.length(3);
  });
});
