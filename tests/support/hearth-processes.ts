import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { acquireBroker, acquireDatabase, type TestBroker, type TestDatabase } from "./test-servers.js";

/** What a suite that runs Hearth processes shares: the test servers and a scratch folder. */
export interface ProcessServers {
  database: TestDatabase;
  broker: TestBroker;
  scratch: string;
  /** The servers as Hearth's environment (DATABASE_URL when PostgreSQL, MQTT_HOST, MQTT_PORT). */
  env(): Record<string, string>;
}

/**
 * Acquires the test servers and a scratch folder in `before` and gives them back in `after`
 * (call inside a describe). Read the fields inside tests and hooks, not at load time.
 */
export function useProcessServers(label: string): ProcessServers {
  // Filled in by before(); tests only read the fields once it ran.
  const servers = {
    env(): Record<string, string> {
      return {
        MQTT_HOST: servers.broker.host,
        MQTT_PORT: String(servers.broker.port),
        ...(servers.database.url ? { DATABASE_URL: servers.database.url } : {}),
      };
    },
  } as unknown as ProcessServers;
  before(async () => {
    servers.database = await acquireDatabase(label);
    servers.broker = await acquireBroker(label);
    servers.scratch = await mkdtemp(path.join(tmpdir(), "hearth-process-"));
  });
  after(async () => {
    await servers.database?.release();
    await servers.broker?.release();
    if (servers.scratch) await rm(servers.scratch, { recursive: true, force: true });
  });
  return servers;
}

export { assertCompiledRuntimeFresh, type LaunchedProcess, launch } from "./launch.js";
