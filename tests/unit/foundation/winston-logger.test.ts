import { PassThrough } from "node:stream";
import { expect } from "chai";
import { createLogger } from "../../../src/adapters/logging/winston-logger.js";

function capture(json: boolean, level: "trace" | "info" = "trace") {
  const stream = new PassThrough();
  const lines: string[] = [];
  stream.on("data", (chunk: Buffer) => lines.push(...chunk.toString().split("\n").filter(Boolean)));
  return { ...createLogger({ level, json, stream }), lines };
}

describe("createLogger", () => {
  it("records entries in the ring buffer with numeric levels, Unix-ms time and child bindings", () => {
    const { logger, buffer } = capture(false);
    const before = Date.now();
    logger.child({ automation: "porch-light" }).warn("motion", { room: "porch" });
    const [latest] = buffer.query();
    expect(latest).to.include({ level: 40, msg: "motion", automation: "porch-light", room: "porch" });
    expect(latest?.time).to.be.within(before, Date.now());
    expect(Object.getOwnPropertySymbols(latest)).to.deep.equal([]);
  });

  it("maps all six levels to 10..60", () => {
    const { logger, buffer } = capture(false);
    logger.trace("t");
    logger.debug("d");
    logger.info("i");
    logger.warn("w");
    logger.error("e");
    logger.fatal("f");
    expect(buffer.query().map((e) => e.level)).to.deep.equal([60, 50, 40, 30, 20, 10]);
  });

  it("drops entries below the configured level", () => {
    const { logger, buffer } = capture(false, "info");
    logger.debug("hidden");
    logger.info("shown");
    expect(buffer.query().map((e) => e.msg)).to.deep.equal(["shown"]);
  });

  it("writes newline-delimited JSON in production format", () => {
    const { logger, lines } = capture(true);
    logger.child({ service: "weather" }).info("fetched", { url: "https://w.example/?appid=123" });
    const parsed = JSON.parse(lines[0] ?? "{}") as Record<string, unknown>;
    expect(parsed).to.include({
      level: "info",
      message: "fetched",
      service: "weather",
      url: "https://w.example/?appid=***",
    });
  });

  it("writes readable text otherwise, with the scope in brackets", () => {
    const { logger, lines } = capture(false);
    logger.child({ module: "db" }).error("down");
    expect(lines[0]).to.match(/ERROR \[db\] down$/);
  });

  it("masks secrets in messages and serialises errors", () => {
    const { logger, buffer } = capture(false);
    logger.error("GET https://x.example/?token=abc failed", { err: new Error("boom") });
    const [latest] = buffer.query();
    expect(latest?.msg).to.equal("GET https://x.example/?token=*** failed");
    expect(latest?.err).to.include({ message: "boom", name: "Error" });
  });
});
