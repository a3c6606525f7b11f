import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import request from "supertest";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { type Database, openDatabase } from "../../../src/adapters/persistence/database.js";
import { migrateToLatest } from "../../../src/adapters/persistence/migrator.js";
import { loadConfig } from "../../../src/composition/config.js";
import { buildInventoryApi } from "../../../src/composition/inventory-api.js";
import { launch } from "../../support/hearth-processes.js";
import { acquireDatabase, type TestDatabase } from "../../support/test-servers.js";

const config = loadConfig({ JWT_SECRET: "transfer-test-secret-0123456789abcdefgh", RATE_LIMIT_PER_MINUTE: "100000" });
const ITEMS = 2500;

/** A household with a freezer, and its owner's token, made through the API. */
async function household(app: Parameters<typeof request>[0]) {
  const owner = await request(app)
    .post("/api/v1/auth/register")
    .send({
      email: `transfer-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`,
      password: "password123",
      name: "Owner",
    });
  const auth = { Authorization: `Bearer ${owner.body.accessToken}` };
  const created = await request(app).post("/api/v1/households").set(auth).send({ name: "Home" });
  return { hid: created.body.id as string, auth };
}

function generatedFile(count: number) {
  const items = Array.from({ length: count }, (_, index) => ({
    id: `gen${String(index).padStart(8, "0")}`,
    name: `Item ${index}`,
    quantity: 1 + (index % 5),
    freezerName: index % 2 === 0 ? "Chest" : "Upright",
    compartmentName: `Drawer ${index % 3}`,
    expiresAt: "2027-03-01T00:00:00Z",
  }));
  return { items };
}

for (const kind of ["PGlite", "PostgreSQL"] as const) {
  describe(`household export and import on ${kind} (knex)`, function () {
    this.timeout(180_000);
    let server: TestDatabase | undefined;
    let scratch: string;
    let database: Database;

    before(async function () {
      scratch = await mkdtemp(path.join(tmpdir(), "hearth-transfer-"));
      if (kind === "PostgreSQL") {
        server = await acquireDatabase("household transfer");
        if (!server.url) {
          console.log("      [household transfer] SKIPPED on PostgreSQL: no TEST_DATABASE_URL and no Docker engine");
          this.skip();
        }
      }
      database = await openDatabase({
        dataDir: path.join(scratch, "data"),
        ...(server?.url ? { databaseUrl: server.url } : {}),
      });
      await migrateToLatest(database.knex);
    });
    after(async () => {
      await database?.close().catch(() => {});
      await server?.release();
      if (scratch) await rm(scratch, { recursive: true, force: true });
    });

    it("imports in one transaction, exports page by page, re-imports unchanged, refuses bad files whole; the CLI does the same offline", async () => {
      const api = await buildInventoryApi({ config, database, logger: new MemoryLogger() });
      const { hid, auth } = await household(api.app);
      const file = generatedFile(ITEMS);

      const imported = await request(api.app).post(`/api/v1/households/${hid}/import`).set(auth).send(file);
      expect(imported.status, JSON.stringify(imported.body)).to.equal(200);
      expect(imported.body).to.deep.equal({
        freezersCreated: 2,
        compartmentsCreated: 6,
        categoriesCreated: 0,
        itemsCreated: ITEMS,
        itemsUnchanged: 0,
        barcodesRemembered: 0,
        shoppingEntriesAdded: 0,
      });

      const exported = await request(api.app).get(`/api/v1/households/${hid}/export`).set(auth);
      expect(exported.status).to.equal(200);
      const document = exported.body as { items: { id: string }[]; freezers: unknown[]; compartments: unknown[] };
      expect(document.items).to.have.length(ITEMS);
      expect(new Set(document.items.map((item) => item.id)).size).to.equal(ITEMS);
      expect(document.freezers).to.have.length(2);
      expect(document.compartments).to.have.length(6);

      const again = await request(api.app).post(`/api/v1/households/${hid}/import`).set(auth).send(exported.body);
      expect(again.body).to.deep.equal({
        freezersCreated: 0,
        compartmentsCreated: 0,
        categoriesCreated: 0,
        itemsCreated: 0,
        itemsUnchanged: ITEMS,
        barcodesRemembered: 0,
        shoppingEntriesAdded: 0,
      });

      const bad = {
        items: [
          ...file.items.slice(0, 10).map((item) => ({ ...item, id: `new${item.id}` })),
          { ...file.items[0], id: "badquantity1", quantity: -1 },
        ],
      };
      const refused = await request(api.app).post(`/api/v1/households/${hid}/import`).set(auth).send(bad);
      expect(refused.status).to.equal(400);
      expect(refused.body.details).to.deep.equal([{ path: "items[10]", message: "quantity: must be 0 or more" }]);
      const count = await database.knex("freezer_items").where({ household_id: hid }).count({ n: "*" });
      expect(Number(count[0]?.n)).to.equal(ITEMS);
      await api.close();

      // The CLI, offline: PGlite takes one process at a time, so this process lets go first.
      await database.close();
      const env = {
        DATA_DIR: path.join(scratch, "data"),
        LOG_LEVEL: "warn",
        ...(server?.url ? { DATABASE_URL: server.url } : {}),
      };
      const csvFile = path.join(scratch, "home.csv");
      const exportRun = launch(process.execPath, ["bin/hearth.js", "export", "--household", hid, csvFile], env);
      expect(await exportRun.exited, exportRun.output()).to.equal(0);
      const csv = await readFile(csvFile, "utf8");
      expect(csv.split("\r\n").filter((line) => line.startsWith("item,"))).to.have.length(ITEMS);
      const importRun = launch(process.execPath, ["bin/hearth.js", "import", "--household", hid, csvFile], env);
      expect(await importRun.exited, importRun.output()).to.equal(0);
      expect(importRun.output()).to.include(
        `0 items, 0 freezers, 0 compartments and 0 categories created; ${ITEMS} items already there`,
      );
      const broken = path.join(scratch, "broken.csv");
      await writeFile(broken, "id,name,quantity\nabcdefgh12,,1\n");
      const brokenRun = launch(process.execPath, ["bin/hearth.js", "import", "--household", hid, broken], env);
      expect(await brokenRun.exited).to.equal(1);
      expect(brokenRun.output()).to.include("row 2: name");
      const usage = launch(process.execPath, ["bin/hearth.js", "export", csvFile], env);
      expect(await usage.exited).to.equal(2);
      database = await openDatabase({
        dataDir: path.join(scratch, "data"),
        ...(server?.url ? { databaseUrl: server.url } : {}),
      });
    });
  });
}
