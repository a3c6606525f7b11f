/**
 * Hearth as a dependency of someone else's project: `import { Automation, createEngine,
 * type Trigger } from "hearth"` must work on plain Node with typings, which means the
 * package's default export condition (./dist) has to be built and complete. This suite
 * builds the library exactly as npm's `prepare` hook does, lays it out the way
 * `npm install` would (a package directory with its dependencies beside it) and drives a
 * scratch consumer project outside the checkout against it.
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { builtinModules, createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import { acquireBroker, type TestBroker, uniqueTopicPrefix } from "../support/test-servers.js";

const REPO = path.resolve(".");
const manifest = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as {
  exports: { ".": Record<string, string>; "./testing": Record<string, string> };
  types: string;
  files: string[];
  dependencies: Record<string, string>;
};

/** `express` → `express`, `@types/express/index` → `@types/express`, `node:fs` → null. */
function packageName(specifier: string): string | null {
  if (specifier.startsWith("node:") || builtinModules.includes(specifier.split("/")[0] as string)) return null;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? `${parts[0]}/${parts[1]}` : (parts[0] as string);
}

/** Bare module specifiers in `file` (static, re-export, type-only and dynamic imports). */
function bareImports(file: string): { bare: string[]; relative: string[] } {
  const text = readFileSync(file, "utf8");
  const found = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm)].map(
    (m) => m[1] as string,
  );
  return {
    bare: found.filter((specifier) => !specifier.startsWith(".")),
    relative: found.filter((specifier) => specifier.startsWith(".")),
  };
}

/** Every bare specifier reachable from `entry` through relative imports. */
function reachableBareImports(
  entry: string,
  resolveRelative: (from: string, specifier: string) => string,
): Set<string> {
  const seen = new Set<string>();
  const bare = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const imports = bareImports(file);
    for (const specifier of imports.bare) bare.add(specifier);
    for (const specifier of imports.relative) queue.push(resolveRelative(file, specifier));
  }
  return bare;
}

function run(command: string, args: string[], cwd: string): { status: number | null; output: string } {
  const result = spawnSync(command, args, { cwd, encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("hearth as a library in another project", function () {
  this.timeout(180_000);
  let broker: TestBroker;
  let scratch: string;
  let packageDir: string;
  let consumerDir: string;

  before(async () => {
    broker = await acquireBroker("library-package");
    scratch = await mkdtemp(path.join(tmpdir(), "hearth-library-"));
    // What `npm install` leaves: node_modules/hearth holding the packed files, its
    // dependencies resolvable from there.
    packageDir = path.join(scratch, "hearth");
    await mkdir(packageDir);
    const build = run(
      process.execPath,
      [path.join(REPO, "scripts/build.mjs"), "--out-dir", path.join(packageDir, "dist")],
      REPO,
    );
    expect(build.status, build.output).to.equal(0);
    cpSync(path.join(REPO, "package.json"), path.join(packageDir, "package.json"));
    await symlink(path.join(REPO, "node_modules"), path.join(packageDir, "node_modules"), "dir");

    consumerDir = path.join(scratch, "my-home");
    await mkdir(path.join(consumerDir, "automations"), { recursive: true });
    await mkdir(path.join(consumerDir, "node_modules", "@types"), { recursive: true });
    await symlink(packageDir, path.join(consumerDir, "node_modules", "hearth"), "dir");
    await symlink(
      path.join(REPO, "node_modules", "@types", "node"),
      path.join(consumerDir, "node_modules", "@types", "node"),
      "dir",
    );
    await writeFile(
      path.join(consumerDir, "package.json"),
      JSON.stringify({ name: "my-home", private: true, type: "module" }),
    );
  });

  after(async () => {
    await rm(scratch, { recursive: true, force: true });
    await broker.release();
  });

  it("ships the built entry points that package.json names, and the web UI assets", () => {
    expect(manifest.files).to.include("dist");
    for (const target of [
      manifest.exports["."]?.default,
      manifest.exports["."]?.types,
      manifest.types,
      manifest.exports["./testing"]?.default,
      manifest.exports["./testing"]?.types,
    ]) {
      expect(target, "package.json export target").to.match(/^\.\/dist\//);
      expect(existsSync(path.join(packageDir, target as string)), `${target} is built`).to.equal(true);
    }
    const assets = readdirSync(path.join(REPO, "src/adapters/http/engine/web-ui/assets"));
    expect(assets).to.not.be.empty;
    for (const asset of assets) {
      expect(existsSync(path.join(packageDir, "dist/adapters/http/engine/web-ui/assets", asset)), asset).to.equal(true);
    }
  });

  it("declares every package its built code and typings import as a dependency, not a devDependency", () => {
    const dist = path.join(packageDir, "dist");
    const runtime = new Set(
      ["index.js", "testing.js"].flatMap((entry) => [
        ...reachableBareImports(path.join(dist, entry), (from, specifier) =>
          path.resolve(path.dirname(from), specifier),
        ),
      ]),
    );
    const typings = new Set(
      ["index.d.ts", "testing.d.ts"].flatMap((entry) => [
        ...reachableBareImports(path.join(dist, entry), (from, specifier) =>
          path.resolve(path.dirname(from), specifier.replace(/\.js$/, ".d.ts")),
        ),
      ]),
    );
    const missing: string[] = [];
    for (const name of [...runtime].map(packageName)) {
      if (name && name !== "hearth" && !(name in manifest.dependencies)) missing.push(`${name} (imported at run time)`);
    }
    const requireFromPackage = createRequire(path.join(packageDir, "package.json"));
    for (const name of [...typings].map(packageName)) {
      if (!name || name === "hearth" || name.startsWith("@types/")) continue;
      // A package without its own typings needs its @types package installed with Hearth.
      const own = JSON.parse(readFileSync(manifestOf(requireFromPackage, name), "utf8")) as {
        types?: string;
        typings?: string;
        exports?: unknown;
      };
      const bundlesTypes = Boolean(own.types ?? own.typings) || JSON.stringify(own.exports ?? {}).includes('"types"');
      const needed = bundlesTypes ? name : `@types/${name.replace(/^@/, "").replace("/", "__")}`;
      if (!(needed in manifest.dependencies)) missing.push(`${needed} (named by the typings)`);
    }
    expect(missing).to.deep.equal([]);
  });

  it("type-checks a strict consumer project against the shipped typings (no skipLibCheck)", async () => {
    await writeFile(
      path.join(consumerDir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ["node"],
        },
        include: ["typed/**/*.ts"],
      }),
    );
    await mkdir(path.join(consumerDir, "typed"), { recursive: true });
    await writeFile(
      path.join(consumerDir, "typed", "porch-light.ts"),
      `import { Automation, createEngine, type Engine, type Trigger, type TriggerContext } from "hearth";
import { createTestEngine, type TestEngine } from "hearth/testing";

export default class PorchLight extends Automation {
  readonly name = "porch-light";
  readonly triggers: Trigger[] = [{ type: "mqtt", topic: "zigbee2mqtt/porch_motion", filter: (payload) => payload.occupancy === true }];

  async execute(context: TriggerContext): Promise<void> {
    if (context.type !== "mqtt") return;
    const topic: string = context.topic;
    this.mqtt.publishToDevice("porch_light", { state: "ON", topic }, { qos: 1 });
    await this.notify({ title: "Porch", message: "motion", tags: ["porch"] });
  }
}

// The typings are real, not \`any\`: these lines must not compile.
// @ts-expect-error "teleport" is not a trigger type
const wrong: Trigger = { type: "teleport", topic: "a" };
// @ts-expect-error a cron trigger needs an expression
const incomplete: Trigger = { type: "cron" };
// Service factories get their parameters typed from the key they are registered under.
export const engine: Engine = createEngine({
  automationsDir: "./automations",
  recursive: false,
  handleSignals: true,
  services: {
    notifications: (http, logger) => ({ send: async (options) => logger.info(options.message, { via: typeof http.post }) }),
    relays: ({ http, mqtt, logger }) => ({ toggle: (name: string) => mqtt.publishToDevice(name, { state: "TOGGLE" }), http, logger }),
    homekit: ({ deviceRegistry, relayService, logger }) => ({ devices: deviceRegistry?.getDevices() ?? [], relayService, logger }),
    greenhouse: (http, logger) => ({ humidity: () => http.get("http://greenhouse.local/h").then((r) => r.status), logger }),
  },
});
void [wrong, incomplete, engine.deviceRegistry?.getDevices(), engine.services.has("weather")];

// The test kit's typings: "hearth/testing".
export async function kit(): Promise<string> {
  const t: TestEngine = await createTestEngine({ automations: [PorchLight], now: "2026-01-01T20:00:00Z" });
  await t.publish("zigbee2mqtt/porch_motion", { occupancy: true });
  await t.advance("15m");
  // @ts-expect-error advance takes a duration, not a Date
  await t.advance(new Date());
  return t.expectPublished("zigbee2mqtt/porch_light/set", { state: "ON" }).topic;
}
`,
    );
    const compiler = createRequire(path.join(REPO, "package.json")).resolve("typescript/bin/tsc");
    const checked = run(process.execPath, [compiler, "-p", consumerDir], consumerDir);
    expect(checked.status, checked.output).to.equal(0);
  });

  it("runs the test kit on plain Node: hearth/testing with a fake bus and clock", async () => {
    await writeFile(
      path.join(consumerDir, "kit.mjs"),
      `import { Automation } from "hearth";
import { createTestEngine } from "hearth/testing";

class Blink extends Automation {
  name = "blink";
  triggers = [{ type: "cron", expression: "*/5 * * * *" }];
  execute(context) {
    this.mqtt.publish("home/blink", { at: context.firedAt.toISOString() });
  }
}
const t = await createTestEngine({ automations: [Blink], now: "2026-01-01T00:00:00Z" });
await t.advance("15m");
console.log("published " + JSON.stringify(t.publishedTo("home/blink").map((message) => message.payload.at)));
await t.stop();
`,
    );
    const result = run(process.execPath, ["kit.mjs"], consumerDir);
    expect(result.status, result.output).to.equal(0);
    expect(result.output).to.include(
      'published ["2026-01-01T00:05:00.000Z","2026-01-01T00:10:00.000Z","2026-01-01T00:15:00.000Z"]',
    );
  });

  it("runs on plain Node: loads the project's TypeScript automations, fires them, and stops on SIGTERM", async () => {
    const prefix = uniqueTopicPrefix("library");
    // Each file records which copy of "hearth" it got: all must share the engine's one.
    const recordCopy = `(globalThis as { hearthCopies?: unknown[] }).hearthCopies?.push(Automation);`;
    await writeFile(
      path.join(consumerDir, "automations", "ping.ts"),
      `import { Automation, type Trigger } from "hearth";
${recordCopy}
export default class Ping extends Automation {
  readonly name = "ping";
  readonly triggers: Trigger[] = [{ type: "cron", expression: "0 0 1 1 *" }];
  async execute(): Promise<void> {}
}
`,
    );
    await writeFile(
      path.join(consumerDir, "automations", "echo.ts"),
      `import { Automation, type Trigger, type TriggerContext } from "hearth";
${recordCopy}
export default class Echo extends Automation {
  readonly name = "echo";
  readonly triggers: Trigger[] = [{ type: "state", key: "ping" }];

  async execute(context: TriggerContext): Promise<void> {
    if (context.type === "state") this.state.set("pong", context.newValue);
  }

  override async onStop(): Promise<void> {
    console.log("automation onStop");
  }
}
`,
    );
    await writeFile(
      path.join(consumerDir, "main.mjs"),
      `import { Automation, createEngine } from "hearth";

globalThis.hearthCopies = [];
const engine = createEngine({ automationsDir: "./automations" });
await engine.start();
engine.state.set("ping", 42);
console.log("ready " + JSON.stringify({
  automations: engine.manager.listAutomations().map(({ name, status, error }) => ({ name, status, error })),
  pong: engine.state.get("pong"),
  filesSharingTheEngineCopy: globalThis.hearthCopies.filter((copy) => copy === Automation).length,
}));
`,
    );
    const child = spawn(process.execPath, ["main.mjs"], {
      cwd: consumerDir,
      // Plain Node: no tsx loader and no hearth-source condition from this test runner.
      env: {
        PATH: process.env.PATH,
        MQTT_HOST: broker.host,
        MQTT_PORT: String(broker.port),
        ZIGBEE2MQTT_PREFIX: prefix,
        HTTP_PORT: "0",
        DEVICE_REGISTRY_ENABLED: "false",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const deadline = Date.now() + 60_000;
    while (!output.includes("ready ") && child.exitCode === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const readyLine = output.split("\n").find((line) => line.startsWith("ready "));
    expect(readyLine, output).to.be.a("string");
    expect(JSON.parse((readyLine as string).slice("ready ".length))).to.deep.equal({
      automations: [
        { name: "echo", status: "running" },
        { name: "ping", status: "running" },
      ],
      pong: 42,
      filesSharingTheEngineCopy: 2,
    });

    child.kill("SIGTERM");
    expect(await exited, output).to.equal(0);
    expect(output).to.include("automation onStop");
  });
});

/**
 * The package.json of an installed package. Some packages (reflect-metadata) do not export
 * their package.json; then it is the nearest one above the package's entry point.
 */
function manifestOf(requireFrom: NodeRequire, name: string): string {
  try {
    return requireFrom.resolve(`${name}/package.json`);
  } catch {
    let dir = path.dirname(requireFrom.resolve(name));
    while (!existsSync(path.join(dir, "package.json")) || path.basename(dir) !== name.split("/").at(-1)) {
      const parent = path.dirname(dir);
      if (parent === dir) throw new Error(`No package.json found for ${name}`);
      dir = parent;
    }
    return path.join(dir, "package.json");
  }
}
