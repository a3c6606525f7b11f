import { isIP } from "node:net";
import { join as joinPath } from "node:path";
import { z } from "zod";
import { vapidKeyProblem } from "../adapters/security/vapid-key-check.js";
import { serviceConfigProblems, serviceEnvShape } from "./service-config.js";
import { homeKitEnvShape } from "./homekit-config.js";
import { brokerHostProblem, HTTP_SCHEMES, parseUrlSetting, urlSetting } from "./url-setting.js";

import { isTimeZone } from "../domain/shared/local-time.js";

/** Accepts true/false/1/0/yes/no (any case); anything else is a validation error. */
const booleanFlag = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(["true", "false", "1", "0", "yes", "no"], { message: "expected one of true, false, 1, 0, yes, no" }))
  .transform((value) => value === "true" || value === "1" || value === "yes");

const port = z.coerce
  .number({ message: "expected a port number" })
  .int("expected a whole number")
  .min(0, "expected 0-65535")
  .max(65535, "expected 0-65535");

const positiveInt = z.coerce
  .number({ message: "expected a number" })
  .int("expected a whole number")
  .positive("expected a number above 0");

/** Durations like `900`, `15m`, `12h`, `30d` (seconds when no unit). Parsed to seconds. */
const durationOrZero = z
  .string()
  .trim()
  .regex(/^\d+\s*[smhd]?$/, "expected a duration like 900, 15m, 12h or 30d")
  .transform((value) => {
    const amount = Number.parseInt(value, 10);
    const unit = value.replace(/[\d\s]/g, "") || "s";
    const factor = { s: 1, m: 60, h: 3600, d: 86400 }[unit] ?? 1;
    return amount * factor;
  });
const duration = durationOrZero.refine((seconds) => seconds > 0, "expected a duration above 0");

const PROXY_PRESETS = new Set(["loopback", "linklocal", "uniquelocal"]);

/** One entry of an express trust-proxy list: a preset name, an IP address, or a CIDR subnet. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_PRESETS.has(entry.toLowerCase())) return true;
  const [address, prefix, extra] = entry.split("/");
  if (extra !== undefined || address === undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d+$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * What is wrong with a PostgreSQL URL, or null. Checked here so that `postgres://` or a
 * non-numeric port stops the start naming DATABASE_URL, instead of failing later with
 * "no PostgreSQL user name specified in startup packet".
 */
function databaseUrlProblem(value: string): string | null {
  const expected = "expected postgres://user:password@host:5432/database";
  const url = parseUrlSetting(value, ["postgres", "postgresql"]);
  if (typeof url === "string") {
    if (!/^postgres(ql)?:\/\//i.test(value)) return `${expected} (it must start with postgres:// or postgresql://)`;
    return `${expected}${url.slice(url.indexOf(" ("))}`;
  }
  if (url.username === "") return `${expected} (the user name is missing)`;
  if (url.pathname.replace(/^\//, "") === "") return `${expected} (the database name is missing)`;
  return null;
}

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === "" ? undefined : value));

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  LOG_LEVEL: z.enum(["trace", "debug", "info", "warn", "error", "fatal"]).default("info"),
  // Cron triggers are read in this zone: a misspelt one must stop the boot, not every cron automation.
  TZ: optionalText.refine((zone) => zone === undefined || isTimeZone(zone), {
    message: "expected an IANA time zone such as Europe/Berlin or UTC",
  }),
  DATA_DIR: z.string().trim().min(1).default("./data"),

  // Inventory API
  DATABASE_URL: optionalText.superRefine((value, context) => {
    const problem = value === undefined ? null : databaseUrlProblem(value);
    if (problem) context.addIssue({ code: "custom", message: problem });
  }),
  /** Named prepared statements for the hot item statements on PostgreSQL; false behind a pooler that drops them. */
  DATABASE_PREPARED_STATEMENTS: booleanFlag.default(true),
  API_PORT: port.default(3000),
  JWT_SECRET: optionalText.pipe(z.string().min(32, "expected at least 32 characters").optional()),
  JWT_ACCESS_TTL: duration.default(900),
  JWT_REFRESH_TTL: duration.default(30 * 86400),
  /** How long a just-rotated refresh token still yields its successor (a lost race between two tabs). */
  JWT_REFRESH_REUSE_INTERVAL: durationOrZero.default(30),
  RATE_LIMIT_PER_MINUTE: positiveInt.default(100),
  AUTH_RATE_LIMIT_PER_MINUTE: positiveInt.default(10),
  /** Item-list pages kept for reuse while their household's items are unchanged; 0 turns it off. */
  ITEM_LIST_CACHE_SIZE: z.coerce
    .number({ message: "expected a number" })
    .int("expected a whole number")
    .min(0, "expected 0 or more")
    .max(100_000, "expected at most 100000")
    .default(500),
  /** Largest item photo upload in bytes (PUT …/photo and each photo of an import); default 10 MB. */
  PHOTO_MAX_BYTES: z.coerce
    .number({ message: "expected a number of bytes" })
    .int("expected a whole number of bytes")
    .min(64 * 1024, "expected at least 65536 (64 KB)")
    .max(50 * 1024 * 1024, "expected at most 52428800 (50 MB)")
    .default(10 * 1024 * 1024),
  /** The built web app served at `/` on API_PORT; unset = the package's own web/dist. */
  WEB_APP_DIR: optionalText,
  REDIS_URL: optionalText.pipe(urlSetting(["redis", "rediss"]).optional()),
  CORS_ORIGINS: optionalText.transform((value) =>
    value === undefined
      ? []
      : value
          .split(",")
          .map((origin) => origin.trim())
          .filter(Boolean),
  ),
  /**
   * Express "trust proxy": false, true, a hop count, or (recommended) the proxies' addresses:
   * `loopback`, `linklocal`, `uniquelocal`, IP addresses and CIDR subnets, comma-separated.
   */
  TRUST_PROXY: optionalText.transform((value, context): boolean | number | string => {
    if (value === undefined) return false;
    const lowered = value.trim().toLowerCase();
    if (["true", "yes"].includes(lowered)) return true;
    if (["false", "no", "0"].includes(lowered)) return false;
    if (/^\d+$/.test(lowered)) return Number.parseInt(lowered, 10);
    const entries = value.split(",").map((entry) => entry.trim());
    const bad = entries.filter((entry) => !isProxyAddress(entry));
    if (bad.length > 0) {
      context.addIssue({
        code: "custom",
        message: `expected true, false, a hop count, or addresses: loopback, linklocal, uniquelocal, IPs or CIDR subnets (not ${bad.map((entry) => JSON.stringify(entry)).join(", ")})`,
      });
      return z.NEVER;
    }
    return entries.join(", ");
  }),

  // Automation engine
  MQTT_HOST: optionalText
    .transform((value) => value?.trim())
    .superRefine((value, context) => {
      const problem = value === undefined ? null : brokerHostProblem(value);
      if (problem) context.addIssue({ code: "custom", message: problem });
    }),
  MQTT_PORT: port.default(1883),
  MQTT_USERNAME: optionalText,
  MQTT_PASSWORD: optionalText,
  /** Larger messages from the broker are dropped unread, so one publish cannot exhaust memory. */
  MQTT_MAX_MESSAGE_BYTES: z.coerce
    .number({ message: "expected a number of bytes" })
    .int("expected a whole number of bytes")
    .min(64 * 1024, "expected at least 65536 (64 KB)")
    .max(268_435_455, "expected at most 268435455 (MQTT's largest packet)")
    .default(16 * 1024 * 1024),
  ZIGBEE2MQTT_PREFIX: z.string().trim().min(1).default("zigbee2mqtt"),
  HTTP_PORT: port.default(8080),
  HTTP_TOKEN: optionalText,
  /**
   * Whether `hearth start` protects the engine's /api, /status and /metrics when HTTP_TOKEN is
   * empty, by generating a token into DATA_DIR. `false` serves them without authentication.
   * The library's createEngine ignores it: there an empty HTTP_TOKEN means no protection.
   */
  HTTP_AUTH: booleanFlag.default(true),
  WEB_UI_ENABLED: booleanFlag.default(true),
  AUTOMATIONS_DIR: z.string().trim().min(1).default("./automations"),
  AUTOMATIONS_RECURSIVE: booleanFlag.default(false),
  // Unset, these take the surface's default (see loadConfig): on, in DATA_DIR, for `hearth start`;
  // off and ./state.json for the library, as the spec says.
  STATE_PERSIST: optionalText.pipe(booleanFlag.optional()),
  STATE_FILE_PATH: optionalText,
  DEVICE_REGISTRY_ENABLED: booleanFlag.default(true),
  DEVICE_REGISTRY_PERSIST: booleanFlag.default(false),
  DEVICE_REGISTRY_FILE_PATH: z.string().trim().min(1).default("./device-registry.json"),
  METRICS_ENABLED: booleanFlag.default(false),
  METRICS_PUBLIC: booleanFlag.default(false),
  /**
   * Hot standby (docs/high-availability.md): with DATABASE_URL, every process competes for the
   * engine lease and keeps the automation state and device registry in PostgreSQL; only the
   * leader runs automations. false: state files and no lease (one process per database).
   */
  HOT_STANDBY: booleanFlag.default(true),
  /** The name other instances show for this one ("standby, leader is <name>"); the host name by default. */
  INSTANCE_NAME: optionalText,
  /** How long the engine lease lives without renewal: the longest a failover waits for a dead leader. */
  LEADER_LEASE_TTL_MS: z.coerce
    .number({ message: "expected a number" })
    .int("expected a whole number")
    .min(200, "expected at least 200")
    .max(60_000, "expected at most 60000")
    .default(3000),
  /** How often the leader renews and standbys try to take over; at most half of LEADER_LEASE_TTL_MS. */
  LEADER_LEASE_RENEW_MS: z.coerce
    .number({ message: "expected a number" })
    .int("expected a whole number")
    .min(50, "expected at least 50")
    .max(30_000, "expected at most 30000")
    .default(1000),

  // Inventory events, MQTT summary and expiry reminders
  /** How often each process looks for undelivered inventory events (milliseconds). */
  INVENTORY_EVENTS_POLL_MS: positiveInt.pipe(z.number().max(60_000, "expected at most 60000")).default(500),
  /** How long delivered events stay in the outbox before they are pruned. */
  INVENTORY_EVENTS_RETENTION: duration.default(7 * 86400),
  /** Publish inventory events and the per-household summary on MQTT. */
  INVENTORY_MQTT_ENABLED: booleanFlag.default(true),
  INVENTORY_MQTT_PREFIX: z
    .string()
    .trim()
    .min(1)
    .regex(/^[^#+]+$/, "expected a topic prefix without wildcards (+ or #)")
    .transform((value) => value.replace(/\/+$/, ""))
    .default("hearth/inventory"),
  /** Home Assistant MQTT discovery for the summary sensors. */
  HA_DISCOVERY_ENABLED: booleanFlag.default(true),
  HA_DISCOVERY_PREFIX: z
    .string()
    .trim()
    .min(1)
    .regex(/^[^#+]+$/, "expected a topic prefix without wildcards")
    .default("homeassistant"),
  /** Check for due expiry reminders this often (seconds). */
  REMINDER_CHECK_INTERVAL: duration.default(60),
  /**
   * Open Food Facts (or a mirror) for barcodes a household has not seen, e.g.
   * https://world.openfoodfacts.org; unset (the default), no scanned code leaves the house.
   */
  PRODUCT_LOOKUP_URL: optionalText.pipe(urlSetting(HTTP_SCHEMES).optional()),

  // Web Push reminders (docs/inventory-api.md, "Reminders on the phone")
  /** The server's VAPID key pair (RFC 8292), base64url; both or neither. Unset: generated into DATA_DIR. */
  VAPID_PUBLIC_KEY: optionalText.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{87}$/, "expected a base64url P-256 public key (87 characters, as web-push generates)")
      .optional(),
  ),
  VAPID_PRIVATE_KEY: optionalText.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, "expected a base64url P-256 private key (43 characters, as web-push generates)")
      .optional(),
  ),
  /** Who push services can contact about this server's pushes (the VAPID `sub` claim). */
  VAPID_SUBJECT: z
    .string()
    .trim()
    .regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, "expected a mailto: address or an https: URL")
    .default("mailto:hearth@example.invalid"),
  /**
   * Accept push endpoints in private networks (loopback, LAN) and send to them. Off: any member
   * could otherwise make the server POST to devices on the home network. For tests and a
   * self-hosted push service only.
   */
  PUSH_ALLOW_PRIVATE_ENDPOINTS: booleanFlag.default(false),

  // Engine services (ntfy, weather, Shelly, Nanoleaf): see service-config.ts.
  ...serviceEnvShape,
  // The HomeKit bridge: see homekit-config.ts.
  ...homeKitEnvShape,
  // Unset, these two follow the surface (see loadConfig): on for `hearth start`, off for the library.
  AUTOMATIONS_WATCH: optionalText.pipe(booleanFlag.optional()),
  AUTOMATIONS_TYPECHECK: optionalText.pipe(booleanFlag.optional()),
  /** Runs kept per automation in its trace; 0 keeps none. */
  AUTOMATION_TRACE_RUNS: z.coerce
    .number({ message: "expected a number" })
    .int("expected a whole number")
    .min(0, "expected 0 or more")
    .max(1000, "expected at most 1000")
    .default(20),
  /** Payloads in traces (trigger contexts, publishes, log fields) are cut to this many characters. */
  AUTOMATION_TRACE_PAYLOAD_BYTES: z.coerce
    .number({ message: "expected a number" })
    .int("expected a whole number")
    .min(64, "expected at least 64")
    .max(1_000_000, "expected at most 1000000")
    .default(2048),
});

type ParsedEnvironment = z.output<typeof envSchema>;
export type Config = Omit<
  ParsedEnvironment,
  "STATE_PERSIST" | "STATE_FILE_PATH" | "AUTOMATIONS_WATCH" | "AUTOMATIONS_TYPECHECK"
> & {
  STATE_PERSIST: boolean;
  STATE_FILE_PATH: string;
  /** Reload changed automation files without a restart. */
  AUTOMATIONS_WATCH: boolean;
  /** Type-check automations in the background at load and reload (warnings only). */
  AUTOMATIONS_TYPECHECK: boolean;
};
export type Environment = Record<string, string | undefined>;

/** Raised when the environment does not validate; the message names each variable and what it allows. */
export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(
      `Invalid configuration:\n${problems.map((problem) => `  ${problem.variable}: ${problem.message}`).join("\n")}`,
    );
    this.name = "ConfigError";
  }
}

export interface LoadConfigOptions {
  /**
   * Whose defaults fill what the environment leaves unset: "service" (`hearth start`, `npm
   * start`) keeps the automations' state in DATA_DIR; "library" (createEngine) follows the
   * spec (no persistence, ./state.json). Default "service".
   */
  surface?: "service" | "library";
  /**
   * Whether the inventory API will run: it needs JWT_SECRET in production. The engine
   * alone (createEngine used as a library) does not.
   */
  inventory?: boolean;
}

/**
 * Variables only the inventory API and its link to the engine read. An engine embedded as a
 * library runs neither, so they are not read there: a bad value in the embedding program's
 * environment cannot stop it, and they keep their defaults.
 */
const INVENTORY_ONLY_VARIABLES: ReadonlySet<string> = new Set([
  "API_PORT",
  "JWT_SECRET",
  "JWT_ACCESS_TTL",
  "JWT_REFRESH_TTL",
  "JWT_REFRESH_REUSE_INTERVAL",
  "RATE_LIMIT_PER_MINUTE",
  "AUTH_RATE_LIMIT_PER_MINUTE",
  "ITEM_LIST_CACHE_SIZE",
  "PHOTO_MAX_BYTES",
  "WEB_APP_DIR",
  "REDIS_URL",
  "CORS_ORIGINS",
  "INVENTORY_EVENTS_POLL_MS",
  "INVENTORY_EVENTS_RETENTION",
  "INVENTORY_MQTT_ENABLED",
  "INVENTORY_MQTT_PREFIX",
  "HA_DISCOVERY_ENABLED",
  "HA_DISCOVERY_PREFIX",
  "REMINDER_CHECK_INTERVAL",
  "VAPID_PUBLIC_KEY",
  "VAPID_PRIVATE_KEY",
  "VAPID_SUBJECT",
  "PUSH_ALLOW_PRIVATE_ENDPOINTS",
]);

/** Parses the environment once at boot. Throws ConfigError naming every invalid variable. */
export function loadConfig(env: Environment = process.env, options: LoadConfigOptions = {}): Config {
  const inventory = options.inventory ?? true;
  const read = inventory
    ? env
    : Object.fromEntries(Object.entries(env).filter(([name]) => !INVENTORY_ONLY_VARIABLES.has(name)));
  const result = envSchema.safeParse(read);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? "environment"),
        message: issue.message,
      })),
    );
  }
  const parsed = result.data;
  const crossProblems = serviceConfigProblems(parsed);
  if (parsed.LEADER_LEASE_RENEW_MS * 2 > parsed.LEADER_LEASE_TTL_MS) {
    crossProblems.push({
      variable: "LEADER_LEASE_RENEW_MS",
      message: `expected at most half of LEADER_LEASE_TTL_MS (${parsed.LEADER_LEASE_TTL_MS}), so one late renewal does not lose the lease`,
    });
  }
  if ((parsed.VAPID_PUBLIC_KEY === undefined) !== (parsed.VAPID_PRIVATE_KEY === undefined)) {
    crossProblems.push({
      variable: parsed.VAPID_PUBLIC_KEY === undefined ? "VAPID_PUBLIC_KEY" : "VAPID_PRIVATE_KEY",
      message: "expected together with the other VAPID key (set both, or neither to use the pair in DATA_DIR)",
    });
  } else if (parsed.VAPID_PUBLIC_KEY && parsed.VAPID_PRIVATE_KEY) {
    const problem = vapidKeyProblem({ publicKey: parsed.VAPID_PUBLIC_KEY, privateKey: parsed.VAPID_PRIVATE_KEY });
    if (problem) crossProblems.push({ variable: "VAPID_PRIVATE_KEY", message: problem });
  }
  if (crossProblems.length > 0) throw new ConfigError(crossProblems);
  const service = (options.surface ?? "service") === "service";
  const config: Config = {
    ...parsed,
    STATE_PERSIST: parsed.STATE_PERSIST ?? service,
    STATE_FILE_PATH: parsed.STATE_FILE_PATH ?? (service ? joinPath(parsed.DATA_DIR, "state.json") : "./state.json"),
    AUTOMATIONS_WATCH: parsed.AUTOMATIONS_WATCH ?? service,
    AUTOMATIONS_TYPECHECK: parsed.AUTOMATIONS_TYPECHECK ?? service,
  };
  if (inventory && config.NODE_ENV === "production" && config.JWT_SECRET === undefined) {
    throw new ConfigError([
      { variable: "JWT_SECRET", message: "required when NODE_ENV=production (at least 32 characters)" },
    ]);
  }
  return config;
}
