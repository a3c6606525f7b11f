import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import { MemoryLogger } from "../../src/adapters/logging/memory-logger.js";
import { JsonFileStore } from "../../src/adapters/state/json-file-store.js";
import { StateManager } from "../../src/application/automation/state-manager.js";

const WRITER = path.resolve("tests/support/state-writer.ts");

/** Runs the writer until it has written for a while, then SIGKILLs it mid-write. */
async function killDuringWrites(file: string): Promise<void> {
  const child = spawn(process.execPath, ["--import", "tsx", WRITER, file], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`writer exited early (${code})`)));
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("writing")) resolve();
    });
  });
  // Let it complete a number of writes so the kill lands somewhere inside one.
  const before = JSON.parse(await readFile(file, "utf8")).counter ?? 0;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const text = await readFile(file, "utf8");
    if ((JSON.parse(text).counter ?? 0) > before + 20 || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

describe("state persistence under kill -9", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "hearth-crash-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("leaves an intact state file that loads on restart", async () => {
    const file = path.join(dir, "state.json");
    let lastCounter = 0;
    for (let round = 0; round < 3; round++) {
      await killDuringWrites(file);
      const logger = new MemoryLogger();
      const state = new StateManager({ persist: true }, { logger, store: new JsonFileStore(file, logger) });
      await state.load();
      const counter = state.get<number>("counter") ?? 0;
      expect(counter, `round ${round}`).to.be.greaterThan(lastCounter);
      expect((state.get("payload") as { counter: number }).counter).to.equal(counter);
      expect(logger.at("warn"), "no corrupt file").to.have.length(0);
      lastCounter = counter;
    }
    const leftovers = (await readdir(dir)).filter((name) => name.includes("corrupt"));
    expect(leftovers).to.deep.equal([]);
  });
});
