/**
 * Type checks of automations with the real TypeScript compiler: `hearth check` (exit codes,
 * file:line:col) and the engine's background check (warnings in the debug API, start-up
 * not waiting for it).
 */
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect } from "chai";
import { MemoryLogger } from "../../src/adapters/logging/memory-logger.js";
import { TypeScriptChecker } from "../../src/adapters/typecheck/typescript-checker.js";
import { WorkerTypeChecker } from "../../src/adapters/typecheck/worker-type-checker.js";
import { createEngine, type Engine } from "../../src/index.js";
import { FakeMqttClient, waitFor } from "../support/engine-fakes.js";

const WRONG = `import { Automation, type Trigger } from "hearth";
export default class Wrong extends Automation {
  readonly name = "wrong";
  readonly triggers: Trigger[] = [{ type: "state", key: "x" }];
  async execute(): Promise<void> {
    const n: number = "x";
    this.state.set("n", n);
  }
}
`;

const RIGHT = `import { Automation, type Trigger } from "hearth";
export default class Right extends Automation {
  readonly name = "right";
  readonly triggers: Trigger[] = [{ type: "state", key: "y" }];
  async execute(): Promise<void> {}
}
`;

function hearthCheck(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ["bin/hearth.js", "check", ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("type checks of automations", function () {
  this.timeout(120_000);
  let dir: string;
  let engine: Engine | undefined;

  beforeEach(async () => {
    // Inside the checkout, so `import "hearth"` resolves to this checkout's types.
    await mkdir("tmp", { recursive: true });
    dir = await mkdtemp(path.resolve("tmp", "type-check-"));
  });
  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it("hearth check reports file:line:col and exits 1 on a type error", async () => {
    await writeFile(path.join(dir, "wrong.ts"), WRONG);
    await writeFile(path.join(dir, "right.ts"), RIGHT);
    const result = hearthCheck([dir]);
    expect(result.status, result.stdout + result.stderr).to.equal(1);
    expect(result.stderr).to.include(
      `${path.relative(".", path.join(dir, "wrong.ts"))}:6:11 - error TS2322: Type 'string' is not assignable to type 'number'.`,
    );
    expect(result.stdout).to.include("Found 1 type error(s) in 1 of 2 automation file(s).");
  });

  it("hearth check exits 0 when the automations type-check, and for a folder without any", async () => {
    await writeFile(path.join(dir, "right.ts"), RIGHT);
    expect(hearthCheck([dir]).status).to.equal(0);
    const empty = path.join(dir, "empty");
    await mkdir(empty);
    const result = hearthCheck([empty]);
    expect(result.status).to.equal(0);
    expect(result.stdout).to.include("nothing to check");
  });

  it("hearth check exits 2 naming the problem when the folder does not exist", () => {
    const result = hearthCheck([path.join(dir, "missing")]);
    expect(result.status).to.equal(2);
    expect(result.stderr).to.match(/does not exist/);
  });

  it("checks a file outside any tsconfig with strict defaults", async () => {
    const outside = await mkdtemp(path.join((await import("node:os")).tmpdir(), "hearth-tc-"));
    try {
      await writeFile(
        path.join(outside, "plain.ts"),
        "export const n: number = 'x';\nexport function f(a) { return a; }\nexport const t = document.title;\n",
      );
      const diagnostics = await new TypeScriptChecker().check([path.join(outside, "plain.ts")]);
      expect(diagnostics.map((diagnostic) => [diagnostic.line, diagnostic.column, diagnostic.code])).to.deep.equal([
        [1, 14, 2322],
        [2, 19, 7006],
        // Automations run on Node: no DOM.
        [3, 18, 2584],
      ]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("the engine starts without waiting for the check, then shows the errors as warnings next to the automation", async () => {
    await writeFile(path.join(dir, "wrong.ts"), WRONG);
    await writeFile(path.join(dir, "right.ts"), RIGHT);
    const logger = new MemoryLogger();
    engine = createEngine({
      automationsDir: dir,
      logger,
      httpPort: 0,
      httpHost: "127.0.0.1",
      typeCheck: true,
      mqttClient: new FakeMqttClient(),
      config: { DEVICE_REGISTRY_ENABLED: false },
    });
    await engine.start();
    // It runs anyway: type errors are warnings.
    expect(engine.manager.getAutomation("wrong")?.status).to.equal("running");
    expect(engine.manager.getAutomation("wrong")?.typeWarnings).to.deep.equal([]);
    await engine.lastTypeCheck;

    const response = await fetch(`http://127.0.0.1:${engine.httpPort}/api/automations/wrong`);
    const info = (await response.json()) as {
      typeWarnings: { line: number; column: number; code: number; message: string }[];
    };
    expect(info.typeWarnings).to.have.length(1);
    expect(info.typeWarnings[0]).to.include({ line: 6, column: 11, code: 2322 });
    expect(engine.manager.getAutomation("right")?.typeWarnings).to.deep.equal([]);
    expect(
      logger.entries.some((entry) => entry.level === "warn" && entry.msg.startsWith("Type error: Type 'string'")),
    ).to.equal(true);
  });

  it("the background checker lets its worker go once idle, and starts a new one for the next check", async () => {
    await writeFile(path.join(dir, "wrong.ts"), WRONG);
    const checker = new WorkerTypeChecker({ idleMs: 50 });
    try {
      const first = await checker.check([path.join(dir, "wrong.ts")]);
      expect(first.map((diagnostic) => diagnostic.code)).to.deep.equal([2322]);
      // The compiler program is large; a small board should not keep it between edits.
      await waitFor(() => !checker.running, 10_000, "the idle worker to be released");
      await writeFile(path.join(dir, "wrong.ts"), RIGHT);
      expect(await checker.check([path.join(dir, "wrong.ts")])).to.deep.equal([]);
      expect(checker.running).to.equal(true);
    } finally {
      await checker.close();
    }
  });

  it("keeps its last check: unchanged files answer without the compiler's process, a changed file is checked again", async () => {
    const file = path.join(dir, "wrong.ts");
    const keptIn = path.join(dir, "data", "automations-typecheck.json");
    const codes = (diagnostics: readonly { code: number }[]) => diagnostics.map((diagnostic) => diagnostic.code);
    // A file saved just before a check may have been read in either version; these were saved a while ago.
    const aWhileAgo = new Date(Date.now() - 60_000);
    await writeFile(file, WRONG);
    await utimes(file, aWhileAgo, aWhileAgo);

    const first = new WorkerTypeChecker({ keptIn });
    try {
      expect(codes(await first.check([file]))).to.deep.equal([2322]);
      expect(first.running).to.equal(true);
    } finally {
      await first.close();
    }
    const kept = JSON.parse(await readFile(keptIn, "utf8")) as { read: { file: string }[] };
    // Everything the compiler read: the automation, the tsconfig above it, Hearth's types and the libraries'.
    expect(kept.read.map((entry) => entry.file)).to.include.members([file, path.resolve("tsconfig.json")]);
    expect(kept.read.length).to.be.greaterThan(50);

    const restarted = new WorkerTypeChecker({ keptIn });
    try {
      expect(codes(await restarted.check([file]))).to.deep.equal([2322]);
      expect(restarted.running, "a check with nothing changed starts no process").to.equal(false);
      // Another set of files is another check.
      await writeFile(path.join(dir, "right.ts"), RIGHT);
      expect(codes(await restarted.check([file, path.join(dir, "right.ts")]))).to.deep.equal([2322]);
      expect(restarted.running).to.equal(true);
      await restarted.close();

      await writeFile(file, RIGHT);
      expect(await restarted.check([file])).to.deep.equal([]);
      expect(restarted.running, "a changed file is checked again").to.equal(true);
      await restarted.close();

      // Saved a moment ago, it is not kept: the next check runs again, and sees the same.
      expect(await restarted.check([file])).to.deep.equal([]);
      expect(restarted.running).to.equal(true);
      await restarted.close();
    } finally {
      await restarted.close();
    }

    await writeFile(keptIn, "{ not json");
    await writeFile(file, WRONG);
    await utimes(file, aWhileAgo, aWhileAgo);
    const afterDamage = new WorkerTypeChecker({ keptIn });
    try {
      expect(codes(await afterDamage.check([file])), "an unreadable kept check is checked again").to.deep.equal([2322]);
      expect(afterDamage.running).to.equal(true);
    } finally {
      await afterDamage.close();
    }
  });
});
