import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { JsonFileStore } from "../../../src/adapters/state/json-file-store.js";
import { MemoryJsonStore } from "../../../src/adapters/state/memory-json-store.js";
import type { JsonStore } from "../../../src/ports/json-store.js";
import { KnexJsonStore } from "../../../src/adapters/persistence/knex-json-store.js";
import { useMigratedDatabase } from "../../support/migrated-database.js";

/** What every JsonStore must do, whatever keeps the document. */
function describeJsonStoreContract(name: string, create: () => Promise<JsonStore>): void {
  describe(`JsonStore contract: ${name}`, () => {
    it("loads undefined before anything was saved", async () => {
      expect(await (await create()).load()).to.equal(undefined);
    });

    it("loads what was saved last", async () => {
      const store = await create();
      await store.save({ a: 1 });
      await store.save({ a: 2, nested: { list: [1, "two", null] } });
      expect(await store.load()).to.deep.equal({ a: 2, nested: { list: [1, "two", null] } });
    });

    it("does not share references with the caller", async () => {
      const store = await create();
      const document = { count: 1 };
      await store.save(document);
      document.count = 99;
      expect(await store.load()).to.deep.equal({ count: 1 });
    });

    it("moves the stored document aside: load() then finds nothing, and a later save starts afresh", async () => {
      const store = await create();
      expect(await store.moveAside()).to.equal(null);
      await store.save(["wrong", "shape"]);
      expect(await store.moveAside()).to.be.a("string");
      expect(await store.load()).to.equal(undefined);
      await store.save({ fresh: true });
      expect(await store.load()).to.deep.equal({ fresh: true });
    });

    it("keeps the last of concurrent saves", async () => {
      const store = await create();
      await Promise.all(Array.from({ length: 20 }, (_, n) => store.save({ n })));
      expect(await store.load()).to.deep.equal({ n: 19 });
    });
  });
}

const directories: string[] = [];
after(async () => {
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

async function scratchDirectory(): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), "hearth-json-store-"));
  directories.push(directory);
  return directory;
}

describeJsonStoreContract("MemoryJsonStore", async () => new MemoryJsonStore());
describeJsonStoreContract("JsonFileStore", async () => {
  return new JsonFileStore(path.join(await scratchDirectory(), "nested", "state.json"), new MemoryLogger());
});

for (const source of ["pglite", { acquired: "json store contract" }] as const) {
  describe(`KnexJsonStore on ${source === "pglite" ? "PGlite" : "the test database"}`, () => {
    const database = useMigratedDatabase(source);
    let documents = 0;
    describeJsonStoreContract("KnexJsonStore", async () => {
      documents += 1;
      return new KnexJsonStore({ knex: database().knex, name: `doc-${documents}`, logger: new MemoryLogger() });
    });
  });
}

describe("JsonFileStore specifics", () => {
  it("moves a corrupt file aside with a warning and loads undefined", async () => {
    const directory = await scratchDirectory();
    const file = path.join(directory, "state.json");
    await writeFile(file, '{"half": ');
    const logger = new MemoryLogger();
    expect(await new JsonFileStore(file, logger).load()).to.equal(undefined);
    const files = await readdir(directory);
    expect(files.some((name) => name.startsWith("state.json.corrupt-"))).to.equal(true);
    expect(files).not.to.include("state.json");
    expect(logger.at("warn")).to.have.length(1);
  });

  it("moves a file aside under a name beside it, keeping its content", async () => {
    const directory = await scratchDirectory();
    const file = path.join(directory, "devices.json");
    const store = new JsonFileStore(file, new MemoryLogger());
    await store.save({ devices: "not a list" });
    const aside = await store.moveAside();
    expect(path.dirname(aside ?? "")).to.equal(directory);
    expect(path.basename(aside ?? "")).to.match(/^devices\.json\.corrupt-\d+$/);
    expect(JSON.parse(await readFile(aside ?? "", "utf8"))).to.deep.equal({ devices: "not a list" });
    expect(await readdir(directory)).not.to.include("devices.json");
  });

  it("removes temporary files a crash left behind when it loads", async () => {
    const directory = await scratchDirectory();
    const file = path.join(directory, "state.json");
    await writeFile(file, '{"kept": true}');
    await writeFile(path.join(directory, "state.json.0123456789ab.tmp"), '{"half');
    await writeFile(path.join(directory, "other.json.0123456789ab.tmp"), "not ours");
    expect(await new JsonFileStore(file, new MemoryLogger()).load()).to.deep.equal({ kept: true });
    expect((await readdir(directory)).sort()).to.deep.equal(["other.json.0123456789ab.tmp", "state.json"]);
  });

  it("leaves no temporary files behind and writes readable JSON", async () => {
    const directory = await scratchDirectory();
    const file = path.join(directory, "state.json");
    await new JsonFileStore(file, new MemoryLogger()).save({ lamp: "on" });
    expect(await readdir(directory)).to.deep.equal(["state.json"]);
    expect(JSON.parse(await readFile(file, "utf8"))).to.deep.equal({ lamp: "on" });
  });
});
