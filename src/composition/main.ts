import "reflect-metadata";
import { existsSync } from "node:fs";
import { ConfigError } from "./config.js";
import { type RunningHearth, startHearth } from "./hearth.js";

const SHUTDOWN_LIMIT_MS = 10_000;

/** Entry point of `npm start`: boots Hearth and stops it cleanly on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  // A .env file (or ENV_FILE) fills in variables the environment does not already set.
  const envFile = process.env.ENV_FILE ?? ".env";
  if (existsSync(envFile)) process.loadEnvFile(envFile);

  let hearth: RunningHearth;
  try {
    hearth = await startHearth();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
    } else {
      console.error("Hearth failed to start:", error instanceof Error ? error.message : error);
      if (error instanceof Error && error.stack) console.error(error.stack);
    }
    process.exit(1);
  }

  let signalled = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (signalled) return;
    signalled = true;
    hearth.logger.info(`Received ${signal}, shutting down`, { module: "hearth" });
    const limit = setTimeout(() => {
      hearth.logger.fatal(`Shutdown took longer than ${SHUTDOWN_LIMIT_MS / 1000} s; exiting`, { module: "hearth" });
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS - 500);
    limit.unref();
    hearth
      .stop()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        hearth.logger.fatal("Shutdown failed", { module: "hearth", err: error });
        process.exit(1);
      });
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}

void main();
