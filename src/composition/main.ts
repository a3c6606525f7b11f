import "reflect-metadata";
import { existsSync } from "node:fs";
import { runCli } from "../adapters/cli/cli.js";
import { FileAutomationSource } from "../adapters/loading/file-automation-source.js";
import { NativeTypeChecker, nativeCompilerPath } from "../adapters/typecheck/native-type-checker.js";
import { formatDiagnostic, TypeScriptChecker } from "../adapters/typecheck/typescript-checker.js";
import { createLogger } from "../adapters/logging/winston-logger.js";
import { openDatabase } from "../adapters/persistence/database.js";
import { migrateToLatest } from "../adapters/persistence/migrator.js";
import { ConfigError, loadConfig } from "./config.js";
import { type RunningHearth, startHearth } from "./hearth.js";
import { letYoungGenerationGrow } from "./small-heap.js";
import { stopOnSignals } from "./lifecycle.js";
import { HEARTH_VERSION } from "./version.js";
import { backupCommand, restoreCommand } from "./backup-commands.js";
import type { Logger } from "../ports/logger.js";
import { runHouseholdTransfer } from "./household-transfer-cli.js";
import { runAdminCommand } from "./admin-cli.js";

/** Prints a start failure once: a configuration problem as its message, anything else with its reason. */
function reportStartFailure(error: unknown): void {
  if (error instanceof ConfigError) {
    console.error(error.message);
    return;
  }
  console.error(`Hearth failed to start: ${error instanceof Error ? error.message : String(error)}`);
  if (process.env.LOG_LEVEL === "debug" || process.env.LOG_LEVEL === "trace") {
    if (error instanceof Error && error.stack) console.error(error.stack);
  }
}

/** `hearth start`: boots everything and stops it cleanly on SIGINT/SIGTERM (exit 0). */
async function start(): Promise<number | "running"> {
  // Held from the first moment, not once the start is done: the API answers health checks before
  // the start has finished, and a service manager's SIGTERM in that window would otherwise kill
  // the process by default, mid-start, with the database open. A signal now lets the start
  // finish (or fail and unwind itself), then stops everything in order. The handler goes in
  // before the start begins: the start's first log line can reach a supervisor before the
  // start returns its promise, and a SIGTERM that answers it must already find the handler.
  let logger: Logger | undefined;
  let starting: Promise<RunningHearth> | undefined;
  stopOnSignals(
    async () => {
      const hearth = await starting?.catch(() => undefined);
      await hearth?.stop();
    },
    {
      logger: () =>
        (logger ??= createLogger({ level: "info", json: process.env.NODE_ENV === "production" }).logger.child({
          module: "hearth",
        })),
    },
  );
  starting = startHearth();
  try {
    const hearth = await starting;
    logger ??= hearth.logger.child({ module: "hearth" });
    letYoungGenerationGrow();
    return "running";
  } catch (error) {
    reportStartFailure(error);
    return 1;
  }
}

/** `hearth migrate`: applies pending migrations to DATABASE_URL, or PGlite in DATA_DIR. */
async function migrate(): Promise<number> {
  try {
    const config = loadConfig();
    const { logger } = createLogger({ level: config.LOG_LEVEL, json: config.NODE_ENV === "production" });
    const progress = (message: string) => logger.info(message, { module: "migrate" });
    const database = await openDatabase({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
      progress,
      migratesAfterOpening: true,
    });
    try {
      const applied = await migrateToLatest(database.knex, undefined, progress, (message) =>
        logger.warn(message, { module: "migrate" }),
      );
      logger.info(applied.length ? "Applied migrations" : "Database is up to date", {
        module: "migrate",
        database: database.kind,
        applied,
      });
    } finally {
      await database.close();
    }
    return 0;
  } catch (error) {
    console.error(
      error instanceof ConfigError
        ? error.message
        : `Migration failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  }
}

/**
 * `hearth check [dir]`: type-checks the automations (AUTOMATIONS_DIR by default) against
 * Hearth's types with the TypeScript compiler; prints file:line:col diagnostics and exits 1
 * when there are errors, 2 when the check could not run.
 */
async function check(
  args: string[],
  out = (line: string) => console.log(line),
  err = (line: string) => console.error(line),
): Promise<number> {
  try {
    const config = loadConfig(process.env, { inventory: false });
    const dir = args.find((arg) => !arg.startsWith("-")) ?? config.AUTOMATIONS_DIR;
    const files = (await new FileAutomationSource().listFiles(dir, config.AUTOMATIONS_RECURSIVE)).filter((file) =>
      /\.m?ts$/.test(file),
    );
    if (files.length === 0) {
      out(`No TypeScript automations in ${dir}; nothing to check.`);
      return 0;
    }
    const compiler = nativeCompilerPath();
    const diagnostics = compiler
      ? await new NativeTypeChecker({ compiler, fallback: new TypeScriptChecker() }).check(files)
      : await new TypeScriptChecker().check(files);
    for (const diagnostic of diagnostics) err(formatDiagnostic(diagnostic));
    const failing = new Set(diagnostics.map((diagnostic) => diagnostic.file)).size;
    out(
      diagnostics.length === 0
        ? `Checked ${files.length} automation file(s): no type errors.`
        : `Found ${diagnostics.length} type error(s) in ${failing} of ${files.length} automation file(s).`,
    );
    return diagnostics.length === 0 ? 0 : 1;
  } catch (error) {
    err(
      error instanceof ConfigError
        ? error.message
        : `hearth check failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 2;
  }
}

/** Entry point of the `hearth` command and of `npm start`. */
async function main(): Promise<void> {
  // A .env file (or ENV_FILE) fills in variables the environment does not already set.
  const envFile = process.env.ENV_FILE ?? ".env";
  if (existsSync(envFile)) process.loadEnvFile(envFile);
  const outcome = await runCli(process.argv.slice(2), {
    name: "hearth",
    version: HEARTH_VERSION,
    commands: {
      start: { summary: "run the inventory API and the automation engine until SIGINT/SIGTERM", run: start },
      migrate: { summary: "apply pending database migrations, then exit", run: migrate },
      check: {
        summary: "type-check the automations directory ([dir], default AUTOMATIONS_DIR); exit 1 on errors",
        run: (args) => check(args),
      },
      backup: {
        summary: "write DATA_DIR and the embedded database to one archive (<file>), also while running",
        run: backupCommand,
      },
      restore: {
        summary: "restore a backup archive (<file>) into an empty DATA_DIR (--force replaces)",
        run: restoreCommand,
      },
      export: {
        summary: "export a household to a file: --household <id> [--format json|csv] <file>",
        run: (args) => runHouseholdTransfer("export", args),
      },
      import: {
        summary:
          "import a household file (validated first, one transaction): --household <id> [--format json|csv] <file>",
        run: (args) => runHouseholdTransfer("import", args),
      },
      admin: {
        summary: "make an account an admin of this Hearth or take it back: grant|revoke <email>, or list",
        run: (args) => runAdminCommand(args),
      },
    },
  });
  if (outcome !== "running") process.exit(outcome);
}

void main();
