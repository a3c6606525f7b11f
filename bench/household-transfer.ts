/**
 * Household export/import benchmark (`npm run bench:transfer`).
 *
 * In a scratch PostgreSQL database: imports a generated household file of BENCH_ITEMS items
 * (default 100 000) through the import use case as the API runs it (a file on disk read twice:
 * validation, then one transaction), and as a baseline in the same run bulk-inserts the same
 * items with the item repository's insertMany (no file, no validation). Then exports the
 * household to a file at 10% of the items and at all of them, sampling the heap while it runs,
 * to show that the export's memory does not grow with the household. Prints durations, rows/s,
 * peak heap and the ratios. The scratch database is dropped at the end.
 *
 * BENCH_DATABASE_URL: a PostgreSQL server URL whose user may create databases
 * (default postgres://postgres@127.0.0.1:5432/postgres). BENCH_ITEMS: item count.
 */
import { SharpPhotoProcessor } from "../src/adapters/images/sharp-photo-processor.js";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { finished } from "node:stream/promises";
import { performance } from "node:perf_hooks";
import { createId } from "@paralleldrive/cuid2";
import pg from "pg";
import { Cuid2IdGenerator } from "../src/adapters/ids/cuid2-id-generator.js";
import { readHouseholdFile, writeHouseholdFile } from "../src/adapters/http/inventory/household-file-format.js";
import { openDatabase } from "../src/adapters/persistence/database.js";
import { KnexHouseholdRepository } from "../src/adapters/persistence/knex-household-repository.js";
import { KnexHouseholdTransferStore } from "../src/adapters/persistence/knex-household-transfer-store.js";
import { KnexItemRepository } from "../src/adapters/persistence/knex-item-repository.js";
import { KnexShoppingListRepository } from "../src/adapters/persistence/knex-shopping-list-repository.js";
import { migrateToLatest } from "../src/adapters/persistence/migrator.js";
import { ExportHousehold } from "../src/application/inventory/transfer/export-household.js";
import { HouseholdAccess } from "../src/application/inventory/household-access.js";
import { ImportHousehold } from "../src/application/inventory/transfer/import-household.js";
import type { FreezerItem } from "../src/domain/inventory/freezer-item.js";
import { systemClock } from "../src/ports/clock.js";

const ITEM_COUNT = Number(process.env.BENCH_ITEMS ?? 100_000);

/** Runs `body` while sampling heapUsed; returns its duration and the peak heap above the start. */
async function measure(body: () => Promise<void>): Promise<{ seconds: number; peakHeapMb: number }> {
  globalThis.gc?.();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 20);
  const started = performance.now();
  try {
    await body();
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  return { seconds: (performance.now() - started) / 1000, peakHeapMb: (peak - base) / 1024 / 1024 };
}

/** A household file of `count` items in two named freezers of three compartments, written as a stream. */
async function writeFile(file: string, count: number): Promise<void> {
  const out = createWriteStream(file);
  out.write('{"items":[');
  for (let index = 0; index < count; index++) {
    const line = JSON.stringify({
      id: `bench${String(index).padStart(9, "0")}`,
      name: `Item ${index} ${index % 7 === 0 ? "chicken thighs" : "peas"}`,
      quantity: 1 + (index % 4),
      freezerName: index % 2 === 0 ? "Kitchen" : "Garage",
      compartmentName: `Drawer ${index % 3}`,
      expiresAt: "2027-06-01T00:00:00Z",
    });
    if (!out.write(`${index === 0 ? "" : ","}${line}`))
      await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  out.end("]}");
  await finished(out);
}

async function main(): Promise<void> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const name = `hearth_bench_${createId()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const scratch = await mkdtemp(path.join(tmpdir(), "hearth-bench-"));
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: ":memory:" });
  try {
    await migrateToLatest(database.knex);
    const knex = database.knex;
    const now = new Date();
    const userId = createId();
    await knex("users").insert({
      id: userId,
      email: `${userId}@bench.test`,
      password_hash: "x",
      name: "Bench",
      created_at: now,
      updated_at: now,
    });
    const household = async () => {
      const id = createId();
      await knex.transaction(async (trx) => {
        await trx("households").insert({ id, name: "Bench", owner_id: userId, created_at: now, updated_at: now });
        await trx("memberships").insert({
          id: createId(),
          household_id: id,
          user_id: userId,
          role: "OWNER",
          joined_at: now,
        });
      });
      return id;
    };
    const store = new KnexHouseholdTransferStore(knex);
    const access = new HouseholdAccess(new KnexHouseholdRepository(knex));
    const shoppingList = new KnexShoppingListRepository(knex);
    const importer = new ImportHousehold(
      {
        transfers: store,
        shoppingList,
        ids: new Cuid2IdGenerator(),
        clock: systemClock,
        photos: new SharpPhotoProcessor(),
      },
      access,
    );
    const exporter = new ExportHousehold({ transfers: store, shoppingList }, access);

    const file = path.join(scratch, "household.json");
    await writeFile(file, ITEM_COUNT);
    const size = (await stat(file)).size / 1024 / 1024;
    process.stdout.write(`Household file: ${ITEM_COUNT} items, ${size.toFixed(1)} MB\n`);

    // The import as the API and the CLI run it.
    const imported = await household();
    let summary = {};
    const importRun = await measure(async () => {
      summary = await importer.execute({
        householdId: imported,
        userId,
        rows: () => readHouseholdFile(createReadStream(file), "json"),
      });
    });
    // Baseline: the same rows inserted in bulk, no file and no validation.
    const baselineHousehold = await household();
    const [freezerId, compartmentId] = [createId(), createId()];
    await knex("freezers").insert({
      id: freezerId,
      household_id: baselineHousehold,
      name: "F",
      created_at: now,
      updated_at: now,
    });
    await knex("compartments").insert({
      id: compartmentId,
      freezer_id: freezerId,
      name: "C",
      position: 0,
      created_at: now,
    });
    const items: FreezerItem[] = Array.from({ length: ITEM_COUNT }, (_, index) => ({
      id: `base${String(index).padStart(9, "0")}`,
      householdId: baselineHousehold,
      freezerId,
      compartmentId,
      name: `Item ${index}`,
      quantity: 1,
      unit: "piece",
      categoryId: null,
      notes: null,
      storedAt: null,
      barcode: null,
      expiresAt: null,
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
      createdById: userId,
      updatedById: userId,
    }));
    const baseline = await measure(() => new KnexItemRepository(knex).insertMany(items));
    // Re-import: validation and the id check only.
    const again = await measure(async () => {
      await importer.execute({
        householdId: imported,
        userId,
        rows: () => readHouseholdFile(createReadStream(file), "json"),
      });
    });

    // Export at 10% and at 100% of the items: flat memory means about the same peak.
    const small = await household();
    await knex.raw(
      `INSERT INTO freezers SELECT ?, ?, name, description, created_at, updated_at FROM freezers WHERE household_id = ? LIMIT 1`,
      [createId(), small, imported],
    );
    const smallFreezer = (await knex("freezers").where({ household_id: small }).first("id")).id as string;
    const smallCompartment = createId();
    await knex("compartments").insert({
      id: smallCompartment,
      freezer_id: smallFreezer,
      name: "C",
      position: 0,
      created_at: now,
    });
    await new KnexItemRepository(knex).insertMany(
      items.slice(0, Math.ceil(ITEM_COUNT / 10)).map((item) => ({
        ...item,
        id: `small${item.id}`,
        householdId: small,
        freezerId: smallFreezer,
        compartmentId: smallCompartment,
      })),
    );
    const exportTo = async (householdId: string, format: "json" | "csv") => {
      const out = createWriteStream(path.join(scratch, `export-${householdId}.${format}`));
      await writeHouseholdFile(await exporter.execute({ householdId, userId }), out, format, {
        householdId,
        exportedAt: new Date(),
      });
      out.end();
      await finished(out);
    };
    const exportSmall = await measure(() => exportTo(small, "json"));
    const exportLarge = await measure(() => exportTo(imported, "json"));
    const exportCsv = await measure(() => exportTo(imported, "csv"));

    const rate = (seconds: number) => `${Math.round(ITEM_COUNT / seconds).toLocaleString("en")} items/s`;
    const lines = [
      `import (${ITEM_COUNT} items, validate + one transaction): ${importRun.seconds.toFixed(2)} s, ${rate(importRun.seconds)}, peak heap +${importRun.peakHeapMb.toFixed(1)} MB`,
      `  ${JSON.stringify(summary)}`,
      `baseline insertMany (same rows, no file):  ${baseline.seconds.toFixed(2)} s, ${rate(baseline.seconds)}`,
      `  import / baseline: ${(importRun.seconds / baseline.seconds).toFixed(2)}x`,
      `re-import of the same file (nothing new):  ${again.seconds.toFixed(2)} s`,
      `export JSON, ${Math.ceil(ITEM_COUNT / 10)} items: ${exportSmall.seconds.toFixed(2)} s, peak heap +${exportSmall.peakHeapMb.toFixed(1)} MB`,
      `export JSON, ${ITEM_COUNT} items: ${exportLarge.seconds.toFixed(2)} s, peak heap +${exportLarge.peakHeapMb.toFixed(1)} MB`,
      `export CSV,  ${ITEM_COUNT} items: ${exportCsv.seconds.toFixed(2)} s, peak heap +${exportCsv.peakHeapMb.toFixed(1)} MB`,
      `  export peak heap, 100% / 10% of the items: ${(exportLarge.peakHeapMb / Math.max(exportSmall.peakHeapMb, 0.1)).toFixed(2)}x (flat memory: about 1x, not 10x)`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  } finally {
    await database.close();
    await rm(scratch, { recursive: true, force: true });
    const dropper = new pg.Client({ connectionString: adminUrl });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await dropper.end();
  }
}

await main();
