import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { expect } from "chai";
import { freePort, waitFor } from "../../support/network.js";
import { startTestHearth, type TestHearth } from "../../support/test-hearth.js";
import { assertCompiledRuntimeFresh, launch, useProcessServers } from "../../support/hearth-processes.js";

const root = path.resolve(".");

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return true;
  } catch {
    return false;
  }
}

describe("Hearth as a service (integration, real processes and signals)", function () {
  this.timeout(90_000);
  const servers = useProcessServers("hearth service");

  async function serviceEnv(name: string) {
    const apiPort = await freePort();
    const httpPort = await freePort();
    const dataDir = path.join(servers.scratch, name);
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      AUTOMATIONS_DIR: path.join(servers.scratch, "no-automations"),
      API_PORT: String(apiPort),
      HTTP_PORT: String(httpPort),
      LOG_LEVEL: "info",
      ...servers.env(),
      // The state file is what this test reads; hot standby would keep the state in PostgreSQL.
      HOT_STANDBY: "false",
    };
    return { env, apiPort, httpPort, dataDir };
  }

  /** Starts a command, protects and persists by default, then stops it with `signal`. */
  async function runAndStop(
    name: string,
    command: string,
    args: string[],
    signal: NodeJS.Signals,
    extraEnv: Record<string, string> = {},
  ) {
    const { env, apiPort, httpPort, dataDir } = await serviceEnv(name);
    const run = launch(command, args, { ...env, ...extraEnv });
    try {
      await waitFor(
        "both surfaces",
        async () =>
          (await answers(`http://127.0.0.1:${httpPort}/readyz`)) &&
          (await answers(`http://127.0.0.1:${apiPort}/api/v1/health`)),
        60_000,
      );
      await waitFor(
        "readiness",
        async () => (await fetch(`http://127.0.0.1:${httpPort}/readyz`)).status === 200,
        30_000,
      );
    } catch (error) {
      run.child.kill("SIGKILL");
      throw new Error(`${(error as Error).message}\n${run.output()}`);
    }
    const tokenFile = path.join(dataDir, "http-token");
    const token = (await readFile(tokenFile, "utf8")).trim();
    expect(run.output()).to.include(tokenFile).and.not.to.include(token);
    expect(run.output())
      .to.include(`Household web app: http://localhost:${apiPort}/`)
      .and.to.include(`http://localhost:${apiPort}/api/docs`)
      .and.to.include(`http://localhost:${httpPort}/status`);
    const put = await fetch(`http://127.0.0.1:${httpPort}/api/state/away`, {
      method: "PUT",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ value: true }),
    });
    expect(put.status).to.equal(200);
    // Acknowledged once kept: on disk before the process is told to stop.
    const kept = JSON.parse(await readFile(path.join(dataDir, "state.json"), "utf8")) as Record<string, unknown>;
    expect(kept.away).to.equal(true);
    run.child.kill(signal);
    const code = await run.exited;
    expect(code, run.output()).to.equal(0);
    // Nothing keeps serving once the command the service manager signalled has exited.
    expect(await answers(`http://127.0.0.1:${apiPort}/api/v1/health`)).to.equal(false);
    expect(await answers(`http://127.0.0.1:${httpPort}/healthz`)).to.equal(false);
    const saved = JSON.parse(await readFile(path.join(dataDir, "state.json"), "utf8")) as Record<string, unknown>;
    expect(JSON.stringify(saved)).to.include('"away"');
    return run;
  }

  it("npm start stops everything on SIGTERM, saves state in DATA_DIR and exits 0", async () => {
    await runAndStop("npm-start", "npm", ["start", "--silent"], "SIGTERM");
  });

  it("a start loads neither the image library (sharp) nor web-push: a photo or a notification loads them when it comes", async () => {
    assertCompiledRuntimeFresh();
    const loaded = path.join(servers.scratch, "loaded-packages.json");
    const probe = path.join(root, "tests/support/loaded-packages-probe.mjs");
    await runAndStop("lazy", process.execPath, ["--import", probe, "bin/hearth.js", "start"], "SIGTERM", {
      LOADED_PACKAGES_FILE: loaded,
    });
    const packages = JSON.parse(await readFile(loaded, "utf8")) as string[];
    // The probe sees what a start loads: the HTTP server and the database client are there.
    expect(packages).to.include.members(["express", "knex"]);
    expect(packages).not.to.include.members(["sharp"]);
    expect(packages).not.to.include.members(["web-push"]);
  });

  it("the hearth entry point stops everything on SIGINT and on SIGTERM and exits 0", async () => {
    await runAndStop("bin-int", process.execPath, ["bin/hearth.js", "start"], "SIGINT");
    await runAndStop("bin-term", process.execPath, ["bin/hearth.js", "start"], "SIGTERM");
  });

  it("hearth --version, --help and an unknown command", async () => {
    const pkg = JSON.parse(await readFile(path.join(root, "package.json"), "utf8")) as { version: string };
    const version = launch(process.execPath, ["bin/hearth.js", "--version"], {});
    expect(await version.exited).to.equal(0);
    expect(version.output().trim()).to.equal(pkg.version);
    const help = launch(process.execPath, ["bin/hearth.js", "--help"], {});
    expect(await help.exited).to.equal(0);
    expect(help.output()).to.include("start").and.to.include("migrate");
    const unknown = launch(process.execPath, ["bin/hearth.js", "serve"], {});
    expect(await unknown.exited).to.equal(2);
    expect(unknown.output()).to.include('unknown command "serve"');
  });

  it("hearth migrate applies the migrations and exits 0", async () => {
    const { env } = await serviceEnv("migrate");
    const run = launch(process.execPath, ["bin/hearth.js", "migrate"], env);
    expect(await run.exited, run.output()).to.equal(0);
  });

  describe("secure by default on a home network", () => {
    let hearth: TestHearth;
    let base: string;
    let token: string;

    before(async () => {
      // No HTTP_TOKEN and the default HTTP_AUTH: what a plain `npm start` gets.
      hearth = await startTestHearth("secure default", { HTTP_AUTH: undefined, WEB_UI_ENABLED: "true" });
      base = `http://127.0.0.1:${hearth.hearth.httpPort}`;
      const tokenFile = path.join(hearth.hearth.config.DATA_DIR, "http-token");
      token = (await readFile(tokenFile, "utf8")).trim();
      expect((await stat(tokenFile)).mode & 0o777).to.equal(0o600);
    });
    after(async () => {
      await hearth?.release();
    });

    it("refuses state changes, manual triggers and log reads without the token", async () => {
      const put = await fetch(`${base}/api/state/away`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ value: true }),
      });
      expect(put.status).to.equal(401);
      expect((await fetch(`${base}/api/automations/any/trigger`, { method: "POST" })).status).to.equal(401);
      expect((await fetch(`${base}/api/logs`)).status).to.equal(401);
      expect(hearth.hearth.engine.state.has("away")).to.equal(false);
    });

    it("accepts the generated token as a bearer token and at /status/login", async () => {
      const status = await fetch(`${base}/api/status`, { headers: { authorization: `Bearer ${token}` } });
      expect(status.status).to.equal(200);
      const login = await fetch(`${base}/status/login`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token }).toString(),
        redirect: "manual",
      });
      expect(login.status).to.equal(303);
      expect(login.headers.get("set-cookie")).to.match(/hearth_session|session/);
    });

    it("keeps the probes open; GET / leads to the web UI, and is the household web app on the API port", async () => {
      expect((await fetch(`${base}/healthz`)).status).to.equal(200);
      expect((await fetch(`${base}/readyz`)).status).to.equal(200);
      const engineRoot = await fetch(`${base}/`, { redirect: "manual" });
      expect(engineRoot.status).to.equal(302);
      expect(engineRoot.headers.get("location")).to.equal("/status");
      // npm install/ci builds the app into web/dist (the prepare script).
      const apiRoot = await fetch(`http://127.0.0.1:${hearth.hearth.apiPort}/`, { redirect: "manual" });
      expect(apiRoot.status).to.equal(200);
      expect(apiRoot.headers.get("content-type")).to.match(/text\/html/);
      expect(await apiRoot.text()).to.include('<link rel="manifest" href="/manifest.webmanifest">');
    });

    it("HTTP_AUTH=false serves the engine API without a token, as asked", async () => {
      const open = await startTestHearth("auth off", { HTTP_AUTH: "false" });
      try {
        const response = await fetch(`http://127.0.0.1:${open.hearth.httpPort}/api/status`);
        expect(response.status).to.equal(200);
      } finally {
        await open.release();
      }
    });
  });
});
