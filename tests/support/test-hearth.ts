import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import type { Environment } from "../../src/composition/config.js";
import { type RunningHearth, startHearth } from "../../src/composition/hearth.js";
import { acquireBroker, acquireDatabase } from "./test-servers.js";

export interface TestHearth {
  hearth: RunningHearth;
  /** A fresh directory holding DATA_DIR and, unless `env` names another, AUTOMATIONS_DIR. */
  scratch: string;
  /** Stops Hearth and gives back its servers and scratch directory. */
  release(): Promise<void>;
}

/**
 * Boots the whole process as `npm start` does, on free ports, against the test servers
 * (announced by acquireDatabase/acquireBroker) with its log output discarded. `env` adds
 * to or overrides the test defaults.
 */
export async function startTestHearth(label: string, env: Environment = {}): Promise<TestHearth> {
  const database = await acquireDatabase(label);
  const broker = await acquireBroker(label);
  const scratch = await mkdtemp(path.join(tmpdir(), "hearth-test-"));
  const releaseServers = async () => {
    await database.release();
    await broker.release();
    await rm(scratch, { recursive: true, force: true });
  };
  try {
    const hearth = await startHearth({
      env: {
        DATA_DIR: path.join(scratch, "data"),
        AUTOMATIONS_DIR: path.join(scratch, "automations"),
        MQTT_HOST: broker.host,
        MQTT_PORT: String(broker.port),
        LOG_LEVEL: "warn",
        // Most suites talk to the engine API without a token; the secure default has its own tests.
        HTTP_AUTH: "false",
        ...(database.url ? { DATABASE_URL: database.url } : {}),
        ...env,
      },
      apiPort: 0,
      httpPort: 0,
      logStream: new Writable({ write: (_chunk, _encoding, done) => done() }),
    });
    return {
      hearth,
      scratch,
      release: async () => {
        await hearth.stop();
        await releaseServers();
      },
    };
  } catch (error) {
    await releaseServers();
    throw error;
  }
}
