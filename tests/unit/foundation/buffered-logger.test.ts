import { expect } from "chai";
import { BufferedLogger } from "../../../src/adapters/logging/buffered-logger.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { RingBufferLog } from "../../../src/adapters/logging/ring-buffer.js";

describe("BufferedLogger", () => {
  it("forwards every entry to the wrapped logger and records those at or above the level", () => {
    const target = new MemoryLogger();
    const buffer = new RingBufferLog(10);
    const logger = new BufferedLogger(target, buffer, "info");
    logger.debug("noise");
    logger.child({ automation: "porch-light" }).warn("motion", { room: "porch" });
    expect(target.entries.map((entry) => [entry.level, entry.msg, entry.fields])).to.deep.equal([
      ["debug", "noise", {}],
      ["warn", "motion", { automation: "porch-light", room: "porch" }],
    ]);
    const entries = buffer.query();
    expect(entries).to.have.length(1);
    expect(entries[0]).to.include({ level: 40, msg: "motion", automation: "porch-light", room: "porch" });
    expect(entries[0]?.time).to.be.a("number");
    expect(buffer.query({ automation: "porch-light" })).to.have.length(1);
  });

  it("records errors readably and masks secrets in URLs, as the process logger does", () => {
    const buffer = new RingBufferLog(10);
    const logger = new BufferedLogger(new MemoryLogger(), buffer, "trace");
    logger.error("GET https://api.example/x?appid=abc failed", { err: new Error("boom"), url: "https://h/?token=t" });
    const [entry] = buffer.query();
    expect(entry?.msg).to.equal("GET https://api.example/x?appid=*** failed");
    expect(entry?.url).to.equal("https://h/?token=***");
    expect(entry?.err).to.include({ message: "boom", name: "Error" });
  });
});
