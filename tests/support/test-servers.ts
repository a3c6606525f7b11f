/**
 * Finds the servers integration tests run against, in the order ARCHITECTURE.md sets:
 * TEST_* URLs, then testcontainers when a Docker engine answers, then embedded ones.
 * Every acquisition prints which one it used, so a run never skips silently.
 */
import { createId } from "@paralleldrive/cuid2";
import pg from "pg";
import { startEmbeddedBroker } from "../../src/adapters/mqtt/embedded-broker.js";

export interface TestDatabase {
  /** postgres:// URL of a fresh, empty database; undefined means "use in-process PGlite". */
  url: string | undefined;
  kind: "postgres" | "pglite";
  source: "TEST_DATABASE_URL" | "testcontainers" | "embedded";
  release(): Promise<void>;
}

export interface TestBroker {
  url: string;
  host: string;
  port: number;
  source: "TEST_MQTT_URL" | "testcontainers" | "embedded";
  release(): Promise<void>;
}

export interface TestRedis {
  url: string;
  source: "TEST_REDIS_URL" | "testcontainers";
  release(): Promise<void>;
}

function announce(what: string, source: string, detail: string): void {
  console.log(`      [test-servers] ${what}: ${source} (${detail})`);
}

let dockerAnswer: Promise<boolean> | undefined;

/** Whether testcontainers finds a container runtime; asked once per process. */
export function dockerAvailable(): Promise<boolean> {
  dockerAnswer ??= (async () => {
    try {
      const { getContainerRuntimeClient } = await import("testcontainers");
      await getContainerRuntimeClient();
      return true;
    } catch {
      // No runtime is a normal answer on machines without Docker: fall through to embedded.
      return false;
    }
  })();
  return dockerAnswer;
}

/** Creates a uniquely named database on the server at `adminUrl` and returns its URL and a dropper. */
async function createScratchDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `hearth_test_${createId()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/** A fresh PostgreSQL database (or PGlite when no PostgreSQL can be had). */
export async function acquireDatabase(suite: string): Promise<TestDatabase> {
  const fromEnv = process.env.TEST_DATABASE_URL;
  if (fromEnv) {
    const scratch = await createScratchDatabase(fromEnv);
    announce(`${suite} database`, "TEST_DATABASE_URL", "PostgreSQL, scratch database");
    return { url: scratch.url, kind: "postgres", source: "TEST_DATABASE_URL", release: scratch.drop };
  }
  if (await dockerAvailable()) {
    const { PostgreSqlContainer } = await import("@testcontainers/postgresql");
    const container = await new PostgreSqlContainer("postgres:16-alpine").start();
    announce(`${suite} database`, "testcontainers", "postgres:16-alpine");
    return {
      url: container.getConnectionUri(),
      kind: "postgres",
      source: "testcontainers",
      release: async () => {
        await container.stop();
      },
    };
  }
  announce(`${suite} database`, "embedded", "PGlite in memory");
  return { url: undefined, kind: "pglite", source: "embedded", release: async () => {} };
}

/** A reachable MQTT broker shared with others (use unique topic prefixes). */
export async function acquireBroker(suite: string): Promise<TestBroker> {
  const fromEnv = process.env.TEST_MQTT_URL;
  if (fromEnv) {
    const url = new URL(fromEnv);
    announce(`${suite} broker`, "TEST_MQTT_URL", fromEnv);
    return {
      url: fromEnv,
      host: url.hostname,
      port: Number(url.port || 1883),
      source: "TEST_MQTT_URL",
      release: async () => {},
    };
  }
  if (await dockerAvailable()) {
    const { GenericContainer, Wait } = await import("testcontainers");
    const container = await new GenericContainer("eclipse-mosquitto:2")
      .withCommand(["mosquitto", "-c", "/mosquitto-no-auth.conf"])
      .withExposedPorts(1883)
      .withWaitStrategy(Wait.forListeningPorts())
      .start();
    const host = container.getHost();
    const port = container.getMappedPort(1883);
    announce(`${suite} broker`, "testcontainers", "eclipse-mosquitto:2");
    return {
      url: `mqtt://${host}:${port}`,
      host,
      port,
      source: "testcontainers",
      release: async () => {
        await container.stop();
      },
    };
  }
  const broker = await startEmbeddedBroker(0);
  announce(`${suite} broker`, "embedded", `aedes on port ${broker.port}`);
  return {
    url: `mqtt://${broker.host}:${broker.port}`,
    host: broker.host,
    port: broker.port,
    source: "embedded",
    release: () => broker.close(),
  };
}

/** A Redis server, or null (with a loud notice) when none can be had. */
export async function acquireRedis(suite: string): Promise<TestRedis | null> {
  const fromEnv = process.env.TEST_REDIS_URL;
  if (fromEnv) {
    announce(`${suite} redis`, "TEST_REDIS_URL", fromEnv);
    return { url: fromEnv, source: "TEST_REDIS_URL", release: async () => {} };
  }
  if (await dockerAvailable()) {
    const { RedisContainer } = await import("@testcontainers/redis");
    const container = await new RedisContainer("redis:7-alpine").start();
    announce(`${suite} redis`, "testcontainers", "redis:7-alpine");
    return {
      url: container.getConnectionUrl(),
      source: "testcontainers",
      release: async () => {
        await container.stop();
      },
    };
  }
  console.log(
    `\n  !!! [test-servers] ${suite}: SKIPPED — no Redis. Set TEST_REDIS_URL=redis://127.0.0.1:6379 or start a Docker engine.\n`,
  );
  return null;
}

/** A topic prefix no other test (or parallel test run) uses. */
export function uniqueTopicPrefix(label = "t"): string {
  return `hearth-test/${label}-${createId().slice(0, 10)}`;
}
