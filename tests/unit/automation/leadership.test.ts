import { expect } from "chai";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { Leadership } from "../../../src/application/automation/leadership.js";
import { FakeTime } from "../../support/engine-fakes.js";
import { MemoryLease } from "../../support/memory-lease.js";

const settle = async () => {
  for (let round = 0; round < 10; round++) await new Promise((resolve) => setImmediate(resolve));
};

function setup() {
  const time = new FakeTime("2026-01-01T00:00:00Z");
  const lease = new MemoryLease(time);
  const events: string[] = [];
  const logger = new MemoryLogger();
  const instance = (name: string) =>
    new Leadership({
      lease,
      instance: name,
      ttlMs: 3000,
      renewMs: 1000,
      logger,
      timer: time,
      now: () => time.now().getTime(),
      onPromote: async (token) => {
        events.push(
          `${name} promoted (token ${token}) at ${time.now().getTime() - Date.parse("2026-01-01T00:00:00Z")}`,
        );
      },
      onDemote: async () => {
        events.push(`${name} demoted at ${time.now().getTime() - Date.parse("2026-01-01T00:00:00Z")}`);
      },
    });
  /** Moves fake time in 100 ms steps, letting the promises between timers settle. */
  const advance = async (ms: number) => {
    for (let step = 0; step < ms; step += 100) {
      time.advance(100);
      await settle();
    }
  };
  return { time, lease, events, logger, instance, advance };
}

describe("Leadership (the engine lease)", () => {
  it("makes the first process leader and the next one a standby that names it", async () => {
    const { instance, events } = setup();
    const alpha = instance("alpha");
    const beta = instance("beta");
    await alpha.start();
    await beta.start();
    expect(alpha).to.include({ role: "leader", leader: "alpha" });
    expect(alpha.currentToken()).to.equal(1);
    expect(beta).to.include({ role: "standby", leader: "alpha" });
    expect(beta.currentToken()).to.equal(null);
    expect(events).to.deep.equal(["alpha promoted (token 1) at 0"]);
  });

  it("keeps the lease while renewals succeed", async () => {
    const { instance, events, advance } = setup();
    const alpha = instance("alpha");
    const beta = instance("beta");
    await alpha.start();
    await beta.start();
    await advance(10_000);
    expect(alpha.role).to.equal("leader");
    expect(beta.role).to.equal("standby");
    expect(events).to.have.length(1);
  });

  it("stops a leader whose renewals hang before the database lets a standby take over", async () => {
    const { instance, events, lease, advance } = setup();
    const alpha = instance("alpha");
    const beta = instance("beta");
    await alpha.start();
    await beta.start();
    lease.hang = true;
    await advance(4500);
    // alpha's last renewal was sent at 0: its lease runs out on its clock at 2000; it asks the
    // database, which does not answer either, and gives up at 2500; the row expires at 3000,
    // and beta takes over at its first attempt after that.
    expect(events).to.deep.equal([
      "alpha promoted (token 1) at 0",
      "alpha demoted at 2500",
      "beta promoted (token 2) at 4000",
    ]);
    expect(alpha.currentToken()).to.equal(null);
    expect(beta.currentToken()).to.equal(2);
  });

  it("stops a leader whose renewals fail once its lease runs out, a renewal period before expiry", async () => {
    const { instance, events, lease, advance } = setup();
    const alpha = instance("alpha");
    await alpha.start();
    lease.failRenew = true;
    await advance(2500);
    expect(events).to.deep.equal(["alpha promoted (token 1) at 0", "alpha demoted at 2000"]);
  });

  it("stops at once when a renewal says another process holds the lease", async () => {
    const { instance, events, lease, advance } = setup();
    const alpha = instance("alpha");
    await alpha.start();
    lease.token = 7;
    await advance(1000);
    expect(alpha.role).to.equal("standby");
    expect(events.at(-1)).to.equal("alpha demoted at 1000");
  });

  it("a lone leader that stalled past its lease keeps leading: nothing stops, the lease is renewed", async () => {
    const { instance, events, lease, logger, time } = setup();
    const alpha = instance("alpha");
    await alpha.start();
    time.stall(5000);
    // Woken up: the lease ran out on every clock, and the leader acts under no token yet.
    expect(alpha.currentToken()).to.equal(null);
    time.advance(0);
    await settle();
    expect(events).to.deep.equal(["alpha promoted (token 1) at 0"]);
    expect(alpha.currentToken()).to.equal(1);
    expect(lease.expiresAt).to.be.greaterThan(time.now().getTime());
    expect(logger.at("warn").map((entry) => entry.msg)).to.include(
      "The engine lease was renewed 3000 ms after it ran out on this process's clock (a stall); nobody took it over, so this instance stays leader",
    );
  });

  it("a stall that makes a renewal only a little late (a busy board) stops nothing either", async () => {
    const { instance, events, time } = setup();
    const alpha = instance("alpha");
    await alpha.start();
    time.advance(900);
    // Blocked from 900 to 2400: the renewal due at 1000 goes out at 2400, after the lease ran
    // out on alpha's clock (2000), and the watchdog fires only 400 ms late.
    time.stall(1500);
    time.advance(0);
    await settle();
    expect(events).to.deep.equal(["alpha promoted (token 1) at 0"]);
    expect(alpha.currentToken()).to.equal(1);
  });

  it("a leader that stalled while another instance took the lease steps down, never two acting", async () => {
    const { instance, events, time } = setup();
    const alpha = instance("alpha");
    const beta = instance("beta");
    await alpha.start();
    time.stall(5000);
    await beta.start();
    expect(beta.currentToken()).to.equal(2);
    expect(alpha.currentToken(), "the late leader acts under no token").to.equal(null);
    time.advance(0);
    await settle();
    expect(events).to.deep.equal([
      "alpha promoted (token 1) at 0",
      "beta promoted (token 2) at 5000",
      "alpha demoted at 5000",
    ]);
    expect(alpha.role).to.equal("standby");
    expect(alpha.leader).to.equal(null);
  });

  it("a leader that stalled and then cannot reach the database steps down after half a renewal period", async () => {
    const { instance, events, lease, time, advance } = setup();
    const alpha = instance("alpha");
    await alpha.start();
    lease.hang = true;
    time.stall(5000);
    time.advance(0);
    await settle();
    expect(events).to.have.length(1);
    await advance(500);
    expect(events.at(-1)).to.equal("alpha demoted at 5500");
  });

  it("on stop, stops automations under the lease, then releases it for a standby", async () => {
    const { instance, events, lease, advance } = setup();
    const alpha = instance("alpha");
    const beta = instance("beta");
    await alpha.start();
    await beta.start();
    await alpha.stop();
    expect(lease.released).to.deep.equal([1]);
    await advance(1000);
    expect(events).to.deep.equal([
      "alpha promoted (token 1) at 0",
      "alpha demoted at 0",
      "beta promoted (token 2) at 1000",
    ]);
  });

  it("stays standby, with a warning, while the database cannot be reached", async () => {
    const { instance, lease, logger, advance } = setup();
    lease.failAcquire = true;
    const alpha = instance("alpha");
    await alpha.start();
    expect(alpha).to.include({ role: "standby", leader: null });
    expect(logger.at("warn").map((entry) => entry.msg)).to.include("Could not reach the engine lease; staying standby");
    lease.failAcquire = false;
    await advance(1000);
    expect(alpha.role).to.equal("leader");
  });

  it("refuses a lease shorter than two renewal periods", () => {
    const { lease, logger } = setup();
    expect(
      () =>
        new Leadership({
          lease,
          instance: "x",
          ttlMs: 1000,
          renewMs: 600,
          logger,
          onPromote: async () => {},
          onDemote: async () => {},
        }),
    ).to.throw(/two renewal periods/);
  });
});
