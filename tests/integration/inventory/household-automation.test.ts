import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { expect } from "chai";
import mqtt from "mqtt";
import { type RunningHearth, startHearth } from "../../../src/composition/hearth.js";
import { FakeTime, waitFor } from "../../support/engine-fakes.js";
import { FakeNtfy } from "../../support/fake-ntfy.js";
import {
  acquireBroker,
  acquireDatabase,
  type TestBroker,
  type TestDatabase,
  uniqueTopicPrefix,
} from "../../support/test-servers.js";

const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() });

/** The automation the household writes: it records every created item's name in the state. */
const AUTOMATION = `import { Automation, type Trigger, type TriggerContext } from "hearth";
export default class NewItems extends Automation {
  readonly name = "new-items";
  readonly triggers: Trigger[] = [{ type: "inventory", events: ["item.created"] }];
  async execute(context: TriggerContext): Promise<void> {
    if (context.type !== "inventory" || context.event.type !== "item.created") return;
    this.state.set("last-created", { name: context.event.data.item.name, householdId: context.event.householdId });
  }
}
`;

interface Api {
  token: string;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies of several shapes, checked by the assertions
  call(method: string, route: string, body?: unknown): Promise<{ status: number; body: any }>;
}

async function signUp(port: number): Promise<Api> {
  const base = `http://127.0.0.1:${port}/api/v1`;
  const raw = async (method: string, route: string, body: unknown, token?: string) => {
    const response = await fetch(`${base}${route}`, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json() };
  };
  const registered = await raw("POST", "/auth/register", {
    email: `cook-${Date.now()}@example.test`,
    password: "correct horse battery",
    name: "Cook",
  });
  expect(registered.status).to.equal(201);
  const token = registered.body.accessToken as string;
  return { token, call: (method, route, body) => raw(method, route, body, token) };
}

for (const kind of ["PGlite", "PostgreSQL"] as const) {
  describe(`household automation end to end on ${kind}`, function () {
    this.timeout(60_000);
    let database: TestDatabase | undefined;
    let broker: TestBroker;
    let scratch: string;
    let automations: string;
    let hearth: RunningHearth | undefined;
    let ntfy: FakeNtfy;
    let observer: mqtt.MqttClient;
    const retained = new Map<string, unknown>();

    before(async function () {
      if (kind === "PostgreSQL") {
        database = await acquireDatabase("household automation");
        if (database.kind !== "postgres") {
          console.log("      [household automation] SKIPPED on PostgreSQL: no TEST_DATABASE_URL and no Docker engine");
          await database.release();
          database = undefined;
          this.skip();
        }
      }
      broker = await acquireBroker("household automation");
      scratch = await mkdtemp(path.join(tmpdir(), "hearth-household-"));
      // Under the checkout, so the automation's `import "hearth"` resolves.
      await mkdir("tmp", { recursive: true });
      automations = await mkdtemp(path.resolve("tmp", "household-automation-"));
      await writeFile(path.join(automations, "new-items.ts"), AUTOMATION);
      ntfy = await FakeNtfy.start();
      observer = await mqtt.connectAsync(broker.url, { reconnectPeriod: 0 });
      observer.on("message", (topic, payload) => {
        retained.set(topic, payload.length === 0 ? null : JSON.parse(payload.toString()));
      });
    });

    after(async () => {
      await hearth?.stop();
      observer?.end(true);
      await ntfy?.server.close();
      await broker?.release();
      await database?.release();
      if (scratch) await rm(scratch, { recursive: true, force: true });
      if (automations) await rm(automations, { recursive: true, force: true });
    });

    it("an item created through the API fires an inventory automation, updates the retained summary, is in the reminder at the set time, and leaves no summary once the household is deleted", async () => {
      const time = new FakeTime("2026-06-01T17:00:00Z");
      const prefix = uniqueTopicPrefix("inventory");
      await observer.subscribeAsync(`${prefix}/#`, { qos: 1 });
      hearth = await startHearth({
        env: {
          DATA_DIR: path.join(scratch, "data"),
          AUTOMATIONS_DIR: automations,
          MQTT_HOST: broker.host,
          MQTT_PORT: String(broker.port),
          LOG_LEVEL: "warn",
          TZ: "UTC",
          ...(database?.url ? { DATABASE_URL: database.url } : {}),
          INVENTORY_MQTT_PREFIX: `${prefix}/hearth`,
          HA_DISCOVERY_PREFIX: `${prefix}/ha`,
          NTFY_URL: ntfy.url,
          NTFY_TOPIC: "everything",
          NTFY_CHANNELS: "freezer=freezer-alerts",
          REMINDER_CHECK_INTERVAL: "600",
          DEVICE_REGISTRY_ENABLED: "false",
        },
        apiPort: 0,
        httpPort: null,
        clock: time,
        timer: time,
        logStream: quiet(),
      });
      const api = await signUp(hearth.apiPort);
      const household = (await api.call("POST", "/households", { name: "Home" })).body;
      const freezer = (await api.call("POST", `/households/${household.id}/freezers`, { name: "Chest" })).body;
      const compartment = (
        await api.call("POST", `/households/${household.id}/freezers/${freezer.id}/compartments`, { name: "Top" })
      ).body;
      const reminders = await api.call("PUT", `/households/${household.id}/reminders`, {
        enabled: true,
        daysAhead: 3,
        timeOfDay: "18:00",
        channel: "freezer",
      });
      expect(reminders.status).to.equal(200);

      // 1. An item created through the API.
      const created = await api.call("POST", `/households/${household.id}/items`, {
        name: "Lasagne",
        quantity: 2,
        freezerId: freezer.id,
        compartmentId: compartment.id,
        expiresAt: "2026-06-03T12:00:00Z",
      });
      expect(created.status).to.equal(201);

      // 2. The dispatcher's next poll delivers it: the inventory automation fires.
      time.advance(500);
      await waitFor(() => hearth?.engine.state.get("last-created") !== undefined, 15_000, "the inventory automation");
      expect(hearth.engine.state.get("last-created")).to.deep.equal({ name: "Lasagne", householdId: household.id });

      // 3. The retained summary (and its Home Assistant sensors) for the household.
      const summaryTopic = `${prefix}/hearth/${household.id}/summary`;
      await waitFor(
        () => (retained.get(summaryTopic) as { itemCount?: number } | undefined)?.itemCount === 1,
        15_000,
        "the summary",
      );
      expect(retained.get(summaryTopic)).to.include({
        householdId: household.id,
        itemCount: 1,
        expiringSoon: 1,
        expired: 0,
      });
      const discovery = retained.get(`${prefix}/ha/sensor/hearth_${household.id}/item_count/config`) as Record<
        string,
        unknown
      >;
      expect(discovery).to.include({ state_topic: summaryTopic, value_template: "{{ value_json.itemCount }}" });
      const event = retained.get(`${prefix}/hearth/${household.id}/events`) as Record<string, unknown>;
      expect(event).to.include({ type: "item.created", householdId: household.id });
      expect(JSON.stringify(event)).not.to.include("@example.test");

      // 4. No reminder before 18:00; one at 18:00, to the household's channel; none again that day.
      expect(ntfy.published).to.have.length(0);
      for (let step = 0; step < 6; step++) {
        time.advance(600_000);
        await hearth.inventoryLink.reminders.settled();
      }
      await waitFor(() => ntfy.published.length === 1, 15_000, "the reminder");
      expect(ntfy.published[0]).to.include({ topic: "freezer-alerts" });
      expect(ntfy.published[0]?.message).to.include("Lasagne");
      for (let step = 0; step < 3; step++) {
        time.advance(600_000);
        await hearth.inventoryLink.reminders.settled();
      }
      expect(ntfy.published).to.have.length(1);
      const after = await api.call("GET", `/households/${household.id}/reminders`);
      expect(after.body.lastSentOn).to.equal("2026-06-01");

      // 5. Deleting the household: its last event goes out, and its retained summary and sensors
      // are cleared when that event is delivered, not at the next hourly refresh.
      expect((await api.call("DELETE", `/households/${household.id}`)).status).to.equal(200);
      time.advance(500);
      await waitFor(() => retained.get(summaryTopic) === null, 15_000, "the summary to be cleared");
      // The sensors' empty retained messages follow the summary's; on a busy broker they arrive
      // a moment later, so wait for them rather than read them in the same tick.
      const sensorTopic = `${prefix}/ha/sensor/hearth_${household.id}/item_count/config`;
      await waitFor(() => retained.get(sensorTopic) === null, 15_000, "the sensors to be cleared");
      expect(retained.get(`${prefix}/hearth/${household.id}/events`)).to.deep.include({
        type: "household.deleted",
        data: { name: "Home" },
      });
    });
  });
}
