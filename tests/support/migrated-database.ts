/**
 * The one way a suite gets a migrated database: mocha hooks open it before the suite and
 * close it (and release the server) after. `acquired` follows test-servers.ts
 * (TEST_DATABASE_URL, testcontainers, else embedded PGlite); `pglite` is always PGlite in
 * memory.
 */
import { type Database, openDatabase } from "../../src/adapters/persistence/database.js";
import { migrateToLatest } from "../../src/adapters/persistence/migrator.js";
import { acquireDatabase, type TestDatabase } from "./test-servers.js";

export interface MigratedDatabaseOptions {
  /** node-postgres pool size (PostgreSQL only). */
  poolMax?: number;
}

/** Returns a getter for the database, valid inside the suite's tests and hooks. */
export function useMigratedDatabase(
  source: "pglite" | { acquired: string },
  options: MigratedDatabaseOptions = {},
): () => Database {
  let database: Database | undefined;
  let server: TestDatabase | undefined;

  before(async function () {
    // PGlite compiles and migrates in process: slow on a busy machine.
    this.timeout(120_000);
    if (source !== "pglite") server = await acquireDatabase(source.acquired);
    database = await openDatabase({
      dataDir: ":memory:",
      ...(server?.url ? { databaseUrl: server.url } : {}),
      ...(options.poolMax !== undefined ? { poolMax: options.poolMax } : {}),
    });
    await migrateToLatest(database.knex);
  });

  after(async () => {
    await database?.close();
    await server?.release();
  });

  return () => {
    if (!database) throw new Error("useMigratedDatabase: the database is only open inside the suite");
    return database;
  };
}
