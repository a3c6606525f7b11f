import { expect } from "chai";
import { FakeClock } from "../../../src/adapters/testing/fake-clock.js";
import { withinTime } from "../../../src/ports/timer.js";

/** A promise settled when the test says so. */
function pending<T>() {
  let resolve: (value: T) => void = () => {};
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  return expect.fail("did not reject");
}

describe("withinTime", () => {
  it("gives the work's value and clears its timer when the work settles in time", async () => {
    const clock = new FakeClock();
    const work = pending<string>();
    const outcome = withinTime(work.promise, 1000, () => "late" as const, clock);
    expect(clock.pendingTimers).to.equal(1);
    work.resolve("done");
    expect(await outcome).to.equal("done");
    expect(clock.pendingTimers).to.equal(0);
  });

  it("passes on the work's rejection in time", async () => {
    const clock = new FakeClock();
    const work = pending<string>();
    const outcome = withinTime(work.promise, 1000, () => "late" as const, clock);
    work.reject(new Error("refused"));
    expect(await rejection(outcome)).to.equal("refused");
    expect(clock.pendingTimers).to.equal(0);
  });

  it("gives what late() returns once the time has passed, and ignores the work after", async () => {
    const clock = new FakeClock();
    const work = pending<string>();
    const outcome = withinTime(work.promise, 1000, () => "late" as const, clock);
    await clock.advance(999);
    work.promise.then(() => expect.fail("settled early"));
    await clock.advance(1);
    expect(await outcome).to.equal("late");
    work.resolve("done");
    expect(await outcome).to.equal("late");
  });

  it("rejects with what late() throws, and a later rejection of the work goes unnoticed", async () => {
    const clock = new FakeClock();
    const work = pending<string>();
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", record);
    try {
      const outcome = withinTime(
        work.promise,
        50,
        () => {
          throw new Error("did not finish within 50 ms");
        },
        clock,
      );
      await clock.advance(50);
      expect(await rejection(outcome)).to.equal("did not finish within 50 ms");
      work.reject(new Error("too late"));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).to.deep.equal([]);
    } finally {
      process.off("unhandledRejection", record);
    }
  });
});
