import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import { expect } from "chai";
import { type RunningHearth, startHearth } from "../../../src/composition/hearth.js";
import { freePort, getJson, waitFor } from "../../support/network.js";
import { OwnBroker } from "../../support/own-broker.js";
import { launch, useProcessServers } from "../../support/hearth-processes.js";

const quiet = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

describe("Hearth process (integration)", function () {
  this.timeout(60_000);
  const servers = useProcessServers("hearth process");

  function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
    return {
      DATA_DIR: path.join(servers.scratch, `data-${Math.random().toString(36).slice(2)}`),
      AUTOMATIONS_DIR: path.join(servers.scratch, "no-automations"),
      STATE_FILE_PATH: path.join(servers.scratch, "state.json"),
      DEVICE_REGISTRY_FILE_PATH: path.join(servers.scratch, "devices.json"),
      LOG_LEVEL: "warn",
      HTTP_AUTH: "false",
      ...(servers.database.url ? { DATABASE_URL: servers.database.url } : {}),
      ...extra,
    };
  }

  describe("booted in process against the shared servers", () => {
    let hearth: RunningHearth;

    before(async () => {
      hearth = await startHearth({
        env: baseEnv({ MQTT_HOST: servers.broker.host, MQTT_PORT: String(servers.broker.port) }),
        apiPort: 0,
        httpPort: 0,
        logStream: quiet(),
      });
    });

    after(async () => {
      await hearth?.stop();
    });

    it("answers GET /api/v1/health with the database check", async () => {
      const { status, body } = await getJson(`http://127.0.0.1:${hearth.apiPort}/api/v1/health`);
      expect(status).to.equal(200);
      expect(body).to.deep.equal({ status: "ok", checks: { database: "up" } });
    });

    it("answers /healthz and becomes ready once MQTT is connected", async () => {
      const base = `http://127.0.0.1:${hearth.httpPort}`;
      expect(await getJson(`${base}/healthz`)).to.deep.include({ status: 200, body: { status: "ok" } });
      await waitFor("/readyz 200", async () => (await getJson(`${base}/readyz`)).status === 200);
      const { body } = await getJson(`${base}/readyz`);
      expect(body).to.deep.include({ status: "ready", checks: { mqtt: true, engine: true } });
      expect((body as { startedAt: string }).startedAt).to.be.a("string");
    });

    it("answers unknown routes with JSON 404 on both surfaces", async () => {
      const api = await getJson(`http://127.0.0.1:${hearth.apiPort}/api/v1/no-such-thing`);
      expect(api.status).to.equal(404);
      expect(api.body).to.include({ statusCode: 404, error: "Not Found" });
      const engine = await getJson(`http://127.0.0.1:${hearth.httpPort}/no-such-thing`);
      expect(engine.status).to.equal(404);
      expect(engine.body).to.be.an("object");
    });
  });

  it("reports not ready while its broker is away and ready again when it returns", async () => {
    const owned = await OwnBroker.create();
    await owned.start();
    const hearth = await startHearth({
      env: baseEnv({ MQTT_HOST: "127.0.0.1", MQTT_PORT: String(owned.port) }),
      apiPort: 0,
      httpPort: 0,
      logStream: quiet(),
    });
    const readyz = `http://127.0.0.1:${hearth.httpPort}/readyz`;
    try {
      await waitFor("ready", async () => (await getJson(readyz)).status === 200);
      await owned.stop();
      await waitFor("not ready after the broker went away", async () => (await getJson(readyz)).status === 503);
      const { body } = await getJson(readyz);
      expect(body).to.deep.include({ status: "not ready", checks: { mqtt: false, engine: true } });
      await owned.start();
      await waitFor("ready after the broker returned", async () => (await getJson(readyz)).status === 200, 30_000);
    } finally {
      await hearth.stop();
      await owned.stop();
    }
  });

  it("starts on the embedded defaults: PGlite and an embedded broker when none answers", async () => {
    const mqttPort = await freePort();
    const hearth = await startHearth({
      env: {
        DATA_DIR: path.join(servers.scratch, "embedded-data"),
        AUTOMATIONS_DIR: path.join(servers.scratch, "no-automations"),
        MQTT_PORT: String(mqttPort),
        LOG_LEVEL: "warn",
      },
      apiPort: 0,
      httpPort: 0,
      logStream: quiet(),
    });
    try {
      expect(hearth.database.kind).to.equal("pglite");
      expect((await getJson(`http://127.0.0.1:${hearth.apiPort}/api/v1/health`)).status).to.equal(200);
      const readyz = `http://127.0.0.1:${hearth.httpPort}/readyz`;
      await waitFor("ready on the embedded broker", async () => (await getJson(readyz)).status === 200);
    } finally {
      await hearth.stop();
    }
  });

  it("serves Prometheus metrics covering both HTTP surfaces and the inventory when enabled", async () => {
    const hearth = await startHearth({
      env: baseEnv({
        MQTT_HOST: servers.broker.host,
        MQTT_PORT: String(servers.broker.port),
        METRICS_ENABLED: "true",
        HTTP_TOKEN: "metrics-test-token",
      }),
      apiPort: 0,
      httpPort: 0,
      logStream: quiet(),
    });
    try {
      const api = `http://127.0.0.1:${hearth.apiPort}/api/v1`;
      const registered = await fetch(`${api}/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "metrics@example.com", password: "correct horse", name: "Metrics" }),
      });
      expect(registered.status).to.equal(201);
      const metricsUrl = `http://127.0.0.1:${hearth.httpPort}/metrics`;
      expect((await fetch(metricsUrl)).status).to.equal(401);
      const scrape = await fetch(metricsUrl, { headers: { authorization: "Bearer metrics-test-token" } });
      expect(scrape.status).to.equal(200);
      const text = await scrape.text();
      expect(text).to.match(/hearth_http_request_duration_seconds_count\{[^}]*surface="inventory"[^}]*\} [1-9]/);
      expect(text).to.match(/hearth_inventory_users 1\b/);
      expect(text).to.contain("hearth_inventory_households 0");
      expect(text).to.contain("hearth_mqtt_connected");
      expect(text).to.contain("process_cpu_user_seconds_total");
    } finally {
      await hearth.stop();
    }
  });

  describe("as a child process (npm start's command)", () => {
    const entry = path.resolve("src/composition/main.ts");

    const spawnHearth = (env: Record<string, string>) =>
      launch(process.execPath, ["--conditions=hearth-source", "--import", "tsx", entry, "start"], env);

    it("serves both surfaces and exits 0 on SIGTERM within 10 s", async () => {
      const apiPort = await freePort();
      const httpPort = await freePort();
      const child = spawnHearth(
        baseEnv({
          API_PORT: String(apiPort),
          HTTP_PORT: String(httpPort),
          MQTT_HOST: servers.broker.host,
          MQTT_PORT: String(servers.broker.port),
          LOG_LEVEL: "info",
        }),
      );
      const { exited } = child;
      try {
        await waitFor(
          "the child's health endpoints",
          async () =>
            (await getJson(`http://127.0.0.1:${apiPort}/api/v1/health`).catch(() => ({ status: 0 }))).status === 200 &&
            (await getJson(`http://127.0.0.1:${httpPort}/readyz`).catch(() => ({ status: 0 }))).status === 200,
          30_000,
        );
      } catch (error) {
        child.child.kill("SIGKILL");
        throw new Error(`${(error as Error).message}\n${child.output()}`);
      }
      const signalledAt = Date.now();
      child.child.kill("SIGTERM");
      const code = await exited;
      expect(code, child.output()).to.equal(0);
      expect(Date.now() - signalledAt).to.be.below(10_000);
    });

    it("a SIGTERM while it is still starting stops it in order once the start is done (exit 0, not killed)", async () => {
      const child = spawnHearth(
        baseEnv({
          API_PORT: "0",
          HTTP_PORT: "0",
          MQTT_HOST: servers.broker.host,
          MQTT_PORT: String(servers.broker.port),
          LOG_LEVEL: "info",
        }),
      );
      // The first line is logged before the database opens: the signal lands mid-start. It is sent
      // the moment the line arrives, as a supervisor watching the output would, because the
      // window between that line and the rest of the start is where a late handler loses it.
      const signalled = new Promise<void>((resolve) => {
        const onData = () => {
          if (!child.output().includes("Starting Hearth")) return;
          child.child.stdout?.off("data", onData);
          child.child.kill("SIGTERM");
          resolve();
        };
        child.child.stdout?.on("data", onData);
      });
      // A child that exits before the line would leave the wait open until mocha's timeout.
      const first = await Promise.race([signalled.then(() => "signalled" as const), child.exited]);
      if (first !== "signalled") throw new Error(`exited with ${first} before its first log line\n${child.output()}`);
      const code = await child.exited;
      expect(code, child.output()).to.equal(0);
      expect(child.output()).to.contain("Received SIGTERM; stopping").and.to.contain("Stopped");
    });

    it("exits non-zero naming the variable when the configuration is invalid", async () => {
      const child = spawnHearth({ ...baseEnv(), HTTP_PORT: "eighty" });
      expect(await child.exited).to.not.equal(0);
      expect(child.output()).to.contain("HTTP_PORT").and.to.contain("expected a port number");
    });

    it("exits non-zero naming a URL variable with a bad port before it creates the database", async () => {
      const env = baseEnv({ SHELLY_DEVICES: "kitchen=http://127.0.0.1:99999" });
      delete env.DATABASE_URL;
      const child = spawnHearth(env);
      expect(await child.exited, child.output()).to.not.equal(0);
      expect(child.output())
        .to.contain("SHELLY_DEVICES")
        .and.to.contain("kitchen")
        .and.to.contain("port 99999 is outside 1-65535");
      // The embedded database lives in DATA_DIR: nothing there means it was never opened.
      expect(existsSync(env.DATA_DIR as string) ? readdirSync(env.DATA_DIR as string) : []).to.deep.equal([]);
    });

    it("exits non-zero with a clear message when a port is taken, leaving nothing running", async () => {
      const blocker = await startHearth({
        env: baseEnv({ MQTT_HOST: servers.broker.host, MQTT_PORT: String(servers.broker.port) }),
        apiPort: 0,
        httpPort: null,
        logStream: quiet(),
      });
      try {
        const child = spawnHearth(
          baseEnv({
            API_PORT: String(blocker.apiPort),
            HTTP_PORT: String(await freePort()),
            MQTT_HOST: servers.broker.host,
            MQTT_PORT: String(servers.broker.port),
          }),
        );
        expect(await child.exited).to.equal(1);
        expect(child.output())
          .to.match(/failed to start/i)
          .and.to.contain("EADDRINUSE");
      } finally {
        await blocker.stop();
      }
    });
  });
});
