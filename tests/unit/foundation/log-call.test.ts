import { PassThrough } from "node:stream";
import { expect } from "chai";
import { BufferedLogger } from "../../../src/adapters/logging/buffered-logger.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { RingBufferLog } from "../../../src/adapters/logging/ring-buffer.js";
import { createLogger } from "../../../src/adapters/logging/winston-logger.js";
import type { Logger } from "../../../src/ports/logger.js";

function textAndJsonLoggers() {
  const out: string[] = [];
  const sink = () => {
    const stream = new PassThrough();
    stream.on("data", (chunk: Buffer) => out.push(chunk.toString()));
    return stream;
  };
  const text = createLogger({ level: "trace", json: false, stream: sink() });
  const json = createLogger({ level: "trace", json: true, stream: sink() });
  return { text, json, out };
}

describe("log calls in both argument orders", () => {
  it("takes pino-style (fields, message) as automations written for other engines call it", () => {
    const { text } = textAndJsonLoggers();
    text.logger.child({ automation: "alarm" }).info({ door: "front" }, "Door opened while armed");
    const [entry] = text.buffer.query();
    expect(entry).to.include({ msg: "Door opened while armed", door: "front", automation: "alarm", level: 30 });
  });

  it("keeps (message, fields)", () => {
    const memory = new MemoryLogger();
    memory.warn("cold", { celsius: -18 });
    expect(memory.entries[0]).to.deep.include({ level: "warn", msg: "cold", fields: { celsius: -18 } });
  });

  it("serialises an Error under any field with name, message and stack", () => {
    const { json, out } = textAndJsonLoggers();
    const error = new TypeError("boom");
    json.logger.error({ err: error, other: new RangeError("far") }, "failed");
    const [entry] = json.buffer.query();
    expect(entry?.err).to.include({ name: "TypeError", message: "boom" });
    expect((entry?.err as { stack?: string } | undefined)?.stack).to.include("boom");
    expect(entry?.other).to.include({ name: "RangeError", message: "far" });
    expect(JSON.parse(out.join("").trim()).err).to.include({ name: "TypeError", message: "boom" });
  });

  it("logs a bare Error under err, with its message as the message", () => {
    const memory = new MemoryLogger();
    memory.error(new Error("disk full"));
    expect(memory.entries[0]?.msg).to.equal("disk full");
    expect(memory.entries[0]?.fields.err).to.be.instanceOf(Error);
  });

  it("never throws, whatever it is given, and the buffered entries stay JSON-serialisable", () => {
    const { text, json } = textAndJsonLoggers();
    const buffered = new BufferedLogger(new MemoryLogger(), new RingBufferLog(), "trace");
    const circular: Record<string, unknown> = { name: "loop" };
    circular.self = circular;
    const hostile: unknown[] = [
      circular,
      { big: 10n },
      { sym: Symbol("s") },
      undefined,
      null,
      42,
      Symbol("bare"),
      10n,
      new Error("bare"),
      { fn: () => 1 },
      Object.create(null),
      {
        get broken() {
          throw new Error("getter");
        },
      },
    ];
    for (const logger of [text.logger, json.logger, buffered] as Logger[]) {
      for (const value of hostile) {
        // The public overloads cover the typed uses; automations in plain JS can pass anything.
        const call = logger.info as (first: unknown, second?: unknown) => void;
        expect(() => call(value)).not.to.throw();
        expect(() => call(value, "msg")).not.to.throw();
        expect(() => call("msg", value)).not.to.throw();
      }
    }
    expect(() => JSON.stringify(text.buffer.query())).not.to.throw();
    expect(() => JSON.stringify(json.buffer.query())).not.to.throw();
    const withCycle = text.buffer
      .query()
      .find((entry) => (entry.self as { self?: unknown } | undefined)?.self === "[Circular]");
    expect(withCycle).to.include({ name: "loop" });
    expect(text.buffer.query().find((entry) => entry.big !== undefined)?.big).to.equal("10n");
  });

  it("masks secrets in messages given in either position", () => {
    const { text } = textAndJsonLoggers();
    text.logger.info({ url: "https://x.example/?token=abc" }, "GET https://x.example/?apikey=zzz");
    const [entry] = text.buffer.query();
    expect(entry?.msg).to.equal("GET https://x.example/?apikey=***");
    expect(entry?.url).to.equal("https://x.example/?token=***");
  });
});
