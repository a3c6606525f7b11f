import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { type Database, openDatabase } from "../../../src/adapters/persistence/database.js";
import { migrateToLatest } from "../../../src/adapters/persistence/migrator.js";
import { loadConfig } from "../../../src/composition/config.js";
import { buildInventoryApi } from "../../../src/composition/inventory-api.js";
import { openEventStream, type EventStreamClient, type StreamMessage } from "../../support/event-stream-client.js";
import { acquireDatabase, type TestDatabase } from "../../support/test-servers.js";

interface Instance {
  api: Awaited<ReturnType<typeof buildInventoryApi>>;
  server: Server;
  base: string;
}

async function startInstance(database: Database): Promise<Instance> {
  const config = loadConfig({
    JWT_SECRET: "household-events-test-secret-0123456789abcdef",
    AUTH_RATE_LIMIT_PER_MINUTE: "1000",
    RATE_LIMIT_PER_MINUTE: "10000",
    INVENTORY_EVENTS_POLL_MS: "50",
  });
  const api = await buildInventoryApi({ config, database, logger: new MemoryLogger() });
  const server = createServer(api.app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { api, server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1` };
}

async function stopInstance(instance: Instance | undefined): Promise<void> {
  if (!instance) return;
  await instance.api.close();
  await new Promise<void>((resolve) => instance.server.close(() => resolve()));
}

async function call(base: string, method: string, path: string, token?: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

let counter = 0;
async function register(base: string, name: string): Promise<{ id: string; token: string }> {
  counter++;
  const created = await call(base, "POST", "/auth/register", undefined, {
    email: `${name}-${counter}-${Date.now()}@example.com`,
    password: "password123",
    name,
  });
  expect(created.status, JSON.stringify(created.body)).to.equal(201);
  return { id: created.body.user.id, token: created.body.accessToken };
}

/** A household of Anna (owner) and Ben (member), with one freezer. */
async function family(base: string) {
  const anna = await register(base, "Anna");
  const ben = await register(base, "Ben");
  const household = await call(base, "POST", "/households", anna.token, { name: "Home" });
  const hid = household.body.id as string;
  const invite = await call(base, "POST", `/households/${hid}/invites`, anna.token);
  expect((await call(base, "POST", "/invites/accept", ben.token, { code: invite.body.code })).status).to.equal(200);
  const freezer = await call(base, "POST", `/households/${hid}/freezers`, anna.token, { name: "Chest" });
  const compartment = await call(
    base,
    "POST",
    `/households/${hid}/freezers/${freezer.body.id}/compartments`,
    anna.token,
    {
      name: "Top",
    },
  );
  expect(compartment.status, JSON.stringify(compartment.body)).to.equal(201);
  const place = { freezerId: freezer.body.id as string, compartmentId: compartment.body.id as string };
  return { anna, ben, hid, place };
}

const itemNamed = (name: string) => (m: StreamMessage) =>
  m.event === "item.created" && (m.data as { data: { item: { name: string } } }).data.item.name === name;

function describeHouseholdEvents(label: string, open: () => Promise<{ databases: Database[]; done(): Promise<void> }>) {
  describe(`household event stream (${label})`, function () {
    this.timeout(60_000);
    let databases: Database[] = [];
    let done: () => Promise<void> = async () => {};
    let first: Instance | undefined;
    let second: Instance | undefined;
    const streams: EventStreamClient[] = [];

    before(async () => {
      ({ databases, done } = await open());
      first = await startInstance(databases[0]!);
      second = await startInstance(databases[databases.length - 1]!);
    });
    afterEach(() => {
      for (const stream of streams.splice(0)) stream.close();
    });
    after(async () => {
      await stopInstance(first);
      await stopInstance(second);
      await done();
    });

    const stream = async (base: string, hid: string, headers: Record<string, string>) => {
      const client = await openEventStream(`${base}/households/${hid}/events`, headers);
      streams.push(client);
      return client;
    };

    it("streams another member's change with proxy-safe headers; 401 signed out, 403 for non-members", async () => {
      const { anna, ben, hid, place } = await family(first!.base);
      const outsider = await register(first!.base, "Outsider");
      const bens = await stream(first!.base, hid, { Authorization: `Bearer ${ben.token}` });
      expect(bens.status).to.equal(200);
      expect(bens.headers.get("content-type")).to.match(/^text\/event-stream/);
      expect(bens.headers.get("cache-control")).to.include("no-cache");
      expect(bens.headers.get("x-accel-buffering")).to.equal("no");
      expect(bens.headers.get("content-encoding")).to.equal(null);
      await bens.comment(": connected");
      const created = await call(first!.base, "POST", `/households/${hid}/items`, anna.token, {
        name: "Peas",
        quantity: 1,
        ...place,
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const message = await bens.next(itemNamed("Peas"));
      expect(message.id).to.be.a("string").and.not.equal("");
      expect(message.data).to.deep.include({
        type: "item.created",
        householdId: hid,
        actor: { kind: "user", id: anna.id },
      });
      expect(message.data).to.have.all.keys("id", "type", "householdId", "occurredAt", "actor", "data");

      expect((await stream(first!.base, hid, {})).status).to.equal(401);
      const refused = await stream(first!.base, hid, { Authorization: `Bearer ${outsider.token}` });
      expect(refused.status).to.equal(403);
      await refused.ended;
      expect(refused.messages[0]?.data).to.include({ statusCode: 403 });
    });

    it("resumes with Last-Event-ID without loss or duplicates, live events after the replay", async () => {
      const { anna, ben, hid, place } = await family(first!.base);
      const add = async (name: string) => {
        const created = await call(first!.base, "POST", `/households/${hid}/items`, anna.token, {
          name,
          quantity: 1,
          ...place,
        });
        expect(created.status, JSON.stringify(created.body)).to.equal(201);
      };
      const auth = { Authorization: `Bearer ${ben.token}` };
      const before = await stream(first!.base, hid, auth);
      await before.comment(": connected");
      await add("One");
      const one = await before.next(itemNamed("One"));
      before.close();
      await add("Two");
      await add("Three");
      const resumed = await stream(first!.base, hid, { ...auth, "Last-Event-ID": one.id! });
      await resumed.next(itemNamed("Three"));
      await add("Four");
      await resumed.next(itemNamed("Four"));
      const names = resumed.messages
        .filter((m) => m.event === "item.created")
        .map((m) => (m.data as { data: { item: { name: string } } }).data.item.name);
      expect(names).to.deep.equal(["Two", "Three", "Four"]);
      const ids = resumed.messages.map((m) => m.id);
      expect([...ids].sort()).to.deep.equal(ids);

      const garbage = await stream(first!.base, hid, { ...auth, "Last-Event-ID": "not-a-cursor" });
      const reset = await garbage.next((m) => m.event === "reset");
      expect(reset.id).to.be.a("string");
    });

    it("events written through another instance reach this one's streams", async () => {
      const { anna, ben, hid, place } = await family(first!.base);
      const bens = await stream(second!.base, hid, { Authorization: `Bearer ${ben.token}` });
      await bens.comment(": connected");
      await call(first!.base, "POST", `/households/${hid}/items`, anna.token, { name: "Fish", quantity: 2, ...place });
      await bens.next(itemNamed("Fish"));
    });

    it("sends membership.ended and closes when the member is removed", async () => {
      const { anna, ben, hid } = await family(first!.base);
      const bens = await stream(second!.base, hid, { Authorization: `Bearer ${ben.token}` });
      await bens.comment(": connected");
      const removed = await call(first!.base, "DELETE", `/households/${hid}/members/${ben.id}`, anna.token);
      expect(removed.status, JSON.stringify(removed.body)).to.equal(200);
      const ended = await bens.next((m) => m.event === "membership.ended");
      expect(ended.data).to.deep.equal({ householdId: hid });
      await bens.ended;
    });

    it("answers HEAD with the stream's headers at once, holding no stream slot", async () => {
      const { ben, hid } = await family(first!.base);
      for (let i = 0; i < 12; i++) {
        const head = await fetch(`${first!.base}/households/${hid}/events`, {
          method: "HEAD",
          headers: { Authorization: `Bearer ${ben.token}` },
        });
        expect(head.status).to.equal(200);
        expect(head.headers.get("content-type")).to.match(/^text\/event-stream/);
      }
      const opened = await stream(first!.base, hid, { Authorization: `Bearer ${ben.token}` });
      expect(opened.status, "the HEADs left every slot free").to.equal(200);
    });

    it("refuses the 11th concurrent stream of one user with 429 and Retry-After", async () => {
      const { ben, hid } = await family(first!.base);
      const auth = { Authorization: `Bearer ${ben.token}` };
      const open = await Promise.all(Array.from({ length: 10 }, () => stream(first!.base, hid, auth)));
      expect(open.map((s) => s.status)).to.deep.equal(Array(10).fill(200));
      const eleventh = await stream(first!.base, hid, auth);
      expect(eleventh.status).to.equal(429);
      expect(Number(eleventh.headers.get("retry-after"))).to.be.greaterThan(0);
      open[0]!.close();
      await open[0]!.ended;
      // The server notices the closed connection; a new stream is then accepted.
      for (;;) {
        const retry = await stream(first!.base, hid, auth);
        if (retry.status === 200) break;
        expect(retry.status).to.equal(429);
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    });
  });
}

describeHouseholdEvents("PGlite, two API instances on one database", async () => {
  const database = await openDatabase({ dataDir: ":memory:" });
  await migrateToLatest(database.knex);
  return { databases: [database], done: () => database.close() };
});

describeHouseholdEvents("acquired database, two pools as two processes", async () => {
  const server: TestDatabase = await acquireDatabase("household events");
  const databases: Database[] = [];
  databases.push(await openDatabase({ dataDir: ":memory:", ...(server.url ? { databaseUrl: server.url } : {}) }));
  await migrateToLatest(databases[0]!.knex);
  if (server.url) databases.push(await openDatabase({ dataDir: ":memory:", databaseUrl: server.url }));
  return {
    databases,
    done: async () => {
      for (const database of databases) await database.close();
      await server.release();
    },
  };
});
