import path from "node:path";
import { expect } from "chai";
import { launch, useProcessServers } from "../support/hearth-processes.js";
import { freePort, getJson, waitFor } from "../support/network.js";

const MAIN = path.resolve("src/composition/main.ts");
const FIXTURES = path.resolve("tests/integration/fixtures/timer-exceptions");

describe("uncaught exceptions of automations' raw timers (hearth start)", function () {
  this.timeout(90_000);
  const servers = useProcessServers("automation timer exceptions");

  function start(automations: string, apiPort: number, httpPort: number) {
    return launch(process.execPath, ["--conditions=hearth-source", "--import", "tsx", MAIN, "start"], {
      ...servers.env(),
      DATA_DIR: path.join(servers.scratch, `data-${automations}`),
      AUTOMATIONS_DIR: path.join(FIXTURES, automations),
      AUTOMATIONS_WATCH: "false",
      AUTOMATIONS_TYPECHECK: "false",
      STATE_FILE_PATH: path.join(servers.scratch, `${automations}-state.json`),
      DEVICE_REGISTRY_ENABLED: "false",
      HOT_STANDBY: "false",
      HTTP_AUTH: "false",
      API_PORT: String(apiPort),
      HTTP_PORT: String(httpPort),
      LOG_LEVEL: "info",
    });
  }

  it("logs a throwing setTimeout or setImmediate callback under its automation, counts it, and keeps serving", async () => {
    const apiPort = await freePort();
    const httpPort = await freePort();
    const hearth = start("owned", apiPort, httpPort);
    let exitCode: number | null | undefined;
    void hearth.exited.then((code) => {
      exitCode = code;
    });
    try {
      const stats = async () =>
        (await getJson(`http://127.0.0.1:${httpPort}/api/automations/timer-thrower`).catch(() => ({ body: null })))
          .body as { stats?: { errors: number; lastError: string | null } } | null;
      await waitFor(
        "both timer errors counted",
        async () => {
          if (exitCode !== undefined) throw new Error(`hearth exited (${exitCode})\n${hearth.output()}`);
          return (await stats())?.stats?.errors === 2;
        },
        60_000,
      );
      expect((await stats())?.stats?.lastError).to.match(/^set(Timeout|Immediate) callback failed$/);
      const output = hearth.output();
      expect(output).to.contain("Uncaught exception in a timer callback of the automation");
      expect(output).to.contain("setTimeout callback failed").and.to.contain("setImmediate callback failed");
      expect((await getJson(`http://127.0.0.1:${apiPort}/api/v1/health`)).status).to.equal(200);
      expect(exitCode).to.equal(undefined);
    } finally {
      hearth.child.kill("SIGTERM");
      await hearth.exited;
    }
  });

  it("ends the process (exit 1, the error on stderr) when the function the timer called is not the automation's", async () => {
    const hearth = start("unowned", await freePort(), await freePort());
    const code = await hearth.exited;
    expect(code, hearth.output()).to.equal(1);
    expect(hearth.output()).to.contain("Uncaught exception that no automation owns").and.to.contain("SyntaxError");
  });
});
