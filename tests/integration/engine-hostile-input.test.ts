import path from "node:path";
import { expect } from "chai";
import mqtt from "mqtt";
import { launch, useProcessServers } from "../support/hearth-processes.js";
import { freePort, getJson, waitFor } from "../support/network.js";

/**
 * The engine's HTTP surface as `hearth start` serves it, with the example automations: odd path
 * segments on every route, raw bodies on the routes that take one, odd query values on the lists.
 * Every answer must be below 500. Then what any publisher on the broker can send: odd device
 * lists and device states for Zigbee2MQTT. (The inventory API's operations get the same in
 * tests/contract/inventory/hostile-input.test.ts.)
 */
const ODD_SEGMENTS = [
  "x",
  "%",
  "%zz",
  "%ED%A0%80",
  encodeURIComponent("\u0000"),
  "x".repeat(5000),
  "..%2F..%2Fetc",
  "__proto__",
  "constructor",
  "toString",
  "1e400",
  "-1",
];

const ROUTES_WITH_A_SEGMENT = [
  "/api/automations/:segment",
  "/api/automations/:segment/traces",
  "/api/automations/:segment/trigger",
  "/api/devices/:segment",
  "/api/services/:segment",
  "/api/services/lightPanels/:segment/pair",
  "/api/state/:segment",
  "/webhook/:segment",
];

const RAW_BODIES = [
  "null",
  "[]",
  '"x"',
  "1e400",
  '{"value":1e400}',
  '{"away":1e400}',
  '{"__proto__":{"polluted":true}}',
  "{",
  "\u0000",
  '{"value":"\\ud800"}',
  `{"value":${"[".repeat(5000)}${"]".repeat(5000)}}`,
];

const ROUTES_WITH_A_BODY = [
  "/api/state/hostile.key",
  "/webhook/away-mode",
  "/api/automations/away-mode-webhook/trigger",
  "/api/automations/motion-light/trigger",
];

const PREFIX = `hostile-z2m-${process.pid}`;

/** Device lists as a broken or hostile publisher sends them; the last one is valid. */
const DEVICE_LISTS = [
  "null",
  "[]",
  '"x"',
  "1e400",
  "{",
  '[{"friendly_name":1}]',
  `${"[".repeat(10_000)}${"]".repeat(10_000)}`,
  JSON.stringify([
    { ieee_address: "0x0000000000000c01", friendly_name: "constructor", type: "Router", definition: { exposes: [] } },
    { ieee_address: "0x0000000000000c02", friendly_name: "__proto__", type: "EndDevice", definition: null },
  ]),
];

const LISTS = ["/api/logs", "/api/automations", "/api/state", "/api/devices", "/api/automations/motion-light/traces"];
const QUERY_NAMES = ["limit", "level", "automation", "since", "prefix", "q"];

describe("the engine's HTTP API under hostile input (hearth start, compiled)", function () {
  this.timeout(180_000);
  const servers = useProcessServers("engine hostile input");

  it("answers every odd path, body and query below 500 and keeps serving", async () => {
    const httpPort = await freePort();
    const hearth = launch(process.execPath, ["bin/hearth.js", "start"], {
      ...servers.env(),
      DATA_DIR: path.join(servers.scratch, "data"),
      AUTOMATIONS_DIR: path.resolve("automations"),
      AUTOMATIONS_TYPECHECK: "false",
      HOT_STANDBY: "false",
      // A prefix of its own on a shared broker.
      ZIGBEE2MQTT_PREFIX: PREFIX,
      HTTP_AUTH: "false",
      API_PORT: String(await freePort()),
      HTTP_PORT: String(httpPort),
    });
    const base = `http://127.0.0.1:${httpPort}`;
    try {
      await waitFor(
        "the engine ready",
        async () => (await getJson(`${base}/readyz`).catch(() => ({ status: 0 }))).status === 200,
        60_000,
      );
      const failures: string[] = [];
      let requests = 0;
      const send = async (method: string, target: string, body?: string) => {
        requests++;
        const response = await fetch(`${base}${target}`, {
          method,
          ...(body === undefined ? {} : { body, headers: { "Content-Type": "application/json" } }),
        });
        const text = await response.text();
        if (response.status >= 500) {
          failures.push(`${method} ${target.slice(0, 120)} ${body?.slice(0, 60) ?? ""} → ${response.status} ${text}`);
        }
      };
      for (const route of ROUTES_WITH_A_SEGMENT) {
        for (const segment of ODD_SEGMENTS) {
          for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
            await send(method, route.replace(":segment", segment));
          }
        }
      }
      for (const route of ROUTES_WITH_A_BODY) {
        for (const body of RAW_BODIES) {
          for (const method of ["POST", "PUT"]) await send(method, route, body);
        }
      }
      for (const list of LISTS) {
        for (const name of QUERY_NAMES) {
          for (const value of ODD_SEGMENTS) await send("GET", `${list}?${name}=${value}`);
        }
      }
      expect(requests).to.be.greaterThan(900);
      expect(failures, `${failures.slice(0, 10).join("\n")}\n${hearth.output()}`).to.deep.equal([]);
      // Still serving, and nothing odd was kept.
      const state = await getJson(`${base}/api/state`);
      expect(state.status).to.equal(200);
      expect(JSON.stringify(state.body)).to.not.include("polluted");
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);

      const publisher = await mqtt.connectAsync(`mqtt://${servers.broker.host}:${servers.broker.port}`);
      try {
        for (const list of DEVICE_LISTS) await publisher.publishAsync(`${PREFIX}/bridge/devices`, list);
        for (const device of ["constructor", "__proto__", "toString", "x/availability", "bridge/event"]) {
          for (const payload of ["null", "1e400", "{", '{"__proto__":{"polluted":true}}', '{"state":{"toString":1}}']) {
            await publisher.publishAsync(`${PREFIX}/${device}`, payload);
          }
        }
      } finally {
        await publisher.endAsync();
      }
      type Devices = { devices?: { friendlyName?: string; niceName?: string }[] };
      await waitFor(
        "the valid device list taken",
        async () => ((await getJson(`${base}/api/devices`)).body as Devices).devices?.length === 2,
        10_000,
      );
      const devices = await getJson(`${base}/api/devices/constructor`);
      expect(devices.status, JSON.stringify(devices.body)).to.equal(200);
      // Its own name, not Object's constructor; a state key "__proto__" is kept as a plain key.
      expect(devices.body).to.deep.include({ friendly_name: "constructor", niceName: "constructor" });
      expect((await getJson(`${base}/readyz`)).status).to.equal(200);
    } finally {
      hearth.child.kill("SIGTERM");
      await hearth.exited;
    }
  });
});
