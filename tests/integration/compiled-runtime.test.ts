/**
 * The `hearth` command as a self-hoster installs it: `npm pack`, then a production install
 * (no dev dependencies, no TypeScript) into a scratch project, offline from the npm cache.
 * The command must run the compiled dist/ on plain Node, on PGlite and on PostgreSQL, and
 * load tsx only for an automation written in TypeScript.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, readdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect } from "chai";
import {
  assertCompiledRuntimeFresh,
  type LaunchedProcess,
  launch,
  useProcessServers,
} from "../support/hearth-processes.js";
import { freePort, waitFor } from "../support/network.js";

const REPO = path.resolve(".");

interface LockEntry {
  dev?: boolean;
  [key: string]: unknown;
}

interface Lockfile {
  packages: Record<string, LockEntry>;
}

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${result.status}:\n${output}`);
  return output;
}

/**
 * The lockfile `npm install <tarball>` would write, derived from this checkout's: npm can then
 * install offline, from the tarballs `npm ci` already put in the cache, where resolving
 * version ranges would need the registry's package documents.
 */
function consumerLockfile(tarballName: string, tarball: Buffer): object {
  const lock = JSON.parse(readFileSync(path.join(REPO, "package-lock.json"), "utf8")) as Lockfile;
  const root = lock.packages[""] as LockEntry;
  const packages: Record<string, unknown> = {
    "": { name: "my-home", dependencies: { hearth: `file:../${tarballName}` } },
    "node_modules/hearth": {
      version: root.version,
      resolved: `file:../${tarballName}`,
      integrity: `sha512-${createHash("sha512").update(tarball).digest("base64")}`,
      license: root.license,
      dependencies: root.dependencies,
      bin: root.bin,
      engines: root.engines,
    },
  };
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (key !== "" && !entry.dev) packages[key] = entry;
  }
  return { name: "my-home", lockfileVersion: 3, requires: true, packages };
}

const JS_AUTOMATION = `import { Automation } from "hearth";
export default class Porch extends Automation {
  name = "porch";
  triggers = [{ type: "webhook", path: "porch" }];
  async execute() {
    this.state.set("porch", "lit");
  }
}
`;

const TS_AUTOMATION = `import { Automation, type Trigger, type TriggerContext } from "hearth";
// An enum and a parameter property: TypeScript that type stripping cannot erase, so tsx is needed.
enum Mood { Calm = "calm" }
export default class MoodSetter extends Automation {
  readonly name = "mood";
  readonly triggers: Trigger[] = [{ type: "webhook", path: "mood" }];
  constructor(private readonly mood: Mood = Mood.Calm) {
    super();
  }
  async execute(_context: TriggerContext): Promise<void> {
    this.state.set("mood", this.mood);
  }
}
`;

describe("the compiled runtime from a packed tarball (integration)", function () {
  this.timeout(300_000);
  const servers = useProcessServers("compiled runtime");
  let project: string;
  let hearthBin: string;

  before(async () => {
    assertCompiledRuntimeFresh();
    // dist/ is checked fresh above; packing it as is spares a second build in prepare.
    run("npm", ["pack", "--ignore-scripts", "--pack-destination", servers.scratch], REPO);
    const tarballName = (await readdir(servers.scratch)).find((file) => file.endsWith(".tgz"));
    expect(tarballName, "npm pack wrote a tarball").to.be.a("string");
    const tarball = readFileSync(path.join(servers.scratch, tarballName as string));
    project = path.join(servers.scratch, "my-home");
    await mkdir(path.join(project, "automations"), { recursive: true });
    await writeFile(
      path.join(project, "package.json"),
      JSON.stringify({
        name: "my-home",
        private: true,
        type: "module",
        dependencies: { hearth: `file:../${tarballName}` },
      }),
    );
    await writeFile(
      path.join(project, "package-lock.json"),
      JSON.stringify(consumerLockfile(tarballName as string, tarball)),
    );
    run("npm", ["ci", "--omit=dev", "--offline", "--no-audit", "--no-fund"], project);
    hearthBin = path.join(project, "node_modules", "hearth", "bin", "hearth.js");
    const installed = await readdir(path.join(project, "node_modules"));
    // typescript is a production dependency (hearth check), loaded only when a check runs.
    expect(installed).to.include("hearth").and.not.to.include("mocha").and.not.to.include("chai");
  });

  async function environment(name: string, database: "pglite" | "postgres") {
    const apiPort = await freePort();
    const httpPort = await freePort();
    const env: Record<string, string> = {
      DATA_DIR: path.join(project, name),
      AUTOMATIONS_DIR: path.join(project, "automations"),
      API_PORT: String(apiPort),
      HTTP_PORT: String(httpPort),
      HTTP_AUTH: "false",
      ...servers.env(),
    };
    if (database === "pglite") delete env.DATABASE_URL;
    return { env, apiPort, httpPort };
  }

  /** Starts `hearth start` in the project, waits for both surfaces, fires `webhook`, and stops it. */
  async function startAndCheck(name: string, database: "pglite" | "postgres", webhook: string, stateKey: string) {
    const { env, apiPort, httpPort } = await environment(name, database);
    const process_: LaunchedProcess = launch(process.execPath, [hearthBin, "start"], env, project);
    try {
      await waitFor(
        "both surfaces",
        async () =>
          (await fetch(`http://127.0.0.1:${apiPort}/api/v1/health`)
            .then((r) => r.ok)
            .catch(() => false)) &&
          (await fetch(`http://127.0.0.1:${httpPort}/readyz`)
            .then((r) => r.ok)
            .catch(() => false)),
        120_000,
      );
      const fired = await fetch(`http://127.0.0.1:${httpPort}/webhook/${webhook}`, { method: "POST" });
      expect(fired.status, process_.output()).to.equal(200);
      await waitFor(`state ${stateKey}`, async () => {
        const state = await fetch(`http://127.0.0.1:${httpPort}/api/state/${stateKey}`);
        return state.ok && ((await state.json()) as { exists: boolean }).exists;
      });
    } catch (error) {
      process_.child.kill("SIGKILL");
      throw new Error(`${(error as Error).message}\n${process_.output()}`);
    }
    process_.child.kill("SIGTERM");
    expect(await process_.exited, process_.output()).to.equal(0);
    // One process: once it exited nothing answers (no child left running the server).
    expect(
      await fetch(`http://127.0.0.1:${apiPort}/api/v1/health`).then(
        () => true,
        () => false,
      ),
    ).to.equal(false);
    return process_.output();
  }

  it("runs on PGlite without tsx installed, then loads tsx only for a TypeScript automation", async () => {
    await writeFile(path.join(project, "automations", "porch.js"), JS_AUTOMATION);
    const tsx = path.join(project, "node_modules", "tsx");
    await rename(tsx, `${tsx}.hidden`);
    try {
      const { env } = await environment("pglite", "pglite");
      const migrate = launch(process.execPath, [hearthBin, "migrate"], env, project);
      expect(await migrate.exited, migrate.output()).to.equal(0);
      const output = await startAndCheck("pglite", "pglite", "porch", "porch");
      expect(output).to.include("Database ready (PGlite");
    } finally {
      await rename(`${tsx}.hidden`, tsx);
    }
    await writeFile(path.join(project, "automations", "mood.ts"), TS_AUTOMATION);
    await startAndCheck("pglite", "pglite", "mood", "mood");
  });

  it("runs on PostgreSQL", async function () {
    if (servers.database.kind !== "postgres") {
      console.log("      SKIPPED: no PostgreSQL (set TEST_DATABASE_URL or run a Docker engine)");
      this.skip();
    }
    const output = await startAndCheck("postgres", "postgres", "mood", "mood");
    expect(output).to.include("Database ready (PostgreSQL)");
  });
});
