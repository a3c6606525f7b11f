import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect } from "chai";
import { launch, useProcessServers } from "../support/hearth-processes.js";
import { freePort, getJson, waitFor } from "../support/network.js";

/**
 * Automations in a folder of their own, as a self-hoster keeps them (/srv/hearth/automations, a
 * container volume): no package.json above them and no node_modules, so "hearth" is not a
 * package Node can find from there, and Node takes the files for CommonJS.
 */
const FILES: Record<string, string> = {
  "typed.ts": `import { Automation, type Trigger, type TriggerContext } from "hearth";
import { greeting } from "./lib/greeting.ts";

export default class Typed extends Automation {
  readonly name = "typed";
  readonly triggers: Trigger[] = [{ type: "mqtt", topic: "outside/typed" }];

  override async onStart(): Promise<void> {
    this.state.set("outside.greeting", greeting("outside"));
  }

  async execute(_context: TriggerContext): Promise<void> {}
}
`,
  "lib/greeting.ts": `export function greeting(name: string): string {
  return \`hello \${name}\`;
}
`,
  "plain.js": `import { Automation } from "hearth";

export default class Plain extends Automation {
  name = "plain";
  triggers = [{ type: "cron", expression: "0 3 * * *" }];
  async execute() {}
}
`,
};

describe("automations in a folder outside any project (hearth start, compiled)", function () {
  this.timeout(90_000);
  const servers = useProcessServers("automations outside the checkout");

  it("load from .ts and .js files that import hearth by name and their own helpers", async () => {
    const dir = path.join(servers.scratch, "automations");
    for (const [file, text] of Object.entries(FILES)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), text);
    }
    const httpPort = await freePort();
    const hearth = launch(process.execPath, ["bin/hearth.js", "start"], {
      ...servers.env(),
      DATA_DIR: path.join(servers.scratch, "data"),
      AUTOMATIONS_DIR: dir,
      AUTOMATIONS_TYPECHECK: "false",
      DEVICE_REGISTRY_ENABLED: "false",
      HOT_STANDBY: "false",
      HTTP_AUTH: "false",
      API_PORT: String(await freePort()),
      HTTP_PORT: String(httpPort),
    });
    try {
      type Listed = { automations?: { name: string; status: string; error?: string }[] };
      const listed = async () =>
        ((await getJson(`http://127.0.0.1:${httpPort}/api/automations`).catch(() => ({ body: {} }))).body as Listed)
          .automations ?? [];
      await waitFor("the automations listed", async () => (await listed()).length === 2, 60_000);
      const automations = (await listed()).map(({ name, status, error }) => ({ name, status, error }));
      expect(automations, hearth.output()).to.deep.equal([
        { name: "plain", status: "running", error: undefined },
        { name: "typed", status: "running", error: undefined },
      ]);
      const greeting = await getJson(`http://127.0.0.1:${httpPort}/api/state/outside.greeting`);
      expect(greeting.body).to.deep.include({ value: "hello outside" });
    } finally {
      hearth.child.kill("SIGTERM");
      await hearth.exited;
    }
  });
});
