import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import request from "supertest";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { type Database, openDatabase } from "../../../src/adapters/persistence/database.js";
import { KnexHouseholdTransferStore } from "../../../src/adapters/persistence/knex-household-transfer-store.js";
import { migrateToLatest } from "../../../src/adapters/persistence/migrator.js";
import { loadConfig } from "../../../src/composition/config.js";
import { buildInventoryApi } from "../../../src/composition/inventory-api.js";
import type { FreezerItem } from "../../../src/domain/inventory/freezer-item.js";
import type { ImportWrite } from "../../../src/ports/household-transfer-store.js";
import { acquireDatabase, type TestDatabase } from "../../support/test-servers.js";

const config = loadConfig({
  JWT_SECRET: "import-chunks-test-secret-0123456789abcdef",
  RATE_LIMIT_PER_MINUTE: "100000",
});

/** A household with a freezer, a compartment and one item, made through the API. */
async function household(app: Parameters<typeof request>[0], name: string) {
  const owner = await request(app)
    .post("/api/v1/auth/register")
    .send({
      email: `${name}-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`,
      password: "password123",
      name,
    });
  const auth = { Authorization: `Bearer ${owner.body.accessToken}` };
  const hid = (await request(app).post("/api/v1/households").set(auth).send({ name })).body.id as string;
  const freezerId = (await request(app).post(`/api/v1/households/${hid}/freezers`).set(auth).send({ name: "Chest" }))
    .body.id as string;
  const compartmentId = (
    await request(app)
      .post(`/api/v1/households/${hid}/freezers/${freezerId}/compartments`)
      .set(auth)
      .send({ name: "Top" })
  ).body.id as string;
  const item = await request(app)
    .post(`/api/v1/households/${hid}/items`)
    .set(auth)
    .send({ name: "Peas", quantity: 1, freezerId, compartmentId });
  return { hid, auth, userId: owner.body.user.id as string, itemId: item.body.id as string };
}

/** What an import of `count` new items (plus `extra`) into a new freezer and compartment writes. */
function importWrite(
  target: { hid: string; userId: string },
  count: number,
  items: (batches: FreezerItem[][]) => AsyncIterable<FreezerItem[]>,
  extraIds: string[] = [],
): ImportWrite {
  const now = new Date();
  const freezerId = `imfreezer${Math.random().toString(36).slice(2, 12)}`;
  const compartmentId = `imcompart${Math.random().toString(36).slice(2, 12)}`;
  const item = (id: string): FreezerItem => ({
    id,
    householdId: target.hid,
    freezerId,
    compartmentId,
    name: `Imported ${id}`,
    quantity: 1,
    unit: "piece",
    categoryId: null,
    notes: null,
    storedAt: null,
    expiresAt: null,
    barcode: null,
    deletedAt: null,
    createdAt: now,
    updatedAt: now,
    createdById: target.userId,
    updatedById: target.userId,
  });
  const all = [...extraIds, ...Array.from({ length: count }, (_, index) => `imitem${freezerId.slice(9)}${index}`)].map(
    item,
  );
  const batches: FreezerItem[][] = [];
  for (let start = 0; start < all.length; start += 1000) batches.push(all.slice(start, start + 1000));
  const freezer = {
    id: freezerId,
    householdId: target.hid,
    name: "Imported",
    description: null,
    position: 9,
    createdAt: now,
    updatedAt: now,
  };
  const compartment = { id: compartmentId, freezerId, name: "Imported", position: 0, createdAt: now };
  return {
    householdId: target.hid,
    batches: () =>
      (async function* () {
        let first = true;
        for await (const batch of items(batches)) {
          yield {
            freezers: first ? [freezer] : [],
            compartments: first ? [compartment] : [],
            categories: [],
            items: batch,
            barcodes: [],
            rows: new Map(),
          };
          first = false;
        }
      })(),
  };
}

/** A promise with its resolve function, to wait on an event rather than a time. */
function signal<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

for (const kind of ["PGlite", "PostgreSQL"] as const) {
  describe(`household import writes on ${kind}: others keep being answered, all or nothing`, function () {
    this.timeout(180_000);
    let server: TestDatabase | undefined;
    let scratch: string;
    let database: Database;
    let api: Awaited<ReturnType<typeof buildInventoryApi>>;

    before(async function () {
      scratch = await mkdtemp(path.join(tmpdir(), "hearth-import-chunks-"));
      if (kind === "PostgreSQL") {
        server = await acquireDatabase("household import chunks");
        if (!server.url) {
          console.log(
            "      [household import chunks] SKIPPED on PostgreSQL: no TEST_DATABASE_URL and no Docker engine",
          );
          this.skip();
        }
      }
      database = await openDatabase({
        dataDir: path.join(scratch, "data"),
        ...(server?.url ? { databaseUrl: server.url } : {}),
      });
      await migrateToLatest(database.knex);
      api = await buildInventoryApi({ config, database, logger: new MemoryLogger() });
    });
    after(async () => {
      await api?.close();
      await database?.close().catch(() => {});
      await server?.release();
      if (scratch) await rm(scratch, { recursive: true, force: true });
    });

    const store = () => new KnexHouseholdTransferStore(database.knex, { chunked: database.kind === "pglite" });
    const counts = async (hid: string) => {
      const [items] = await database.knex("freezer_items").where({ household_id: hid }).count({ n: "*" });
      const [freezers] = await database.knex("freezers").where({ household_id: hid }).count({ n: "*" });
      const [compartments] = await database
        .knex("compartments")
        .join("freezers", "freezers.id", "compartments.freezer_id")
        .where({ "freezers.household_id": hid })
        .count({ n: "*" });
      return { items: Number(items?.n), freezers: Number(freezers?.n), compartments: Number(compartments?.n) };
    };
    const bookkeeping = async () => {
      const [batches] = await database.knex("import_batches").count({ n: "*" });
      const [rows] = await database.knex("import_batch_rows").count({ n: "*" });
      return Number(batches?.n) + Number(rows?.n);
    };

    it("answers another household's requests while an import is halfway, then completes it", async () => {
      const importer = await household(api.app, "Importer");
      const other = await household(api.app, "Other");
      const halfway = signal();
      const answered = signal();
      const imported = store().importAll(
        importWrite(importer, 2500, async function* (batches) {
          yield batches[0] as FreezerItem[];
          // Asked for the second batch: the first is written, the import is halfway.
          halfway.resolve();
          await answered.promise;
          yield* batches.slice(1);
        }),
      );
      await halfway.promise;
      // One long transaction would hold PGlite's only connection here, and these would wait
      // for an import that waits for them: the test would time out.
      const list = await request(api.app).get(`/api/v1/households/${other.hid}/items`).set(other.auth);
      expect(list.status).to.equal(200);
      const created = await request(api.app)
        .patch(`/api/v1/households/${other.hid}/items/${other.itemId}`)
        .set(other.auth)
        .send({ quantity: 3 });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      answered.resolve();
      expect(await imported).to.deep.equal({
        itemsCreated: 2500,
        freezersCreated: 1,
        compartmentsCreated: 1,
        barcodesRemembered: 0,
        shoppingEntriesAdded: 0,
        categoriesCreated: 0,
      });
      expect(await counts(importer.hid)).to.deep.equal({ items: 2501, freezers: 2, compartments: 2 });
      expect(await bookkeeping()).to.equal(0);
    });

    it("takes back everything a failing import wrote, keeping the items it found already there", async () => {
      const importer = await household(api.app, "Failing");
      const before = await counts(importer.hid);
      const failure = store().importAll(
        importWrite(
          importer,
          2500,
          async function* (batches) {
            yield* batches.slice(0, 2);
            throw new Error("the disk is full");
          },
          [importer.itemId],
        ),
      );
      await failure.then(
        () => expect.fail("the import succeeded"),
        (error: Error) => expect(error.message).to.equal("the disk is full"),
      );
      expect(await counts(importer.hid)).to.deep.equal(before);
      const kept = await request(api.app)
        .get(`/api/v1/households/${importer.hid}/items/${importer.itemId}`)
        .set(importer.auth);
      expect(kept.status).to.equal(200);
      expect(await bookkeeping()).to.equal(0);
    });

    if (kind === "PGlite")
      it("undoes at the next start an import a stop cut short", async () => {
        const importer = await household(api.app, "Stopped");
        const before = await counts(importer.hid);
        const halfway = signal();
        // Never finishes: as if the process stopped between two chunks.
        void store().importAll(
          importWrite(importer, 2500, async function* (batches) {
            yield* batches.slice(0, 2);
            halfway.resolve();
            await new Promise(() => {});
          }),
        );
        await halfway.promise;
        expect((await counts(importer.hid)).items).to.be.above(before.items);
        expect(await store().undoInterruptedImports()).to.equal(1);
        expect(await counts(importer.hid)).to.deep.equal(before);
        expect(await bookkeeping()).to.equal(0);
      });
  });
}
