import path from "node:path";
import { expect } from "chai";
import mqtt from "mqtt";
import pg from "pg";
import { launch, type LaunchedProcess, useProcessServers } from "../../support/hearth-processes.js";
import { freePort, waitFor } from "../../support/network.js";
import { uniqueTopicPrefix } from "../../support/test-servers.js";

const JWT_SECRET = "outbox-delivery-test-secret-0123456789abcdef";

interface Running {
  process: LaunchedProcess;
  apiPort: number;
}

/** A real `hearth start` process; resolves once its inventory API answers. */
async function startProcess(env: Record<string, string>): Promise<Running> {
  const apiPort = await freePort();
  const running = launch(process.execPath, ["bin/hearth.js", "start"], {
    API_PORT: String(apiPort),
    HTTP_PORT: "0",
    LOG_LEVEL: "warn",
    JWT_SECRET,
    DEVICE_REGISTRY_ENABLED: "false",
    ...env,
  });
  await waitFor(
    "the inventory API",
    async () => (await fetch(`http://127.0.0.1:${apiPort}/api/v1/health`).catch(() => null))?.status === 200,
    60_000,
  );
  return { process: running, apiPort };
}

async function call(port: number, token: string | undefined, method: string, route: string, body?: unknown) {
  const response = await fetch(`http://127.0.0.1:${port}/api/v1${route}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = await response.json();
  if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** A user with a household, a freezer and a compartment, made through `port`. */
async function kitchen(port: number) {
  const registered = await call(port, undefined, "POST", "/auth/register", {
    email: `outbox-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`,
    password: "correct horse battery",
    name: "Cook",
  });
  const token = registered.accessToken as string;
  const household = await call(port, token, "POST", "/households", { name: "Home" });
  const freezer = await call(port, token, "POST", `/households/${household.id}/freezers`, { name: "Chest" });
  const compartment = await call(
    port,
    token,
    "POST",
    `/households/${household.id}/freezers/${freezer.id}/compartments`,
    { name: "Top" },
  );
  const addItem = async (through: number, name: string) =>
    call(through, token, "POST", `/households/${household.id}/items`, {
      name,
      quantity: 1,
      freezerId: freezer.id,
      compartmentId: compartment.id,
    });
  return { householdId: household.id as string, addItem };
}

/** Every inventory event published under `prefix`, by arrival. */
async function observeEvents(brokerUrl: string, prefix: string) {
  const events: { id: string; type: string; data: { item?: { name: string } } }[] = [];
  const client = await mqtt.connectAsync(brokerUrl, { reconnectPeriod: 0 });
  client.on("message", (_topic, payload) => events.push(JSON.parse(payload.toString())));
  await client.subscribeAsync(`${prefix}/+/events`, { qos: 1 });
  return { events, close: () => client.endAsync(true) };
}

describe("inventory events survive crashes and are delivered once across processes (integration, real processes)", function () {
  this.timeout(180_000);
  const servers = useProcessServers("outbox delivery");
  const started: Running[] = [];

  afterEach(async () => {
    for (const running of started.splice(0)) {
      if (running.process.child.exitCode === null && running.process.child.signalCode === null) {
        running.process.child.kill("SIGTERM");
        await running.process.exited;
      }
    }
  });

  it("an event committed by a process killed before delivering it is delivered once after a restart", async () => {
    const prefix = uniqueTopicPrefix("outbox-crash");
    const env = {
      DATA_DIR: path.join(servers.scratch, "crash-data"),
      AUTOMATIONS_DIR: path.join(servers.scratch, "none"),
      INVENTORY_MQTT_PREFIX: prefix,
      ...servers.env(),
    };
    const observer = await observeEvents(servers.broker.url, prefix);
    try {
      // A poll interval longer than the test: the first process delivers nothing after its start.
      const first = await startProcess({ ...env, INVENTORY_EVENTS_POLL_MS: "60000" });
      started.push(first);
      const home = await kitchen(first.apiPort);
      const item = await home.addItem(first.apiPort, "Stock");
      first.process.child.kill("SIGKILL");
      await first.process.exited;
      expect(observer.events.filter((event) => event.type === "item.created")).to.have.length(0);

      const second = await startProcess({ ...env, INVENTORY_EVENTS_POLL_MS: "200" });
      started.push(second);
      await waitFor("the event", () => observer.events.some((event) => event.type === "item.created"), 30_000);
      // A later event goes out after it, so anything still in flight has arrived by then.
      await home.addItem(second.apiPort, "Marker");
      await waitFor("the marker", () => observer.events.some((event) => event.data.item?.name === "Marker"), 30_000);
      const created = observer.events.filter(
        (event) => event.type === "item.created" && event.data.item?.name === "Stock",
      );
      expect(created, "delivered once").to.have.length(1);
      expect(created[0]?.data.item).to.include({ name: "Stock" });
      expect(item.name).to.equal("Stock");
    } finally {
      await observer.close();
    }
  });

  it("two processes sharing one PostgreSQL database deliver each event exactly once", async function () {
    if (!servers.database.url) {
      console.log(
        "      [outbox delivery] SKIPPED: two processes need a shared PostgreSQL (no TEST_DATABASE_URL, no Docker)",
      );
      this.skip();
    }
    const prefix = uniqueTopicPrefix("outbox-pair");
    const env = (name: string) => ({
      DATA_DIR: path.join(servers.scratch, `pair-${name}`),
      AUTOMATIONS_DIR: path.join(servers.scratch, "none"),
      INVENTORY_MQTT_PREFIX: prefix,
      INVENTORY_EVENTS_POLL_MS: "20",
      ...servers.env(),
    });
    const observer = await observeEvents(servers.broker.url, prefix);
    try {
      const a = await startProcess(env("a"));
      started.push(a);
      const b = await startProcess(env("b"));
      started.push(b);
      const home = await kitchen(a.apiPort);
      const names = Array.from({ length: 40 }, (_, index) => `item-${String(index).padStart(2, "0")}`);
      // Written through both processes, a few at a time, so both dispatchers compete for them.
      for (let start = 0; start < names.length; start += 4) {
        await Promise.all(
          names
            .slice(start, start + 4)
            .map((name, offset) => home.addItem(offset % 2 === 0 ? a.apiPort : b.apiPort, name)),
        );
      }
      const database = new pg.Client({ connectionString: servers.database.url });
      await database.connect();
      try {
        await waitFor(
          "every event delivered",
          async () =>
            Number(
              (await database.query("SELECT count(*) AS n FROM inventory_outbox WHERE delivered_at IS NULL")).rows[0].n,
            ) === 0,
          60_000,
        );
      } finally {
        await database.end();
      }
      // One marker through each process: each publisher's earlier messages arrive before its marker.
      await home.addItem(a.apiPort, "marker-a");
      await home.addItem(b.apiPort, "marker-b");
      await waitFor(
        "both markers",
        () => ["marker-a", "marker-b"].every((name) => observer.events.some((event) => event.data.item?.name === name)),
        30_000,
      );
      const created = observer.events.filter(
        (event) => event.type === "item.created" && names.includes(event.data.item?.name ?? ""),
      );
      const ids = created.map((event) => event.id);
      expect(new Set(ids).size, "no event twice").to.equal(ids.length);
      expect(ids, "every event").to.have.length(names.length);
    } finally {
      await observer.close();
    }
  });
});
