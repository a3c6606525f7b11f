/**
 * A first start on PGlite starts from the packaged template with every migration applied
 * (written by `npm run build`, which `npm ci` runs), so it runs no migration and its
 * WebAssembly heap keeps nothing of their index builds.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "chai";
import { type Database, migratedTemplateFits, openDatabase } from "../../../src/adapters/persistence/database.js";
import { migrateToLatest, migrationNames } from "../../../src/adapters/persistence/migrator.js";

const TEMPLATES = fileURLToPath(new URL("../../../dist/pglite-template/", import.meta.url));

/** Tables, columns and indexes of the public schema: what a migration decides. */
async function schemaOf(database: Database): Promise<unknown> {
  const columns = await database.knex.raw(
    `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
     WHERE table_schema = 'public' ORDER BY table_name, column_name`,
  );
  const indexes = await database.knex.raw(
    "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname",
  );
  const extensions = await database.knex.raw("SELECT extname FROM pg_extension ORDER BY extname");
  return { columns: columns.rows, indexes: indexes.rows, extensions: extensions.rows };
}

describe("the migrated PGlite template", function () {
  this.timeout(120_000);
  let scratch: string;

  beforeEach(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), "hearth-template-"));
  });
  afterEach(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it("is part of the build", () => {
    const written = existsSync(TEMPLATES) ? TEMPLATES : "(no dist/pglite-template: run npm run build)";
    expect(written).to.equal(TEMPLATES);
  });

  it("gives a first start the whole schema, with no migration left to apply", async () => {
    const database = await openDatabase({ dataDir: scratch, migratesAfterOpening: true });
    try {
      expect(await migrateToLatest(database.knex)).to.deep.equal([]);
      expect(
        (await database.knex("knex_migrations").select("name").orderBy("name")).map((row) => row.name),
      ).to.deep.equal(await migrationNames());
    } finally {
      await database.close();
    }
  });

  it("has the schema the migrations give an empty database", async () => {
    const fromTemplate = await openDatabase({ dataDir: ":memory:", migratesAfterOpening: true });
    const migrated = await openDatabase({ dataDir: ":memory:" });
    try {
      expect(await migrateToLatest(migrated.knex), "an empty database runs every migration").to.deep.equal(
        await migrationNames(),
      );
      expect(await schemaOf(fromTemplate)).to.deep.equal(await schemaOf(migrated));
    } finally {
      await fromTemplate.close();
      await migrated.close();
    }
  });

  it("is empty for callers that migrate step by step", async () => {
    const database = await openDatabase({ dataDir: scratch });
    try {
      expect(await database.knex.schema.hasTable("knex_migrations")).to.equal(false);
    } finally {
      await database.close();
    }
  });

  describe("fits an installation", () => {
    it("that has every migration it holds, and newer ones", () => {
      expect(migratedTemplateFits(["a", "b"], ["a", "b", "c"])).to.equal(true);
      expect(migratedTemplateFits([], ["a"])).to.equal(true);
    });

    it("not when it holds a migration the installation lacks (built from newer sources)", () => {
      expect(migratedTemplateFits(["a", "b", "c"], ["a", "b"])).to.equal(false);
    });
  });
});
