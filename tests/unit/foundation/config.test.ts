import { expect } from "chai";
import { ConfigError, loadConfig } from "../../../src/composition/config.js";

function problemsOf(env: Record<string, string>): { variable: string; message: string }[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error("expected loadConfig to throw");
}

describe("loadConfig", () => {
  it("applies the embedded defaults to an empty environment", () => {
    const config = loadConfig({});
    expect(config).to.include({
      NODE_ENV: "development",
      LOG_LEVEL: "info",
      API_PORT: 3000,
      HTTP_PORT: 8080,
      MQTT_PORT: 1883,
      DATA_DIR: "./data",
      AUTOMATIONS_DIR: "./automations",
      AUTOMATIONS_RECURSIVE: false,
      STATE_PERSIST: true,
      STATE_FILE_PATH: "data/state.json",
      HTTP_AUTH: true,
      DEVICE_REGISTRY_FILE_PATH: "./device-registry.json",
      ZIGBEE2MQTT_PREFIX: "zigbee2mqtt",
      RATE_LIMIT_PER_MINUTE: 100,
      AUTH_RATE_LIMIT_PER_MINUTE: 10,
      ITEM_LIST_CACHE_SIZE: 500,
      JWT_ACCESS_TTL: 900,
      JWT_REFRESH_TTL: 30 * 86400,
      JWT_REFRESH_REUSE_INTERVAL: 30,
      METRICS_ENABLED: false,
    });
    expect(config.DATABASE_URL).to.equal(undefined);
    expect(config.MQTT_HOST).to.equal(undefined);
    expect(config.CORS_ORIGINS).to.deep.equal([]);
  });

  it("keeps state in DATA_DIR for the service, and follows the spec (off, ./state.json) for the library", () => {
    expect(loadConfig({ DATA_DIR: "/var/lib/hearth" })).to.include({
      STATE_PERSIST: true,
      STATE_FILE_PATH: "/var/lib/hearth/state.json",
    });
    expect(loadConfig({}, { surface: "library" })).to.include({
      STATE_PERSIST: false,
      STATE_FILE_PATH: "./state.json",
    });
    expect(loadConfig({ STATE_PERSIST: "false" })).to.include({ STATE_PERSIST: false });
    expect(loadConfig({ STATE_PERSIST: "", STATE_FILE_PATH: "/x/s.json" })).to.include({
      STATE_PERSIST: true,
      STATE_FILE_PATH: "/x/s.json",
    });
    expect(loadConfig({ HTTP_AUTH: "false" }).HTTP_AUTH).to.equal(false);
  });

  for (const [text, value] of [
    ["true", true],
    ["FALSE", false],
    ["1", true],
    ["0", false],
    ["yes", true],
    ["No", false],
  ] as const) {
    it(`reads the boolean "${text}" as ${value}`, () => {
      expect(loadConfig({ STATE_PERSIST: text }).STATE_PERSIST).to.equal(value);
    });
  }

  it("names every invalid variable and what it allows", () => {
    const problems = problemsOf({ HTTP_PORT: "http", WEB_UI_ENABLED: "maybe", LOG_LEVEL: "loud", API_PORT: "70000" });
    const byVariable = Object.fromEntries(problems.map((problem) => [problem.variable, problem.message]));
    expect(Object.keys(byVariable)).to.have.members(["HTTP_PORT", "WEB_UI_ENABLED", "LOG_LEVEL", "API_PORT"]);
    expect(byVariable.WEB_UI_ENABLED).to.contain("true, false, 1, 0, yes, no");
    expect(byVariable.API_PORT).to.contain("0-65535");
  });

  it("takes an item-list cache size of 0 (off) or more, and nothing else", () => {
    expect(loadConfig({ ITEM_LIST_CACHE_SIZE: "0" }).ITEM_LIST_CACHE_SIZE).to.equal(0);
    expect(loadConfig({ ITEM_LIST_CACHE_SIZE: "2000" }).ITEM_LIST_CACHE_SIZE).to.equal(2000);
    expect(() => loadConfig({ ITEM_LIST_CACHE_SIZE: "-1" })).to.throw(
      ConfigError,
      /ITEM_LIST_CACHE_SIZE: expected 0 or more/,
    );
    expect(() => loadConfig({ ITEM_LIST_CACHE_SIZE: "lots" })).to.throw(ConfigError, /ITEM_LIST_CACHE_SIZE/);
  });

  it("bounds MQTT messages at 16 MB by default, and takes 64 KB up to MQTT's largest packet", () => {
    expect(loadConfig({}).MQTT_MAX_MESSAGE_BYTES).to.equal(16 * 1024 * 1024);
    expect(loadConfig({ MQTT_MAX_MESSAGE_BYTES: "1048576" }).MQTT_MAX_MESSAGE_BYTES).to.equal(1_048_576);
    expect(() => loadConfig({ MQTT_MAX_MESSAGE_BYTES: "1000" })).to.throw(
      ConfigError,
      /MQTT_MAX_MESSAGE_BYTES: expected at least 65536/,
    );
    expect(() => loadConfig({ MQTT_MAX_MESSAGE_BYTES: "300000000" })).to.throw(ConfigError, /at most 268435455/);
    expect(() => loadConfig({ MQTT_MAX_MESSAGE_BYTES: "16MB" })).to.throw(ConfigError, /MQTT_MAX_MESSAGE_BYTES/);
  });

  it("reads the hot standby settings and refuses a renewal period over half the lease", () => {
    expect(loadConfig({})).to.include({ HOT_STANDBY: true, LEADER_LEASE_TTL_MS: 3000, LEADER_LEASE_RENEW_MS: 1000 });
    expect(loadConfig({}).INSTANCE_NAME).to.equal(undefined);
    expect(
      loadConfig({
        HOT_STANDBY: "false",
        INSTANCE_NAME: "attic",
        LEADER_LEASE_TTL_MS: "1500",
        LEADER_LEASE_RENEW_MS: "500",
      }),
    ).to.include({
      HOT_STANDBY: false,
      INSTANCE_NAME: "attic",
      LEADER_LEASE_TTL_MS: 1500,
      LEADER_LEASE_RENEW_MS: 500,
    });
    expect(() => loadConfig({ LEADER_LEASE_TTL_MS: "3000", LEADER_LEASE_RENEW_MS: "2000" })).to.throw(
      ConfigError,
      /LEADER_LEASE_RENEW_MS: expected at most half/,
    );
    expect(() => loadConfig({ LEADER_LEASE_TTL_MS: "soon" })).to.throw(ConfigError, /LEADER_LEASE_TTL_MS/);
    expect(() => loadConfig({ LEADER_LEASE_TTL_MS: "100" })).to.throw(
      ConfigError,
      /LEADER_LEASE_TTL_MS: expected at least 200/,
    );
    expect(() => loadConfig({ HOT_STANDBY: "maybe" })).to.throw(ConfigError, /HOT_STANDBY/);
  });

  it("takes an IANA time zone for TZ and names TZ when it is not one", () => {
    expect(loadConfig({ TZ: "Europe/Berlin" }).TZ).to.equal("Europe/Berlin");
    expect(loadConfig({ TZ: "UTC" }).TZ).to.equal("UTC");
    expect(loadConfig({ TZ: "" }).TZ).to.equal(undefined);
    expect(() => loadConfig({ TZ: "Mars/Olympus_Mons" })).to.throw(ConfigError, /TZ: expected an IANA time zone/);
  });

  it("formats the error message with one line per variable", () => {
    expect(() => loadConfig({ MQTT_PORT: "-1" })).to.throw(ConfigError, /MQTT_PORT: expected 0-65535/);
  });

  it("requires JWT_SECRET in production", () => {
    expect(problemsOf({ NODE_ENV: "production" })[0]?.variable).to.equal("JWT_SECRET");
    expect(loadConfig({ NODE_ENV: "production", JWT_SECRET: "x".repeat(32) }).JWT_SECRET).to.have.length(32);
  });

  it("validates DATABASE_URL fully and names the problem", () => {
    const problem = (url: string) =>
      problemsOf({ DATABASE_URL: url }).find((p) => p.variable === "DATABASE_URL")?.message;
    expect(problem("postgres://postgres@127.0.0.1:notaport/db")).to.include('the port "notaport" is not a number');
    expect(problem("postgres://")).to.include("host is missing");
    expect(problem("postgres://postgres@127.0.0.1:5432/")).to.include("database name is missing");
    expect(problem("postgres://127.0.0.1:5432/db")).to.include("user name is missing");
    expect(problem("http://u@h/db")).to.include("must start with postgres://");
    expect(loadConfig({ DATABASE_URL: "postgresql://u:p@db.lan:5433/hearth" }).DATABASE_URL).to.equal(
      "postgresql://u:p@db.lan:5433/hearth",
    );
  });

  it("parses DATABASE_URL, REDIS_URL and MQTT_HOST with the URL parser, ports in 1-65535", () => {
    const problem = (env: Record<string, string>, variable: string) =>
      problemsOf(env).find((p) => p.variable === variable)?.message;
    expect(problem({ DATABASE_URL: "postgres://u@127.0.0.1:99999/db" }, "DATABASE_URL")).to.include(
      "the port 99999 is outside 1-65535",
    );
    expect(problem({ DATABASE_URL: "postgres://u@db host/db" }, "DATABASE_URL")).to.include("contains a space");
    expect(problem({ REDIS_URL: "redis://127.0.0.1:99999" }, "REDIS_URL")).to.include("port 99999 is outside");
    expect(problem({ REDIS_URL: "http://127.0.0.1:6379" }, "REDIS_URL")).to.include("redis:// or rediss://");
    expect(problem({ REDIS_URL: "redis://" }, "REDIS_URL")).to.include("host is missing");
    expect(problem({ MQTT_HOST: "broker lan" }, "MQTT_HOST")).to.include("contains a space");
    expect(problem({ MQTT_HOST: "mqtt://broker.lan" }, "MQTT_HOST")).to.include("without a scheme");
    expect(problem({ MQTT_HOST: "broker.lan:1883" }, "MQTT_HOST")).to.include("MQTT_PORT");
    expect(problem({ MQTT_HOST: "bro%ker" }, "MQTT_HOST")).to.include("expected a host name");
    const config = loadConfig({ REDIS_URL: "rediss://:pw@cache.lan:6380/1", MQTT_HOST: " broker.lan " });
    expect(config.REDIS_URL).to.equal("rediss://:pw@cache.lan:6380/1");
    expect(config.MQTT_HOST).to.equal("broker.lan");
    expect(problem({ MQTT_HOST: "::1" }, "MQTT_HOST")).to.include("in brackets: [::1]");
    expect(loadConfig({ MQTT_HOST: "[::1]" }).MQTT_HOST).to.equal("[::1]");
  });

  it("rejects a short JWT_SECRET and a non-postgres DATABASE_URL", () => {
    const variables = problemsOf({ JWT_SECRET: "short", DATABASE_URL: "mysql://db" }).map((p) => p.variable);
    expect(variables).to.have.members(["JWT_SECRET", "DATABASE_URL"]);
  });

  it("treats empty optional values as unset", () => {
    const config = loadConfig({ HTTP_TOKEN: "", MQTT_HOST: " ", DATABASE_URL: "" });
    expect(config.HTTP_TOKEN).to.equal(undefined);
    expect(config.MQTT_HOST).to.equal(undefined);
    expect(config.DATABASE_URL).to.equal(undefined);
  });

  it("parses durations, CORS origins and trust proxy", () => {
    const config = loadConfig({
      JWT_ACCESS_TTL: "15m",
      JWT_REFRESH_TTL: "7d",
      CORS_ORIGINS: "https://a.example, https://b.example",
      TRUST_PROXY: "2",
    });
    expect(config.JWT_ACCESS_TTL).to.equal(900);
    expect(config.JWT_REFRESH_TTL).to.equal(7 * 86400);
    expect(config.CORS_ORIGINS).to.deep.equal(["https://a.example", "https://b.example"]);
    expect(config.TRUST_PROXY).to.equal(2);
    expect(loadConfig({ TRUST_PROXY: "loopback" }).TRUST_PROXY).to.equal("loopback");
    expect(loadConfig({ TRUST_PROXY: "loopback, 10.0.0.0/8,192.168.1.2, fd00::/8" }).TRUST_PROXY).to.equal(
      "loopback, 10.0.0.0/8, 192.168.1.2, fd00::/8",
    );
    for (const bad of ["proxy.lan", "10.0.0.0/33", "loopback, nonsense", "1.2.3.4/8/9"]) {
      expect(
        problemsOf({ TRUST_PROXY: bad }).map((p) => p.variable),
        bad,
      ).to.deep.equal(["TRUST_PROXY"]);
    }
    expect(problemsOf({ JWT_ACCESS_TTL: "soon" })[0]?.variable).to.equal("JWT_ACCESS_TTL");
  });
});

describe("loadConfig: inventory events, MQTT summary and reminders", () => {
  it("has defaults, reads durations and switches, and trims a trailing slash off the prefix", () => {
    const defaults = loadConfig({});
    expect(defaults).to.include({
      INVENTORY_EVENTS_POLL_MS: 500,
      INVENTORY_EVENTS_RETENTION: 7 * 86400,
      INVENTORY_MQTT_ENABLED: true,
      INVENTORY_MQTT_PREFIX: "hearth/inventory",
      HA_DISCOVERY_ENABLED: true,
      HA_DISCOVERY_PREFIX: "homeassistant",
      REMINDER_CHECK_INTERVAL: 60,
    });
    const set = loadConfig({
      INVENTORY_EVENTS_RETENTION: "2d",
      INVENTORY_MQTT_ENABLED: "no",
      INVENTORY_MQTT_PREFIX: "home/freezers/",
      REMINDER_CHECK_INTERVAL: "5m",
    });
    expect(set).to.include({
      INVENTORY_EVENTS_RETENTION: 172800,
      INVENTORY_MQTT_ENABLED: false,
      INVENTORY_MQTT_PREFIX: "home/freezers",
      REMINDER_CHECK_INTERVAL: 300,
    });
  });

  it("names a bad value's variable", () => {
    expect(problemsOf({ INVENTORY_MQTT_PREFIX: "hearth/#" }).map((p) => p.variable)).to.deep.equal([
      "INVENTORY_MQTT_PREFIX",
    ]);
    expect(problemsOf({ INVENTORY_EVENTS_POLL_MS: "0" }).map((p) => p.variable)).to.deep.equal([
      "INVENTORY_EVENTS_POLL_MS",
    ]);
    expect(problemsOf({ INVENTORY_EVENTS_POLL_MS: "120000" }).map((p) => p.variable)).to.deep.equal([
      "INVENTORY_EVENTS_POLL_MS",
    ]);
    expect(problemsOf({ HA_DISCOVERY_ENABLED: "maybe" }).map((p) => p.variable)).to.deep.equal([
      "HA_DISCOVERY_ENABLED",
    ]);
    expect(problemsOf({ REMINDER_CHECK_INTERVAL: "often" }).map((p) => p.variable)).to.deep.equal([
      "REMINDER_CHECK_INTERVAL",
    ]);
  });

  it("leaves the product lookup off unless PRODUCT_LOOKUP_URL names an http(s) URL", () => {
    const problem = (value: string) =>
      problemsOf({ PRODUCT_LOOKUP_URL: value }).find((p) => p.variable === "PRODUCT_LOOKUP_URL")?.message;
    expect(loadConfig({}).PRODUCT_LOOKUP_URL).to.equal(undefined);
    expect(loadConfig({ PRODUCT_LOOKUP_URL: "" }).PRODUCT_LOOKUP_URL).to.equal(undefined);
    expect(loadConfig({ PRODUCT_LOOKUP_URL: "https://world.openfoodfacts.org/" }).PRODUCT_LOOKUP_URL).to.equal(
      "https://world.openfoodfacts.org",
    );
    expect(problem("ftp://world.openfoodfacts.org")).to.include("http:// or https://");
    expect(problem("https://off.lan:99999")).to.include("port 99999 is outside");
    expect(problem("world.openfoodfacts.org")).to.include("scheme is missing");
  });
});
