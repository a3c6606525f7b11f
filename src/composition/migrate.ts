import { openDatabase } from "../adapters/persistence/database.js";
import { migrateToLatest } from "../adapters/persistence/migrator.js";
import { createLogger } from "../adapters/logging/winston-logger.js";
import { ConfigError, loadConfig } from "./config.js";

/** `npm run migrate`: applies pending migrations to DATABASE_URL, or PGlite in DATA_DIR. */
async function migrate(): Promise<void> {
  const config = loadConfig();
  const { logger } = createLogger({ level: config.LOG_LEVEL, json: config.NODE_ENV === "production" });
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const applied = await migrateToLatest(database.knex);
    logger.info(applied.length ? "Applied migrations" : "Database is up to date", {
      module: "migrate",
      database: database.kind,
      applied,
    });
  } finally {
    await database.close();
  }
}

migrate().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
