import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { JsonFileStore } from "../../../src/adapters/state/json-file-store.js";
import { StateManager } from "../../../src/application/automation/state-manager.js";
import { NonFiniteStateValueError } from "../../../src/domain/automation/state-value.js";
import { FakeTime, MemoryJsonStore } from "../../support/engine-fakes.js";

describe("StateManager", () => {
  it("gets, sets, deletes and lists values", () => {
    const state = new StateManager({}, { logger: new MemoryLogger() });
    expect(state.get("missing")).to.equal(undefined);
    expect(state.get("missing", 5)).to.equal(5);
    state.set("a", 1);
    state.set("b", { x: 1 });
    expect(state.has("a")).to.equal(true);
    expect(state.keys()).to.deep.equal(["a", "b"]);
    expect(state.entries()).to.deep.equal({ a: 1, b: { x: 1 } });
    expect(state.delete("a")).to.equal(true);
    expect(state.delete("a")).to.equal(false);
    expect(state.get("a", "default")).to.equal("default");
  });

  it("fires listeners only on real changes: strict equality for primitives, JSON text for objects", () => {
    const state = new StateManager({}, { logger: new MemoryLogger() });
    const changes: unknown[][] = [];
    state.onChange("k", (key, newValue, oldValue) => changes.push([key, newValue, oldValue]));
    state.set("k", 1);
    state.set("k", 1);
    state.set("k", "1");
    state.set("k", { a: 1, b: 2 });
    state.set("k", { a: 1, b: 2 });
    state.set("k", { b: 2, a: 1 });
    state.delete("k");
    expect(changes).to.deep.equal([
      ["k", 1, undefined],
      ["k", "1", 1],
      ["k", { a: 1, b: 2 }, "1"],
      ["k", { b: 2, a: 1 }, { a: 1, b: 2 }],
      ["k", undefined, { b: 2, a: 1 }],
    ]);
  });

  it("calls any-change listeners, removes listeners and isolates failing ones", () => {
    const logger = new MemoryLogger();
    const state = new StateManager({}, { logger });
    const seen: string[] = [];
    const any = (key: string) => void seen.push(`any:${key}`);
    const keyed = () => void seen.push("keyed");
    state.onAnyChange(any);
    state.onChange("a", () => {
      throw new Error("listener bug");
    });
    state.onChange("a", keyed);
    state.set("a", 1);
    state.offAnyChange(any);
    state.offChange("a", keyed);
    state.set("a", 2);
    expect(seen).to.deep.equal(["keyed", "any:a"]);
    expect(logger.at("error")).to.have.length(2);
  });

  it("warns when a key has more than 10 listeners", () => {
    const logger = new MemoryLogger();
    const state = new StateManager({}, { logger });
    for (let n = 0; n < 10; n++) state.onChange("busy", () => {});
    expect(logger.at("warn")).to.have.length(0);
    state.onChange("busy", () => {});
    expect(logger.at("warn")[0]?.fields).to.include({ key: "busy", listeners: 11 });
  });

  it("writes through at most the debounce delay after a change, and loads it back", async () => {
    const time = new FakeTime();
    const store = new MemoryJsonStore();
    const state = new StateManager({ persist: true }, { logger: new MemoryLogger(), store, timer: time });
    state.set("a", 1);
    time.advance(500);
    state.set("b", 2);
    expect(store.saves).to.equal(0);
    time.advance(500);
    await state.flush();
    expect(store.saves).to.equal(1);
    expect(store.document).to.deep.equal({ a: 1, b: 2 });
    expect(time.pendingCount).to.equal(0);

    const reloaded = new StateManager({ persist: true }, { logger: new MemoryLogger(), store });
    await reloaded.load();
    expect(reloaded.entries()).to.deep.equal({ a: 1, b: 2 });
  });

  it("save() writes immediately and cancels the pending write", async () => {
    const time = new FakeTime();
    const store = new MemoryJsonStore();
    const state = new StateManager({ persist: true }, { logger: new MemoryLogger(), store, timer: time });
    state.set("a", 1);
    await state.save();
    expect(store.saves).to.equal(1);
    expect(time.pendingCount).to.equal(0);
  });

  it("saves again after a save failed: the next change, flush and save write the whole state", async () => {
    const time = new FakeTime();
    const store = new MemoryJsonStore();
    const save = store.save.bind(store);
    let failures = 1;
    store.save = async (document: unknown) => {
      if (failures-- > 0) throw new Error("ENOSPC: no space left on device");
      await save(document);
    };
    const state = new StateManager({ persist: true }, { logger: new MemoryLogger(), store, timer: time });
    state.set("a", 1);
    let failed: unknown;
    await state.flush().catch((error: unknown) => {
      failed = error;
    });
    expect((failed as Error).message).to.match(/ENOSPC/);
    expect(store.document).to.equal(undefined);
    state.set("b", 2);
    await state.flush();
    expect(store.document).to.deep.equal({ a: 1, b: 2 });
    failures = 1;
    await state.save().catch(() => undefined);
    await state.save();
    expect(store.document).to.deep.equal({ a: 1, b: 2 });
  });

  it("saves every other key when one value cannot be written as JSON, and names that key in the log", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), "hearth-state-"));
    try {
      const file = path.join(directory, "state.json");
      const logger = new MemoryLogger();
      const state = new StateManager({ persist: true }, { logger, store: new JsonFileStore(file, logger) });
      const cyclic: Record<string, unknown> = { name: "porch" };
      cyclic.self = cyclic;
      state.set("mode", "away");
      state.set("device", cyclic);
      state.set("count", 10n);
      // A key like any other, also on this path.
      state.set("__proto__", "kept");
      await state.save();
      state.set("mode", "home");
      await state.save();
      expect(await readFile(file, "utf8")).to.include('"__proto__"');
      expect(Object.entries(JSON.parse(await readFile(file, "utf8")))).to.deep.equal([
        ["mode", "home"],
        ["__proto__", "kept"],
      ]);
      const named = logger.at("error").map((entry) => entry.fields.key);
      expect(named).to.include.members(["device", "count"]);
      expect(state.get("device")).to.equal(cyclic);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("refuses NaN and ±Infinity at any depth, naming the key, so memory never holds what the file would save as null", async () => {
    const store = new MemoryJsonStore();
    const state = new StateManager({ persist: true }, { logger: new MemoryLogger(), store });
    const changes: unknown[] = [];
    state.onAnyChange((key) => changes.push(key));
    state.set("temperature", 21.5);
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, { rooms: [{ temp: Number.NEGATIVE_INFINITY }] }]) {
      expect(() => state.set("temperature", value))
        .to.throw(NonFiniteStateValueError)
        .with.property("message")
        .that.contains('State key "temperature" was not set');
      expect(() => state.set("fresh", value)).to.throw(NonFiniteStateValueError);
    }
    expect(() => state.set("t", { rooms: [{ temp: Number.NaN }] }))
      .to.throw(NonFiniteStateValueError)
      .with.property("message")
      .that.contains("the value's rooms.0.temp is NaN");
    expect(state.get("temperature")).to.equal(21.5);
    expect(state.has("fresh")).to.equal(false);
    expect(changes).to.deep.equal(["temperature"]);
    await state.save();
    expect(store.document).to.deep.equal({ temperature: 21.5 });
    // A value referring to itself is still walked to the end, and kept as before.
    const cyclic: Record<string, unknown> = { n: 1 };
    cyclic.self = cyclic;
    state.set("cyclic", cyclic);
    expect(state.get("cyclic")).to.equal(cyclic);
  });

  it("moves aside a stored document that is valid JSON but not an object, and starts empty", async () => {
    const store = new MemoryJsonStore(["not", "a", "state", "object"]);
    const logger = new MemoryLogger();
    const state = new StateManager({ persist: true }, { logger, store });
    await state.load();
    expect(state.keys()).to.deep.equal([]);
    expect(store.movedAside).to.deep.equal([["not", "a", "state", "object"]]);
    expect(logger.at("warn")).to.have.length(1);
    state.set("fresh", true);
    await state.save();
    expect(store.document).to.deep.equal({ fresh: true });
    expect(store.movedAside).to.have.length(1);
  });

  it("starts empty when the state file is corrupt and moves it aside", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "hearth-state-"));
    try {
      const file = path.join(dir, "state.json");
      await writeFile(file, "{ not json");
      const logger = new MemoryLogger();
      const state = new StateManager({ persist: true }, { logger, store: new JsonFileStore(file, logger) });
      await state.load();
      expect(state.keys()).to.deep.equal([]);
      expect((await readdir(dir)).some((name) => name.startsWith("state.json.corrupt-"))).to.equal(true);
      expect(logger.at("warn")).to.have.length(1);
      state.set("fresh", true);
      await state.save();
      expect(JSON.parse(await readFile(file, "utf8"))).to.deep.equal({ fresh: true });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
