/**
 * Type checks of automations with the real TypeScript compiler: `hearth check` (exit codes,
 * file:line:col) and the engine's background check (warnings in the debug API, start-up
 * not waiting for it).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import { MemoryLogger } from "../../src/adapters/logging/memory-logger.js";
import { NativeTypeChecker, nativeCompilerPath } from "../../src/adapters/typecheck/native-type-checker.js";
import { type TypeCheckResult, TypeScriptChecker } from "../../src/adapters/typecheck/typescript-checker.js";
import { WorkerTypeChecker } from "../../src/adapters/typecheck/worker-type-checker.js";
import { createEngine, type Engine } from "../../src/index.js";
import type { TypeChecker, TypeDiagnostic } from "../../src/ports/type-checker.js";
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

  it("types an automation in a folder of its own: hearth as the running Hearth, a helper imported as ./x.ts", async () => {
    // Outside the checkout and any project: nothing there resolves "hearth" by itself.
    const outside = await mkdtemp(path.join(tmpdir(), "hearth-tc-own-"));
    try {
      await mkdir(path.join(outside, "lib"));
      await writeFile(path.join(outside, "lib", "topics.ts"), 'export const TOPIC: string = "own/topic";\n');
      await writeFile(
        path.join(outside, "own.ts"),
        RIGHT.replace(
          'import { Automation, type Trigger } from "hearth";',
          (line) => `${line}\nimport { TOPIC } from "./lib/topics.ts";`,
        ).replace('{ type: "state", key: "y" }', '{ type: "mqtt", topic: TOPIC }'),
      );
      await writeFile(path.join(outside, "wrong.ts"), WRONG);
      const files = [path.join(outside, "own.ts"), path.join(outside, "wrong.ts")];
      const located = (diagnostics: readonly TypeDiagnostic[]) =>
        diagnostics.map((diagnostic) => [path.basename(diagnostic.file), diagnostic.line, diagnostic.code]);
      expect(located(await new TypeScriptChecker().check(files))).to.deep.equal([["wrong.ts", 6, 2322]]);
      const result = hearthCheck([outside]);
      expect(result.status, result.stdout + result.stderr).to.equal(1);
      expect(result.stdout).to.include("Found 1 type error(s) in 1 of 2 automation file(s).");
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

  it("stop() waits for a check that is still keeping its result, so nothing is written after it returns", async () => {
    await writeFile(path.join(dir, "right.ts"), RIGHT);
    // A checker whose answer came before the stop and is still being kept (written to DATA_DIR):
    // closing it cannot fail that check any more.
    let finishKeeping: (diagnostics: TypeDiagnostic[]) => void = () => undefined;
    let closed = false;
    const checker: TypeChecker = {
      check: () =>
        new Promise<TypeDiagnostic[]>((resolve) => {
          finishKeeping = resolve;
        }),
      close: async () => {
        closed = true;
      },
    };
    engine = createEngine({
      automationsDir: dir,
      logger: new MemoryLogger(),
      httpPort: 0,
      httpHost: "127.0.0.1",
      typeCheck: checker,
      mqttClient: new FakeMqttClient(),
      config: { DEVICE_REGISTRY_ENABLED: false },
    });
    await engine.start();
    let stopped = false;
    const stopping = engine.stop().then(() => {
      stopped = true;
    });
    await waitFor(() => closed, 5000, "the checker to be closed");
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).to.equal(false);
    finishKeeping([]);
    await stopping;
    expect(stopped).to.equal(true);
    engine = undefined;
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
    } finally {
      await restarted.close();
    }
    // A closed checker starts no process: the engine's stop may come while a check reads the kept one.
    await expectRejection(restarted.check([file]), /closed/);

    await writeFile(file, RIGHT);
    const afterEdit = new WorkerTypeChecker({ keptIn });
    try {
      expect(await afterEdit.check([file])).to.deep.equal([]);
      expect(afterEdit.running, "a changed file is checked again").to.equal(true);
    } finally {
      await afterEdit.close();
    }

    // Saved a moment ago, it is not kept: the next check runs again, and sees the same.
    const again = new WorkerTypeChecker({ keptIn });
    try {
      expect(await again.check([file])).to.deep.equal([]);
      expect(again.running).to.equal(true);
    } finally {
      await again.close();
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

  describe("with the native compiler (TypeScript 7)", () => {
    const compiler = nativeCompilerPath();
    const codes = (diagnostics: readonly { code: number }[]) => diagnostics.map((diagnostic) => diagnostic.code);

    before(function () {
      // npm installs it on every platform it has a build for, this one included in CI.
      if (!compiler) this.skip();
    });

    /** A stand-in compiler that counts its runs into `count` and then runs the real one (or `body`). */
    async function wrapper(body?: string): Promise<{ file: string; runs: () => number }> {
      const file = path.join(dir, "tsc-wrapper.sh");
      const count = path.join(dir, "runs");
      await writeFile(count, "");
      await writeFile(file, `#!/bin/sh\necho run >> '${count}'\n${body ?? `exec '${compiler}' "$@"`}\n`);
      await chmod(file, 0o755);
      return { file, runs: () => readFileSync(count, "utf8").split("\n").filter(Boolean).length };
    }

    it("reports a type error in an automation, and nothing in a correct one", async () => {
      await writeFile(path.join(dir, "wrong.ts"), WRONG);
      await writeFile(path.join(dir, "right.ts"), RIGHT);
      const checker = new NativeTypeChecker({ compiler: compiler as string });
      const diagnostics = await checker.check([path.join(dir, "wrong.ts"), path.join(dir, "right.ts")]);
      expect(diagnostics).to.deep.equal([
        {
          file: path.join(dir, "wrong.ts"),
          line: 6,
          column: 11,
          code: 2322,
          message: "Type 'string' is not assignable to type 'number'.",
        },
      ]);
    });

    it("checks a file outside any tsconfig with strict defaults, as the JavaScript compiler does", async () => {
      const outside = await mkdtemp(path.join(tmpdir(), "hearth-tc-"));
      try {
        await writeFile(
          path.join(outside, "plain.ts"),
          "export const n: number = 'x';\nexport function f(a) { return a; }\nexport const t = document.title;\n",
        );
        const located = (diagnostics: readonly { line: number; column: number; code: number }[]) =>
          diagnostics.map((diagnostic) => [diagnostic.line, diagnostic.column, diagnostic.code]);
        const native = await new NativeTypeChecker({ compiler: compiler as string }).check([
          path.join(outside, "plain.ts"),
        ]);
        expect(located(native)).to.deep.equal([
          [1, 14, 2322],
          [2, 19, 7006],
          [3, 18, 2584],
        ]);
        expect(located(native)).to.deep.equal(
          located(await new TypeScriptChecker().check([path.join(outside, "plain.ts")])),
        );
      } finally {
        await rm(outside, { recursive: true, force: true });
      }
    });

    it("gives Node's globals to a tsconfig that names no types, as TypeScript 5 did", async () => {
      await writeFile(
        path.join(dir, "tsconfig.json"),
        JSON.stringify({ compilerOptions: { strict: true, module: "nodenext", target: "es2022", skipLibCheck: true } }),
      );
      await writeFile(
        path.join(dir, "globals.ts"),
        "export const home: string | undefined = process.env.HOME;\nexport const bytes: Buffer = Buffer.from('x');\n",
      );
      const checker = new NativeTypeChecker({ compiler: compiler as string });
      expect(await checker.check([path.join(dir, "globals.ts")])).to.deep.equal([]);
    });

    it("hands a project whose tsconfig uses an option TypeScript 7 removed to the JavaScript compiler", async () => {
      await writeFile(
        path.join(dir, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: { strict: true, moduleResolution: "node", module: "commonjs", baseUrl: "." },
        }),
      );
      await writeFile(path.join(dir, "n.ts"), "export const n: number = 'x';\n");
      const handedOver: string[][] = [];
      const fallback = new TypeScriptChecker();
      const checker = new NativeTypeChecker({
        compiler: compiler as string,
        fallback: {
          checkReading: (files: readonly string[]): Promise<TypeCheckResult> => {
            handedOver.push([...files]);
            return fallback.checkReading(files);
          },
        },
      });
      expect(codes(await checker.check([path.join(dir, "n.ts")]))).to.deep.equal([2322]);
      expect(handedOver).to.deep.equal([[path.join(dir, "n.ts")]]);
    });

    it("keeps its last check: unchanged files answer without running the compiler, a changed file runs it", async () => {
      const file = path.join(dir, "wrong.ts");
      const keptIn = path.join(dir, "data", "automations-typecheck.json");
      const aWhileAgo = new Date(Date.now() - 60_000);
      await writeFile(file, WRONG);
      await utimes(file, aWhileAgo, aWhileAgo);
      const stand = await wrapper();
      await utimes(stand.file, aWhileAgo, aWhileAgo);
      // One run for the tsconfig's options, one for the check.
      expect(codes(await new NativeTypeChecker({ compiler: stand.file, keptIn }).check([file]))).to.deep.equal([2322]);
      expect(stand.runs()).to.equal(2);
      const kept = JSON.parse(await readFile(keptIn, "utf8")) as { read: { file: string }[] };
      expect(kept.read.map((entry) => entry.file)).to.include.members([
        stand.file,
        file,
        path.resolve("tsconfig.json"),
      ]);

      expect(codes(await new NativeTypeChecker({ compiler: stand.file, keptIn }).check([file]))).to.deep.equal([2322]);
      expect(stand.runs(), "nothing changed: no compiler").to.equal(2);

      await writeFile(file, RIGHT);
      await utimes(file, aWhileAgo, aWhileAgo);
      expect(await new NativeTypeChecker({ compiler: stand.file, keptIn }).check([file])).to.deep.equal([]);
      expect(stand.runs()).to.equal(4);
    });

    it("fails the check, not the engine (or hands it to the JavaScript compiler), when the compiler is missing, prints without end, or is closed", async () => {
      await writeFile(path.join(dir, "right.ts"), RIGHT);
      const files = [path.join(dir, "right.ts")];
      const missing = new NativeTypeChecker({ compiler: path.join(dir, "no-such-tsc") });
      await expectRejection(missing.check(files), /ENOENT/);
      // With the JavaScript compiler behind it, that one checks instead.
      await writeFile(path.join(dir, "wrong.ts"), WRONG);
      const backed = new NativeTypeChecker({
        compiler: path.join(dir, "no-such-tsc"),
        fallback: new TypeScriptChecker(),
      });
      expect(codes(await backed.check([path.join(dir, "wrong.ts")]))).to.deep.equal([2322]);

      const endless = await wrapper("head -c 40000000 /dev/zero | tr '\\0' 'x'");
      await expectRejection(new NativeTypeChecker({ compiler: endless.file }).check(files), /more than 32 MB/);

      const slow = await wrapper("exec sleep 30");
      const closing = new NativeTypeChecker({ compiler: slow.file });
      const check = closing.check(files);
      await waitFor(() => slow.runs() === 1, 10_000, "the compiler to start");
      await closing.close();
      await expectRejection(check, /stopped/);
      await expectRejection(closing.check(files), /closed/);
    });
  });
});

async function expectRejection(promise: Promise<unknown>, message: RegExp): Promise<void> {
  try {
    await promise;
  } catch (error) {
    expect((error as Error).message).to.match(message);
    return;
  }
  expect.fail(`expected a rejection matching ${message}`);
}
