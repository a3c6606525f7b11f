// The app process of `npm run bench:inventory`: the inventory API from the compiled dist/, as
// `npm start` and `hearth start` run it (no tsx in the process, V8's heap sized as they size
// it), on the database the parent seeded. Forked by bench/inventory.ts, which sends "rss" after
// each scenario and disconnects to stop it.
const { keepHeapSmall, letYoungGenerationGrow } = await import("../dist/composition/small-heap.js");
keepHeapSmall();
const { MemoryLogger } = await import("../dist/adapters/logging/memory-logger.js");
const { openDatabase } = await import("../dist/adapters/persistence/database.js");
const { loadConfig } = await import("../dist/composition/config.js");
const { buildInventoryApi } = await import("../dist/composition/inventory-api.js");
const { answerUsageRequests } = await import("./app-usage.mjs");

const config = loadConfig(process.env);
// Without DATABASE_URL: the PGlite database the parent seeded in BENCH_PGLITE_DIR.
const database = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: process.env.BENCH_PGLITE_DIR ?? ":memory:",
  poolMax: Number(process.env.BENCH_POOL_SIZE),
  preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
  // BENCH_PGLITE_TURN=off: PGlite statements without the event loop's turn first, for the
  // `pglite` group's comparison only; every start of Hearth has the turn.
  turnBeforeStatements: process.env.BENCH_PGLITE_TURN !== "off",
});
const api = await buildInventoryApi({ config, database, logger: new MemoryLogger() });
answerUsageRequests();
const server = api.app.listen(0, "127.0.0.1", () => {
  const address = server.address();
  // As `hearth start` does once it has started.
  letYoungGenerationGrow();
  process.send?.({ port: typeof address === "object" && address ? address.port : 0 });
});
process.on("disconnect", async () => {
  server.close();
  server.closeAllConnections();
  // Let handlers still waiting on the database finish before the pool goes away.
  const pool = database.knex.client.pool;
  const deadline = Date.now() + 5000;
  while (pool && pool.numUsed() + pool.numPendingAcquires() > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await api.close();
  await database.close();
});
