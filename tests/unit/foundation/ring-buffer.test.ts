import { expect } from "chai";
import { RingBufferLog } from "../../../src/adapters/logging/ring-buffer.js";
import type { LogEntry } from "../../../src/ports/log-buffer.js";

function entry(n: number, fields: Partial<LogEntry> = {}): LogEntry {
  return { level: 30, time: n, msg: `m${n}`, ...fields };
}

describe("RingBufferLog", () => {
  it("keeps the last `capacity` entries, newest first", () => {
    const buffer = new RingBufferLog(3);
    for (let n = 1; n <= 5; n++) buffer.push(entry(n));
    expect(buffer.length).to.equal(3);
    expect(buffer.query().map((e) => e.msg)).to.deep.equal(["m5", "m4", "m3"]);
  });

  it("holds 2500 entries by default", () => {
    const buffer = new RingBufferLog();
    for (let n = 0; n < 3000; n++) buffer.push(entry(n));
    expect(buffer.length).to.equal(2500);
    expect(buffer.query({ limit: 5000 })).to.have.length(2500);
    expect(buffer.query({ limit: 5000 }).at(-1)?.msg).to.equal("m500");
  });

  it("limits to 50 entries when no limit is given", () => {
    const buffer = new RingBufferLog();
    for (let n = 0; n < 80; n++) buffer.push(entry(n));
    expect(buffer.query()).to.have.length(50);
  });

  it("filters by automation and minimum level", () => {
    const buffer = new RingBufferLog(10);
    buffer.push(entry(1, { automation: "porch", level: 20 }));
    buffer.push(entry(2, { automation: "porch", level: 50 }));
    buffer.push(entry(3, { automation: "garage", level: 50 }));
    buffer.push(entry(4, { level: 60 }));
    expect(buffer.query({ automation: "porch" }).map((e) => e.msg)).to.deep.equal(["m2", "m1"]);
    expect(buffer.query({ level: 50 }).map((e) => e.msg)).to.deep.equal(["m4", "m3", "m2"]);
    expect(buffer.query({ automation: "porch", level: 40, limit: 1 }).map((e) => e.msg)).to.deep.equal(["m2"]);
  });

  it("tells subscribers about new entries until they unsubscribe", () => {
    const buffer = new RingBufferLog(2);
    const seen: string[] = [];
    const unsubscribe = buffer.subscribe((e) => seen.push(e.msg));
    buffer.push(entry(1));
    unsubscribe();
    buffer.push(entry(2));
    expect(seen).to.deep.equal(["m1"]);
  });
});
