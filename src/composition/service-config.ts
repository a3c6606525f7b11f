/**
 * Environment variables of the engine services (ntfy, weather, Shelly relays, Nanoleaf
 * panels), spread into config.ts's schema so they are validated at start with every other
 * variable. A service whose variables are unset is simply not built.
 */
import { z } from "zod";
import { HTTP_SCHEMES, parseUrlSetting, urlSetting } from "./url-setting.js";

const blankToUndefined = (value: string | undefined) =>
  value === undefined || value.trim() === "" ? undefined : value.trim();
const optionalText = z.string().optional().transform(blankToUndefined);

/** Accepts the same seconds-or-unit durations as the JWT lifetimes (`600`, `10m`, `1h`). */
const duration = z
  .string()
  .trim()
  .regex(/^\d+\s*[smhd]?$/, "expected a duration like 600, 10m or 1h")
  .transform((value) => {
    const amount = Number.parseInt(value, 10);
    const unit = value.replace(/[\d\s]/g, "") || "s";
    return amount * ({ s: 1, m: 60, h: 3600, d: 86400 }[unit] ?? 1);
  });

const httpUrl = urlSetting(HTTP_SCHEMES);

/** `value` as an http(s) base URL without trailing slashes, or what is wrong with it. */
function httpBaseUrl(value: string): string | { problem: string } {
  const parsed = parseUrlSetting(value, HTTP_SCHEMES);
  return typeof parsed === "string" ? { problem: parsed } : value.replace(/\/+$/, "");
}

/** Names people give devices and channels: letters, digits, dash, underscore, dot. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** What a value parser returns when the value is wrong. */
class Problem {
  constructor(readonly message: string) {}
}

/** Turns a parser returning a problem string into one returning a Problem. */
const orProblem = <T>(parsed: T | string): T | Problem => (typeof parsed === "string" ? new Problem(parsed) : parsed);

/**
 * `name=value,name=value` (spaces around entries ignored). Each value goes through
 * `parseValue`, which returns the parsed value or a Problem.
 */
function namedList<T>(what: string, parseValue: (value: string, name: string) => T | Problem) {
  return optionalText.transform((text, context): Record<string, T> => {
    const result: Record<string, T> = {};
    if (text === undefined) return result;
    for (const raw of text.split(",")) {
      const entry = raw.trim();
      if (entry === "") continue;
      const at = entry.indexOf("=");
      const name = at < 0 ? "" : entry.slice(0, at).trim();
      const value = at < 0 ? "" : entry.slice(at + 1).trim();
      if (!NAME.test(name) || value === "") {
        context.addIssue({
          code: "custom",
          message: `expected name=${what} entries separated by commas (not "${entry}")`,
        });
        return z.NEVER;
      }
      if (name in result) {
        context.addIssue({ code: "custom", message: `"${name}" is listed twice` });
        return z.NEVER;
      }
      const parsed = parseValue(value, name);
      if (parsed instanceof Problem) {
        context.addIssue({ code: "custom", message: `${name}: ${parsed.message}` });
        return z.NEVER;
      }
      result[name] = parsed;
    }
    return result;
  });
}

/** A Shelly device as configured: how to reach it and which channels it has. */
export interface ShellyDeviceSetting {
  transport: "http" | "mqtt";
  /** Base URL without trailing slash (http) or the device's MQTT topic prefix (mqtt). */
  address: string;
  switches: number[];
  covers: number[];
}

/**
 * `http://10.0.0.5` or `mqtt:shellyplus1-abc`, optionally followed by `|switch:0|switch:1`
 * or `|cover:0` to declare channels (default: switch 0).
 */
export function parseShellyDevice(value: string): ShellyDeviceSetting | string {
  const [target = "", ...channelSpecs] = value.split("|").map((part) => part.trim());
  const switches: number[] = [];
  const covers: number[] = [];
  for (const spec of channelSpecs) {
    const match = /^(switch|cover):(\d{1,2})$/.exec(spec);
    if (!match) return `expected channels like |switch:0 or |cover:1 (not "|${spec}")`;
    (match[1] === "switch" ? switches : covers).push(Number(match[2]));
  }
  if (switches.length === 0 && covers.length === 0) switches.push(0);
  if (/^mqtt:/i.test(target)) {
    const prefix = target.slice(5).trim();
    if (prefix === "" || /[+#\s]/.test(prefix)) return "expected mqtt:<topic prefix> without spaces, + or #";
    return { transport: "mqtt", address: prefix, switches, covers };
  }
  const written = /^[a-z][a-z0-9+.-]*:\/\//i.test(target)
    ? target
    : /^[A-Za-z0-9.-]+(:\d+)?$/.test(target)
      ? `http://${target}`
      : undefined;
  if (written === undefined) return "expected http://address or mqtt:<topic prefix>";
  const address = httpBaseUrl(written);
  if (typeof address !== "string")
    return `${address.problem.replace(/^expected [^(]*/, "expected http://address or mqtt:<topic prefix> ")}`;
  return { transport: "http", address, switches, covers };
}

/** A Nanoleaf panel's address, `10.0.0.40` or `10.0.0.40:16021` or a full http URL. */
export function parseNanoleafAddress(value: string): string | { url: string } {
  const written = /^[a-z][a-z0-9+.-]*:\/\//i.test(value)
    ? value
    : /^[A-Za-z0-9.-]+(:\d+)?$/.test(value)
      ? `http://${value.includes(":") ? value : `${value}:16021`}`
      : undefined;
  if (written === undefined) return "expected a host, host:port or http:// URL";
  const url = httpBaseUrl(written);
  if (typeof url !== "string")
    return url.problem.replace(/^expected [^(]*/, "expected a host, host:port or http:// URL ");
  return { url };
}

/** A latitude (limit 90) or longitude (limit 180) in decimal degrees. */
function coordinate(limit: number) {
  return optionalText.transform((text, context): number | undefined => {
    if (text === undefined) return undefined;
    const value = Number(text);
    if (!Number.isFinite(value) || Math.abs(value) > limit) {
      context.addIssue({ code: "custom", message: `expected decimal degrees from -${limit} to ${limit}` });
      return z.NEVER;
    }
    return value;
  });
}

/** The services' variables; spread into config.ts's env schema. */
export const serviceEnvShape = {
  // ntfy (key `notifications`): on when NTFY_TOPIC or NTFY_CHANNELS is set.
  NTFY_URL: httpUrl.default("https://ntfy.sh"),
  NTFY_TOPIC: optionalText.refine((topic) => topic === undefined || /^[-_A-Za-z0-9]{1,64}$/.test(topic), {
    message: "expected a topic of letters, digits, - and _ (at most 64)",
  }),
  NTFY_CHANNELS: namedList("topic", (topic) =>
    /^[-_A-Za-z0-9]{1,64}$/.test(topic) ? topic : new Problem("expected a topic of letters, digits, - and _"),
  ),
  NTFY_TOKEN: optionalText,
  NTFY_USERNAME: optionalText,
  NTFY_PASSWORD: optionalText,

  // Weather (key `weather`): on when WEATHER_LATITUDE and WEATHER_LONGITUDE are set.
  WEATHER_PROVIDER: z.enum(["open-meteo", "openweathermap"]).default("open-meteo"),
  WEATHER_LATITUDE: coordinate(90),
  WEATHER_LONGITUDE: coordinate(180),
  WEATHER_UNITS: z.enum(["metric", "imperial"]).default("metric"),
  WEATHER_CACHE_TTL: duration.default(600),
  /** Another server speaking the provider's API (a self-hosted Open-Meteo, a test fake). */
  WEATHER_API_URL: optionalText.pipe(httpUrl.optional()),
  OPENWEATHERMAP_API_KEY: optionalText,

  // Shelly Gen 2+ relays (key `relay`): on when SHELLY_DEVICES lists a device.
  SHELLY_DEVICES: namedList("http://address or mqtt:prefix", (value) => orProblem(parseShellyDevice(value))),
  /** Shelly's digest user is always `admin`; kept configurable for proxies that differ. */
  SHELLY_USERNAME: z.string().trim().min(1).default("admin"),
  SHELLY_PASSWORD: optionalText,

  // Nanoleaf light panels (key `lightPanels`): on when NANOLEAF_PANELS lists a panel.
  NANOLEAF_PANELS: namedList("host", (value) => {
    const parsed = parseNanoleafAddress(value);
    return typeof parsed === "string" ? new Problem(parsed) : parsed.url;
  }),
  /** Tokens from an earlier pairing; panels paired through Hearth keep theirs in DATA_DIR. */
  NANOLEAF_TOKENS: namedList("token", (token) => token),
};

export type ServiceSettings = z.output<z.ZodObject<typeof serviceEnvShape>>;

/** Rules across variables, checked after the schema: each problem names its variable. */
export function serviceConfigProblems(config: ServiceSettings): { variable: string; message: string }[] {
  const problems: { variable: string; message: string }[] = [];
  if ((config.WEATHER_LATITUDE === undefined) !== (config.WEATHER_LONGITUDE === undefined)) {
    problems.push({
      variable: config.WEATHER_LATITUDE === undefined ? "WEATHER_LATITUDE" : "WEATHER_LONGITUDE",
      message: "set both WEATHER_LATITUDE and WEATHER_LONGITUDE, or neither",
    });
  }
  if (
    config.WEATHER_PROVIDER === "openweathermap" &&
    config.WEATHER_LATITUDE !== undefined &&
    !config.OPENWEATHERMAP_API_KEY
  ) {
    problems.push({ variable: "OPENWEATHERMAP_API_KEY", message: "required when WEATHER_PROVIDER=openweathermap" });
  }
  if ((config.NTFY_USERNAME === undefined) !== (config.NTFY_PASSWORD === undefined)) {
    problems.push({
      variable: config.NTFY_USERNAME === undefined ? "NTFY_USERNAME" : "NTFY_PASSWORD",
      message: "set both NTFY_USERNAME and NTFY_PASSWORD, or neither",
    });
  }
  for (const name of Object.keys(config.NANOLEAF_TOKENS)) {
    if (!(name in config.NANOLEAF_PANELS)) {
      problems.push({ variable: "NANOLEAF_TOKENS", message: `"${name}" is not a panel in NANOLEAF_PANELS` });
    }
  }
  return problems;
}
