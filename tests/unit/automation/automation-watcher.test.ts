import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import {
  type AutomationFileChange,
  AutomationWatcher,
  type WatchDirectory,
} from "../../../src/adapters/loading/automation-watcher.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { FakeTime } from "../../support/engine-fakes.js";

describe("AutomationWatcher", () => {
  let dir: string;
  let emit: (filename: string | null) => void;
  let closed: boolean;
  const watch: WatchDirectory = (_dir, _recursive, listener) => {
    emit = listener;
    closed = false;
    return { close: () => (closed = true) };
  };

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "hearth-watch-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  function watcher(recursive = false) {
    const time = new FakeTime();
    const bursts: AutomationFileChange[][] = [];
    const logger = new MemoryLogger();
    const instance = new AutomationWatcher({
      dir,
      recursive,
      logger,
      timer: time,
      watch,
      debounceMs: 150,
      onChange: async (changes) => {
        bursts.push(changes);
      },
    });
    instance.start();
    return { instance, time, bursts, logger };
  }

  it("hands over an editor's save burst once, after it went quiet", async () => {
    const { instance, time, bursts } = watcher();
    await writeFile(path.join(dir, "porch.ts"), "export default 1;");
    emit("porch.ts");
    time.advance(100);
    emit(".porch.ts.swp");
    emit("porch.ts~");
    emit("porch.ts");
    time.advance(149);
    expect(bursts).to.deep.equal([]);
    time.advance(1);
    await instance.stop();
    expect(bursts).to.deep.equal([[{ file: path.join(dir, "porch.ts"), exists: true }]]);
  });

  it("reports deleted files as gone and ignores declaration files, other files and subfolders unless recursive", async () => {
    const { instance, time, bursts } = watcher();
    emit("gone.ts");
    emit("types.d.ts");
    emit("README.md");
    emit(path.join("nested", "deep.ts"));
    emit(null);
    time.advance(150);
    await instance.stop();
    expect(bursts).to.deep.equal([[{ file: path.join(dir, "gone.ts"), exists: false }]]);
  });

  it("follows subfolders when recursive, but never node_modules", async () => {
    const { instance, time, bursts } = watcher(true);
    emit(path.join("nested", "deep.ts"));
    emit(path.join("node_modules", "lib", "index.js"));
    time.advance(150);
    await instance.stop();
    expect(bursts).to.deep.equal([[{ file: path.join(dir, "nested", "deep.ts"), exists: false }]]);
  });

  it("stops watching and drops a pending burst on stop", async () => {
    const { instance, time, bursts } = watcher();
    emit("porch.ts");
    await instance.stop();
    expect(closed).to.equal(true);
    time.advance(1000);
    emit("porch.ts");
    time.advance(1000);
    expect(bursts).to.deep.equal([]);
  });

  it("logs a failing reload and keeps watching", async () => {
    const time = new FakeTime();
    const logger = new MemoryLogger();
    let calls = 0;
    const instance = new AutomationWatcher({
      dir,
      recursive: false,
      logger,
      timer: time,
      watch,
      onChange: async () => {
        calls++;
        throw new Error("disk on fire");
      },
    });
    instance.start();
    emit("a.ts");
    time.advance(150);
    emit("b.ts");
    time.advance(150);
    await instance.stop();
    expect(calls).to.equal(2);
    expect(logger.at("error").map((entry) => entry.msg)).to.deep.equal([
      "Reloading changed automations failed",
      "Reloading changed automations failed",
    ]);
  });
});
