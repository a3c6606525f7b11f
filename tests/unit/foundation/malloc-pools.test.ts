import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "chai";
import {
  type ProcessFacts,
  runsOnGlibc,
  SMALL_MALLOC_ARENA_MAX,
  smallMallocPoolsRestart,
} from "../../../src/composition/malloc-pools.js";

/** `hearth start` on Linux, glibc, Node 24, nothing set: the case that restarts. */
function facts(overrides: Partial<ProcessFacts> = {}): ProcessFacts {
  return {
    platform: "linux",
    env: { PATH: "/usr/bin", DATA_DIR: "/var/lib/hearth" },
    args: ["start"],
    execArgv: [],
    hasIpcChannel: false,
    canExecve: true,
    isGlibc: () => true,
    ...overrides,
  };
}

describe("capping the C library's malloc pools for `hearth start`", () => {
  it("restarts with MALLOC_ARENA_MAX=2 and the rest of the environment as it was", () => {
    const decision = smallMallocPoolsRestart(facts());
    expect(decision).to.deep.equal({
      restart: true,
      env: { PATH: "/usr/bin", DATA_DIR: "/var/lib/hearth", MALLOC_ARENA_MAX: SMALL_MALLOC_ARENA_MAX },
    });
    expect(SMALL_MALLOC_ARENA_MAX).to.equal("2");
  });

  it("leaves the owner's MALLOC_ARENA_MAX alone, whatever its value", () => {
    for (const value of ["8", "0", ""]) {
      const decision = smallMallocPoolsRestart(facts({ env: { MALLOC_ARENA_MAX: value } }));
      expect(decision).to.deep.equal({ restart: false, reason: "MALLOC_ARENA_MAX is set" });
    }
  });

  it("restarts only `hearth start`: the other commands end within seconds", () => {
    for (const args of [[], ["migrate"], ["check", "start"], ["--help"]]) {
      expect(smallMallocPoolsRestart(facts({ args }))).to.include({ restart: false, reason: "not `hearth start`" });
    }
  });

  it("stays as it is off Linux, without process.execve, with an IPC channel, or under a debugger", () => {
    expect(smallMallocPoolsRestart(facts({ platform: "darwin" }))).to.include({ reason: "not Linux" });
    expect(smallMallocPoolsRestart(facts({ canExecve: false }))).to.include({
      reason: "no process.execve on this Node",
    });
    expect(smallMallocPoolsRestart(facts({ hasIpcChannel: true }))).to.include({
      reason: "an IPC channel to the parent",
    });
    expect(smallMallocPoolsRestart(facts({ execArgv: ["--inspect-brk=9229"] }))).to.include({
      reason: "a debugger is attached",
    });
    expect(smallMallocPoolsRestart(facts({ env: { NODE_OPTIONS: "--max-old-space-size=512 --inspect" } }))).to.include({
      reason: "a debugger is attached",
    });
  });

  it("asks for the C library last, and stays as it is on musl", () => {
    let asked = 0;
    const isGlibc = () => {
      asked++;
      return false;
    };
    expect(smallMallocPoolsRestart(facts({ canExecve: false, isGlibc }))).to.include({ restart: false });
    expect(asked).to.equal(0);
    expect(smallMallocPoolsRestart(facts({ isGlibc }))).to.deep.equal({ restart: false, reason: "not glibc" });
    expect(asked).to.equal(1);
  });

  describe("in a process of its own, on this Node", function () {
    // One Node start-up through tsx per case, two when it restarts.
    this.timeout(30_000);
    const module = fileURLToPath(new URL("../../../src/composition/malloc-pools.ts", import.meta.url));
    let directory: string;
    let script: string;

    before(() => {
      directory = mkdtempSync(path.join(tmpdir(), "hearth-malloc-"));
      script = path.join(directory, "entry.mjs");
      // Prints once, after the restart if there is one: the process before it never gets here.
      writeFileSync(
        script,
        `const { restartWithSmallMallocPools } = await import(${JSON.stringify(module)});
restartWithSmallMallocPools();
console.log(JSON.stringify({ pid: process.pid, arenaMax: process.env.MALLOC_ARENA_MAX ?? null, args: process.argv.slice(2), tsx: process.execArgv.includes("tsx") }));
`,
      );
    });

    after(() => rmSync(directory, { recursive: true, force: true }));

    function run(args: string[], env: NodeJS.ProcessEnv = {}) {
      const { MALLOC_ARENA_MAX: _inherited, NODE_OPTIONS: _options, ...inherited } = process.env;
      const child = spawnSync(process.execPath, ["--import", "tsx", script, ...args], {
        encoding: "utf8",
        env: { ...inherited, ...env },
      });
      expect(child.status, child.stderr).to.equal(0);
      const lines = child.stdout.trim().split("\n");
      expect(lines, "one line: the process before a restart prints nothing").to.have.length(1);
      return {
        ...(JSON.parse(lines[0] as string) as { arenaMax: string | null; args: string[]; tsx: boolean }),
        child,
      };
    }

    const restarts =
      process.platform === "linux" && typeof (process as { execve?: unknown }).execve === "function" && runsOnGlibc();

    it(`${restarts ? "runs" : "does not run"} \`start\` again with the cap, its arguments and Node flags kept (Node ${process.version})`, () => {
      const outcome = run(["start", "--extra"]);
      expect(outcome.arenaMax).to.equal(restarts ? SMALL_MALLOC_ARENA_MAX : null);
      expect(outcome.args).to.deep.equal(["start", "--extra"]);
      expect(outcome.tsx, "the --import tsx of the first start").to.equal(true);
    });

    it("does not restart other commands or a process whose owner set the variable", () => {
      expect(run(["migrate"]).arenaMax).to.equal(null);
      expect(run(["start"], { MALLOC_ARENA_MAX: "4" }).arenaMax).to.equal("4");
    });
  });
});
