import path from "node:path";
import { expect } from "chai";
import mqtt from "mqtt";
import pg from "pg";
import { type LaunchedProcess, launch, useProcessServers } from "../support/hearth-processes.js";
import { freePort, getJson, waitFor } from "../support/network.js";
import { uniqueTopicPrefix } from "../support/test-servers.js";

const AUTOMATIONS = path.resolve("tests/integration/fixtures/standby-automations");
const MAIN = path.resolve("src/composition/main.ts");

interface Instance {
  name: string;
  process: LaunchedProcess;
  httpPort: number;
}

interface Echo {
  id: number;
  count: number;
  instance: string;
}

/**
 * Hearth processes on one PostgreSQL and one broker, sharing the standby fixtures: each
 * suite gets its own database, broker topics and instances, all killed after the suite.
 */
function useStandbyCluster(label: string, lease = { ttlMs: "1500", renewMs: "500" }) {
  const servers = useProcessServers(label);
  const prefix = uniqueTopicPrefix(label.replaceAll(" ", "-"));
  const instances: Instance[] = [];

  after(async () => {
    for (const instance of instances) {
      if (instance.process.child.exitCode === null && instance.process.child.signalCode === null)
        instance.process.child.kill("SIGKILL");
      await instance.process.exited;
    }
  });

  /** Node runs main.ts itself (not through bin/hearth.js), so SIGKILL reaches the process that holds the lease. */
  async function start(name: string, env: Record<string, string> = {}): Promise<Instance> {
    const httpPort = await freePort();
    const child = launch(process.execPath, ["--conditions=hearth-source", "--import", "tsx", MAIN, "start"], {
      ...servers.env(),
      DATA_DIR: path.join(servers.scratch, name),
      AUTOMATIONS_DIR: AUTOMATIONS,
      API_PORT: "0",
      HTTP_PORT: String(httpPort),
      HTTP_AUTH: "false",
      INSTANCE_NAME: name,
      LEADER_LEASE_TTL_MS: lease.ttlMs,
      LEADER_LEASE_RENEW_MS: lease.renewMs,
      HEARTH_STANDBY_TOPIC_PREFIX: prefix,
      LOG_LEVEL: "info",
      ...env,
    });
    const instance = { name, process: child, httpPort };
    instances.push(instance);
    return instance;
  }

  async function role(instance: Instance): Promise<{ role?: string; leader?: string | null } | null> {
    const answer = await getJson(`http://127.0.0.1:${instance.httpPort}/readyz`).catch(() => null);
    return answer?.status === 200 ? (answer.body as { role?: string; leader?: string | null }) : null;
  }

  /** Starts `leader`, waits for it to lead, then starts `standby` and waits for it to stand by. */
  async function startPair(
    leader: string,
    standby: string,
    leaderEnv: Record<string, string> = {},
  ): Promise<[Instance, Instance]> {
    // A start that never gets there fails with what the process said (a refused connection, say).
    const orSay = (instance: Instance) => (error: unknown) => {
      throw new Error(`${(error as Error).message}; ${instance.name} printed:\n${instance.process.output()}`);
    };
    const first = await start(leader, leaderEnv);
    await waitFor(`${leader} to lead`, async () => (await role(first))?.role === "leader", 60_000).catch(orSay(first));
    const second = await start(standby);
    await waitFor(
      `${standby} to stand by`,
      async () => {
        const seen = await role(second);
        return seen?.role === "standby" && seen.leader === leader;
      },
      60_000,
    ).catch(orSay(second));
    return [first, second];
  }

  /** Skips (loudly) without PostgreSQL: PGlite is one process, so there is nothing to stand by for. */
  function requirePostgres(context: Mocha.Context): void {
    if (servers.database.url) return;
    console.warn(
      "      SKIPPED LOUDLY: hot standby needs PostgreSQL (set TEST_DATABASE_URL or run Docker); PGlite is one process",
    );
    context.skip();
  }

  return { servers, prefix, start, role, startPair, requirePostgres };
}

/**
 * Hot standby with real processes on one PostgreSQL and one broker: two Hearth processes,
 * one leads; kill -9 the leader while messages and cron ticks flow; the standby takes over
 * with the state intact, nothing runs twice, and the ticks it missed are logged.
 */
describe("hot standby: two processes, one leader (integration, kill -9)", function () {
  this.timeout(120_000);
  const { servers, prefix, startPair, requirePostgres } = useStandbyCluster("standby");
  let observer: mqtt.MqttClient | undefined;
  after(() => {
    observer?.end(true);
  });

  it("the standby takes over: no message or cron tick runs twice, the count goes on, missed ticks are logged", async function () {
    requirePostgres(this);
    observer = await mqtt.connectAsync(`mqtt://${servers.broker.host}:${servers.broker.port}`);
    const echoes: Echo[] = [];
    const ticks: { firedAt: string; instance: string }[] = [];
    observer.on("message", (topic, payload) => {
      const body = JSON.parse(payload.toString()) as Record<string, unknown>;
      if (topic.endsWith("/out")) echoes.push(body as unknown as Echo);
      else ticks.push(body as { firedAt: string; instance: string });
    });
    await observer.subscribeAsync([`${prefix}/out`, `${prefix}/tick`], { qos: 1 });

    const [alpha, beta] = await startPair("alpha", "beta");
    const status = await getJson(`http://127.0.0.1:${beta.httpPort}/api/status`);
    expect(status.body).to.deep.include({ role: "standby", instance: "beta", leader: "alpha" });

    // Messages flow one after another; each waits for its answer a while, then the next goes.
    let nextId = 1;
    const send = async () => {
      const id = nextId++;
      await observer?.publishAsync(`${prefix}/in`, JSON.stringify({ id }), { qos: 1 });
      await waitFor(`answer to ${id}`, () => echoes.some((echo) => echo.id === id), 1_000).catch(() => undefined);
    };
    while (echoes.length < 5 || ticks.length < 3) await send();

    const killedAt = Date.now();
    alpha.process.child.kill("SIGKILL");
    await alpha.process.exited;
    while (!echoes.some((echo) => echo.instance === "beta")) {
      await send();
      if (Date.now() - killedAt > 30_000) throw new Error(`beta never took over:\n${beta.process.output()}`);
    }
    console.log(`      beta answered ${Date.now() - killedAt} ms after alpha was killed`);
    for (let more = 0; more < 3; more++) await send();
    await waitFor("beta's ticks", () => ticks.filter((tick) => tick.instance === "beta").length >= 2);

    // No message ran twice, and the count went on from what alpha had saved.
    const ids = echoes.map((echo) => echo.id);
    expect(new Set(ids).size, "each message answered once").to.equal(ids.length);
    const counts = echoes.map((echo) => echo.count);
    for (let at = 1; at < counts.length; at++)
      expect(counts[at], `count after ${counts[at - 1]}`).to.be.greaterThan(counts[at - 1] ?? 0);
    const alphaLast = Math.max(...echoes.filter((echo) => echo.instance === "alpha").map((echo) => echo.count));
    const betaFirst = Math.min(...echoes.filter((echo) => echo.instance === "beta").map((echo) => echo.count));
    // At most one message alpha ran but had no time to answer before it died.
    expect(betaFirst - alphaLast).to.be.within(1, 2);
    const state = await getJson(`http://127.0.0.1:${beta.httpPort}/api/state/count`);
    expect(state.body).to.deep.include({ value: Math.max(...counts) });

    // Every tick fired once, on one instance; beta listed the ticks it missed.
    const firedAt = ticks.map((tick) => tick.firedAt);
    expect(new Set(firedAt).size, "each tick fired once").to.equal(firedAt.length);
    await waitFor("the missed ticks in beta's log", () => beta.process.output().includes("Cron ticks missed"));
  });
});

/**
 * Two processes side by side for a minute of per-second cron ticks, no failover: every
 * second is fired exactly once, by the leader, and none is skipped.
 */
describe("hot standby: a minute of cron ticks on two processes (integration)", function () {
  this.timeout(180_000);
  const { servers, prefix, startPair, role, requirePostgres } = useStandbyCluster("standby minute");
  let observer: mqtt.MqttClient | undefined;
  after(() => {
    observer?.end(true);
  });

  it("fires every tick exactly once across both processes", async function () {
    requirePostgres(this);
    observer = await mqtt.connectAsync(`mqtt://${servers.broker.host}:${servers.broker.port}`);
    const ticks: { firedAt: string; instance: string }[] = [];
    observer.on("message", (_topic, payload) => ticks.push(JSON.parse(payload.toString())));
    await observer.subscribeAsync(`${prefix}/tick`, { qos: 1 });

    const [gamma, delta] = await startPair("gamma", "delta");
    // Count from the first whole second both are up; run for a minute of ticks.
    await waitFor("the first tick", () => ticks.length > 0, 10_000);
    const from = Date.parse(ticks.at(-1)?.firedAt ?? "") + 1000;
    const until = from + 60_000;
    await waitFor("a minute of ticks", () => ticks.some((tick) => Date.parse(tick.firedAt) >= until + 1000), 90_000);
    expect((await role(gamma))?.role, "gamma still leads").to.equal("leader");
    expect((await role(delta))?.role, "delta still stands by").to.equal("standby");

    const inWindow = ticks.filter((tick) => {
      const at = Date.parse(tick.firedAt);
      return at >= from && at < until;
    });
    const seconds = inWindow.map((tick) => tick.firedAt);
    expect(new Set(seconds).size, "no second fired twice").to.equal(seconds.length);
    expect(seconds, "every second of the minute fired").to.have.length(60);
    expect(new Set(inWindow.map((tick) => tick.instance))).to.deep.equal(new Set(["gamma"]));
  });
});

/**
 * The leader loses its database (its role is locked out and its connections are cut) while
 * messages flow: it stops its automations, the standby takes over within 5 s, and no message
 * runs twice.
 */
describe("hot standby: the leader loses its database (integration)", function () {
  this.timeout(120_000);
  const { servers, prefix, startPair, role, requirePostgres } = useStandbyCluster("standby cut");
  const cutRole = `hearth_cut_${process.pid}_${Date.now()}`;
  let observer: mqtt.MqttClient | undefined;
  const admin = async <T>(body: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: servers.database.url });
    await client.connect();
    try {
      return await body(client);
    } finally {
      await client.end();
    }
  };
  after(async () => {
    observer?.end(true);
    if (servers.database?.url) await admin((client) => client.query(`DROP ROLE IF EXISTS ${cutRole}`)).catch(() => {});
  });

  it("the standby takes over within 5 s and no message runs twice", async function () {
    requirePostgres(this);
    await admin((client) => client.query(`CREATE ROLE ${cutRole} LOGIN SUPERUSER`));
    const leaderUrl = new URL(servers.database.url ?? "");
    leaderUrl.username = cutRole;
    leaderUrl.password = "";

    observer = await mqtt.connectAsync(`mqtt://${servers.broker.host}:${servers.broker.port}`);
    const echoes: Echo[] = [];
    observer.on("message", (topic, payload) => {
      if (topic.endsWith("/out")) echoes.push(JSON.parse(payload.toString()) as Echo);
    });
    await observer.subscribeAsync(`${prefix}/out`, { qos: 1 });
    const [lambda, mu] = await startPair("lambda", "mu", { DATABASE_URL: leaderUrl.toString() });

    let nextId = 1;
    const send = async () => {
      const id = nextId++;
      await observer?.publishAsync(`${prefix}/in`, JSON.stringify({ id }), { qos: 1 });
      await waitFor(`answer to ${id}`, () => echoes.some((echo) => echo.id === id), 1_000).catch(() => undefined);
    };
    while (echoes.length < 3) await send();

    const cutAt = Date.now();
    await admin(async (client) => {
      await client.query(`ALTER ROLE ${cutRole} NOLOGIN`);
      await client.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1", [cutRole]);
    });
    await waitFor("mu to lead", async () => (await role(mu))?.role === "leader", 30_000);
    const tookOver = Date.now() - cutAt;
    console.log(`      mu led ${tookOver} ms after lambda lost its database`);
    expect(tookOver, "takeover time").to.be.below(5_000);
    expect((await role(lambda))?.role, "lambda no longer leads").to.not.equal("leader");

    while (!echoes.some((echo) => echo.instance === "mu")) {
      await send();
      if (Date.now() - cutAt > 30_000) throw new Error(`mu never answered:\n${mu.process.output()}`);
    }
    for (let more = 0; more < 3; more++) await send();
    const ids = echoes.map((echo) => echo.id);
    expect(new Set(ids).size, "each message answered once").to.equal(ids.length);
    const counts = echoes.map((echo) => echo.count);
    for (let at = 1; at < counts.length; at++)
      expect(counts[at], `count after ${counts[at - 1]}`).to.be.greaterThan(counts[at - 1] ?? 0);
    expect(lambda.process.output()).to.match(/lease/i);
  });
});

/**
 * The leader is stopped (SIGSTOP, as a stalled board or a paused VM would be) long enough for
 * the standby to take over, while messages arrive for both. When it runs again, the messages
 * that waited in its socket must not run there too: the standby already ran them.
 */
describe("hot standby: the leader stalls past its lease (integration, SIGSTOP)", function () {
  this.timeout(120_000);
  const { servers, prefix, startPair, role, requirePostgres } = useStandbyCluster("standby stall");
  let observer: mqtt.MqttClient | undefined;
  after(() => {
    observer?.end(true);
  });

  it("the woken leader runs none of the messages that waited for it, and steps down", async function () {
    requirePostgres(this);
    observer = await mqtt.connectAsync(`mqtt://${servers.broker.host}:${servers.broker.port}`);
    const echoes: Echo[] = [];
    observer.on("message", (topic, payload) => {
      if (topic.endsWith("/out")) echoes.push(JSON.parse(payload.toString()) as Echo);
    });
    await observer.subscribeAsync(`${prefix}/out`, { qos: 1 });
    const [omicron, pi] = await startPair("omicron", "pi");
    await observer.publishAsync(`${prefix}/in`, JSON.stringify({ id: 0 }), { qos: 1 });
    await waitFor("omicron's answer", () => echoes.some((echo) => echo.instance === "omicron"));

    omicron.process.child.kill("SIGSTOP");
    try {
      await waitFor("pi to lead", async () => (await role(pi))?.role === "leader", 30_000);
      // pi loads its automations after it took the lease; until it has subscribed, messages
      // reach the stopped omicron alone. Send one after another until pi answers, then three more
      // that both get. Every one of them waits in omicron's socket.
      let nextId = 1;
      const send = async () => {
        const id = nextId++;
        await observer?.publishAsync(`${prefix}/in`, JSON.stringify({ id }), { qos: 1 });
        await waitFor(`answer to ${id}`, () => echoes.some((echo) => echo.id === id), 1_000).catch(() => undefined);
      };
      while (!echoes.some((echo) => echo.instance === "pi")) {
        if (nextId > 60) throw new Error(`pi never answered:\n${pi.process.output()}`);
        await send();
      }
      for (let more = 0; more < 3; more++) await send();
    } finally {
      omicron.process.child.kill("SIGCONT");
    }
    await waitFor("omicron to step down", () => omicron.process.output().includes("No longer the engine leader"));
    await waitFor("omicron to drop what it held", () =>
      omicron.process.output().includes("Firings held for the engine lease were not run"),
    );
    // One more message after omicron stepped down: answered once, by pi; by then anything
    // omicron would have run has long been answered too.
    await observer.publishAsync(`${prefix}/in`, JSON.stringify({ id: 1000 }), { qos: 1 });
    await waitFor("the answer to 1000", () => echoes.some((echo) => echo.id === 1000));
    expect(echoes.filter((echo) => echo.instance === "omicron").map((echo) => echo.id)).to.deep.equal([0]);
    const ids = echoes.map((echo) => echo.id);
    expect(new Set(ids).size, "each message answered once").to.equal(ids.length);
    expect((await role(omicron))?.role).to.equal("standby");
  });
});

/**
 * A standby keeps no state and runs no automations: every write route of its engine API
 * answers 503 naming the leader (with Retry-After) instead of acknowledging a change it
 * drops; reads still answer; the leader takes the same writes.
 */
describe("hot standby: a standby refuses changes (integration)", function () {
  this.timeout(120_000);
  // No failover here: a longer lease keeps a leader on a loaded machine from being, for a
  // moment, unsure of its lease (it then refuses writes too, rightly, with Retry-After: 1).
  const { startPair, requirePostgres } = useStandbyCluster("standby writes", { ttlMs: "9000", renewMs: "3000" });

  it("answers 503 naming the leader to every write route, and the leader stores them", async function () {
    requirePostgres(this);
    const [leader, standby] = await startPair("nu", "xi");
    const at = (instance: Instance, route: string) => `http://127.0.0.1:${instance.httpPort}${route}`;
    const json = { "content-type": "application/json" };
    const writes: { method: string; route: string; body?: unknown }[] = [
      { method: "PUT", route: "/api/state/greeting", body: { value: "hello" } },
      { method: "DELETE", route: "/api/state/greeting" },
      { method: "POST", route: "/api/automations/counter/trigger", body: { type: "mqtt", topic: "x" } },
      { method: "POST", route: "/api/services/lightPanels/desk/pair" },
      { method: "POST", route: "/webhook/doorbell", body: {} },
      { method: "GET", route: "/webhook/doorbell" },
    ];
    // All at once, as a client that last found this instance leading would send them.
    const answers = await Promise.all(
      writes.map(({ method, route, body }) =>
        fetch(at(standby, route), { method, headers: json, ...(body ? { body: JSON.stringify(body) } : {}) }),
      ),
    );
    for (const [index, answer] of answers.entries()) {
      const { method, route } = writes[index] ?? { method: "", route: "" };
      expect(answer.status, `${method} ${route} on the standby`).to.equal(503);
      expect(answer.headers.get("retry-after"), `${method} ${route} Retry-After`).to.match(/^\d+$/);
      const body = (await answer.json()) as { message: string; leader: string };
      expect(body.leader).to.equal("nu");
      expect(body.message).to.include("nu");
    }
    const read = await getJson(at(standby, "/api/state/greeting"));
    expect(read.status, "reads still answer on the standby").to.equal(200);
    expect(read.body).to.include({ exists: false });

    const stored = await fetch(at(leader, "/api/state/greeting"), {
      method: "PUT",
      headers: json,
      body: JSON.stringify({ value: "hello" }),
    });
    expect(stored.status).to.equal(200);
    const rang = await fetch(at(leader, "/webhook/doorbell"), { method: "POST", headers: json, body: "{}" });
    expect(rang.status).to.equal(200);
    expect((await getJson(at(leader, "/api/state/rang"))).body).to.deep.include({ value: { by: "nu" } });
  });
});
