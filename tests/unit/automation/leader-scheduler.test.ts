import { expect } from "chai";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { CronScheduler } from "../../../src/adapters/scheduling/cron-scheduler.js";
import { LeaderScheduler } from "../../../src/application/automation/leader-scheduler.js";
import type { CronFireLedger } from "../../../src/ports/leader-lease.js";
import { FakeTime } from "../../support/engine-fakes.js";

/** The ledger table: one row per job and tick; a claim under a stale token is refused. */
class MemoryLedger implements CronFireLedger {
  readonly fired = new Map<string, Date[]>();
  liveToken = 1;

  async claim(jobId: string, firedAt: Date, token: number): Promise<boolean> {
    if (token !== this.liveToken) return false;
    const ticks = this.fired.get(jobId) ?? [];
    if (ticks.some((tick) => tick.getTime() === firedAt.getTime())) return false;
    this.fired.set(jobId, [...ticks, firedAt]);
    return true;
  }

  async lastFired(jobId: string): Promise<Date | null> {
    return this.fired.get(jobId)?.at(-1) ?? null;
  }
}

const settle = async () => {
  for (let round = 0; round < 5; round++) await new Promise((resolve) => setImmediate(resolve));
};

function setup(token: () => number | null = () => 1) {
  const time = new FakeTime("2026-03-01T10:00:00Z");
  const logger = new MemoryLogger();
  const ledger = new MemoryLedger();
  const cron = new CronScheduler({ timeZone: "UTC", clock: time, timer: time, logger });
  const leader = new LeaderScheduler({ inner: cron, ledger, token, logger, clock: time });
  return { time, logger, ledger, cron, leader };
}

describe("LeaderScheduler (cron among several processes)", () => {
  it("runs a tick once it is recorded under this process's lease", async () => {
    const { time, leader, ledger } = setup();
    const fired: string[] = [];
    leader.schedule("ticker#0", "* * * * *", (at) => fired.push(at.toISOString()));
    time.advance(120_000);
    await settle();
    expect(fired).to.deep.equal(["2026-03-01T10:01:00.000Z", "2026-03-01T10:02:00.000Z"]);
    expect(ledger.fired.get("ticker#0")).to.have.length(2);
  });

  it("does not run a tick another leader already recorded", async () => {
    const { time, leader, ledger, logger } = setup();
    await ledger.claim("ticker#0", new Date("2026-03-01T10:01:00Z"), 1);
    const fired: string[] = [];
    leader.schedule("ticker#0", "* * * * *", (at) => fired.push(at.toISOString()));
    time.advance(60_000);
    await settle();
    expect(fired).to.deep.equal([]);
    expect(logger.at("warn").map((entry) => entry.msg)).to.include(
      "Cron tick already ran or the lease is lost; not running it again",
    );
  });

  it("runs nothing while this process does not lead, or under a lost lease", async () => {
    let token: number | null = null;
    const { time, leader, ledger } = setup(() => token);
    const fired: string[] = [];
    leader.schedule("ticker#0", "* * * * *", (at) => fired.push(at.toISOString()));
    time.advance(60_000);
    await settle();
    token = 1;
    ledger.liveToken = 2;
    time.advance(60_000);
    await settle();
    expect(fired).to.deep.equal([]);
    expect(ledger.fired.size).to.equal(0);
  });

  it("lists the ticks missed since the last recorded one when a new leader schedules the job, without running them", async () => {
    const { leader, ledger, logger } = setup();
    await ledger.claim("ticker#0", new Date("2026-03-01T09:57:00Z"), 1);
    const fired: string[] = [];
    leader.schedule("ticker#0", "* * * * *", (at) => fired.push(at.toISOString()));
    await settle();
    const warning = logger.at("warn").find((entry) => entry.msg.startsWith("Cron ticks missed"));
    expect(warning?.fields).to.deep.include({
      job: "ticker#0",
      missed: ["2026-03-01T09:58:00.000Z", "2026-03-01T09:59:00.000Z"],
    });
    expect(fired).to.deep.equal([]);
  });

  it("keeps a failing ledger from running the tick, with an error in the log", async () => {
    const { time, leader, ledger, logger } = setup();
    ledger.claim = async () => {
      throw new Error("connection terminated");
    };
    const fired: string[] = [];
    leader.schedule("ticker#0", "* * * * *", (at) => fired.push(at.toISOString()));
    time.advance(60_000);
    await settle();
    expect(fired).to.deep.equal([]);
    expect(logger.at("error").map((entry) => entry.msg)).to.include("Could not record a cron tick; it does not run");
  });
});
