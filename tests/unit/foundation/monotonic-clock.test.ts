import { expect } from "chai";
import { monotonicClock } from "../../../src/ports/clock.js";

describe("monotonicClock", () => {
  it("answers later each time, even when the clock stands still or steps back", () => {
    let time = Date.parse("2026-06-01T12:00:00.000Z");
    const clock = monotonicClock({ now: () => new Date(time) });
    const answers = [clock.now(), clock.now(), clock.now()].map((at) => at.getTime());
    expect(answers).to.deep.equal([time, time + 1, time + 2]);
    time -= 10_000;
    expect(clock.now().getTime()).to.equal(answers[2]! + 1);
    time += 20_000;
    expect(clock.now().getTime(), "a real tick is taken as it is").to.equal(time);
  });

  it("runs at most maxLeadMs ahead of the clock", () => {
    const time = Date.parse("2026-06-01T12:00:00.000Z");
    const clock = monotonicClock({ now: () => new Date(time) }, 3);
    const answers = Array.from({ length: 6 }, () => clock.now().getTime() - time);
    expect(answers).to.deep.equal([0, 1, 2, 3, 3, 3]);
  });
});
