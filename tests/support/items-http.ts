import type { Express } from "express";
import request from "supertest";
import { MemoryLogger } from "../../src/adapters/logging/memory-logger.js";
import { type Database, openDatabase } from "../../src/adapters/persistence/database.js";
import { migrateToLatest } from "../../src/adapters/persistence/migrator.js";
import { loadConfig } from "../../src/composition/config.js";
import { buildInventoryApi } from "../../src/composition/inventory-api.js";
import { buildMemoryInventoryApi } from "./memory-inventory-api.js";

export interface Caller {
  id: string;
  email: string;
  name: string;
  token: string;
}

/** A running inventory app with three users: the owner and a member of `hid`, and an outsider with a household of their own. */
export interface ItemsHttpWorld {
  app: Express;
  owner: Caller;
  member: Caller;
  outsider: Caller;
  hid: string;
  freezerId: string;
  compartmentIds: [string, string];
  otherFreezerId: string;
  otherCompartmentId: string;
  outsiderHid: string;
  outsiderFreezerId: string;
  outsiderCompartmentId: string;
  close(): Promise<void>;
}

const config = loadConfig({
  NODE_ENV: "test",
  JWT_SECRET: "items-http-test-secret-0123456789abcdefghijkl",
  RATE_LIMIT_PER_MINUTE: "1000000",
  AUTH_RATE_LIMIT_PER_MINUTE: "1000000",
  DATA_DIR: ":memory:",
});

let userCounter = 0;

async function register(app: Express, name: string): Promise<Caller> {
  userCounter += 1;
  const email = `${name.toLowerCase()}-${Date.now()}-${userCounter}@example.test`;
  const response = await request(app)
    .post("/api/v1/auth/register")
    .send({ email, password: "correct horse battery", name });
  if (response.status !== 201) throw new Error(`register failed: ${response.status} ${JSON.stringify(response.body)}`);
  return { id: response.body.user.id, email, name, token: response.body.accessToken };
}

async function call(app: Express, caller: Caller, method: "post" | "get", path: string, body?: object) {
  const response = await request(app)
    [method](`/api/v1${path}`)
    .set("Authorization", `Bearer ${caller.token}`)
    .send(body);
  if (response.status >= 300)
    throw new Error(`${method} ${path} failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

async function populate(app: Express, close: () => Promise<void>): Promise<ItemsHttpWorld> {
  const owner = await register(app, "Owner");
  const member = await register(app, "Member");
  const outsider = await register(app, "Outsider");
  const household = await call(app, owner, "post", "/households", { name: "Home" });
  const invite = await call(app, owner, "post", `/households/${household.id}/invites`);
  await call(app, member, "post", "/invites/accept", { code: invite.code });
  const freezer = await call(app, owner, "post", `/households/${household.id}/freezers`, { name: "Kitchen" });
  const top = await call(app, owner, "post", `/households/${household.id}/freezers/${freezer.id}/compartments`, {
    name: "Top",
  });
  const bottom = await call(app, owner, "post", `/households/${household.id}/freezers/${freezer.id}/compartments`, {
    name: "Bottom",
    position: 1,
  });
  const garage = await call(app, owner, "post", `/households/${household.id}/freezers`, { name: "Garage" });
  const drawer = await call(app, owner, "post", `/households/${household.id}/freezers/${garage.id}/compartments`, {
    name: "Drawer",
  });
  const away = await call(app, outsider, "post", "/households", { name: "Cabin" });
  const awayFreezer = await call(app, outsider, "post", `/households/${away.id}/freezers`, { name: "Chest" });
  const awayCompartment = await call(
    app,
    outsider,
    "post",
    `/households/${away.id}/freezers/${awayFreezer.id}/compartments`,
    {
      name: "Basket",
    },
  );
  return {
    app,
    owner,
    member,
    outsider,
    hid: household.id,
    freezerId: freezer.id,
    compartmentIds: [top.id, bottom.id],
    otherFreezerId: garage.id,
    otherCompartmentId: drawer.id,
    outsiderHid: away.id,
    outsiderFreezerId: awayFreezer.id,
    outsiderCompartmentId: awayCompartment.id,
    close,
  };
}

/** The app over the in-memory repositories. */
export async function memoryItemsWorld(): Promise<ItemsHttpWorld> {
  const api = await buildMemoryInventoryApi({ config, logger: new MemoryLogger() });
  return populate(api.app, () => api.close());
}

/** The app over knex: PGlite in memory, or PostgreSQL when a URL is given (the database must be empty). */
export async function knexItemsWorld(databaseUrl?: string): Promise<ItemsHttpWorld & { database: Database }> {
  const database = await openDatabase({ databaseUrl, dataDir: ":memory:" });
  await migrateToLatest(database.knex);
  const api = await buildInventoryApi({ config, database, logger: new MemoryLogger() });
  const world = await populate(api.app, async () => {
    await api.close();
    await database.close();
  });
  return { ...world, database };
}
