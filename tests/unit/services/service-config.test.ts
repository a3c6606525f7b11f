import { expect } from "chai";
import { ConfigError, loadConfig } from "../../../src/composition/config.js";
import { buildServicesFromConfig, ENV_SERVICE_BUILDERS } from "../../../src/composition/env-services.js";

function problems(env: Record<string, string>): { variable: string; message: string }[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected loadConfig to throw");
}

describe("service configuration (environment variables)", () => {
  it("leaves every service off when nothing is set", () => {
    const config = loadConfig({});
    expect(config).to.include({
      NTFY_URL: "https://ntfy.sh",
      WEATHER_PROVIDER: "open-meteo",
      WEATHER_UNITS: "metric",
      WEATHER_CACHE_TTL: 600,
      SHELLY_USERNAME: "admin",
    });
    expect(config.SHELLY_DEVICES).to.deep.equal({});
    expect(buildServicesFromConfig(config)).to.deep.equal({});
  });

  it("parses channels, devices and panels", () => {
    const config = loadConfig({
      NTFY_TOPIC: "hearth",
      NTFY_CHANNELS: "alarm=home-alarm, kitchen=kitchen_news",
      WEATHER_LATITUDE: "59.91",
      WEATHER_LONGITUDE: "-10.75",
      WEATHER_CACHE_TTL: "15m",
      SHELLY_DEVICES:
        "kitchen-light=http://10.0.0.5,garage=mqtt:shellyplus1-abc,blinds=10.0.0.7|cover:0,duo=http://10.0.0.8/|switch:0|switch:1",
      NANOLEAF_PANELS: "living=10.0.0.40,hall=http://10.0.0.41:16021",
      NANOLEAF_TOKENS: "living=abc",
    });
    expect(config.NTFY_CHANNELS).to.deep.equal({ alarm: "home-alarm", kitchen: "kitchen_news" });
    expect(config.WEATHER_LONGITUDE).to.equal(-10.75);
    expect(config.WEATHER_CACHE_TTL).to.equal(900);
    expect(config.SHELLY_DEVICES).to.deep.equal({
      "kitchen-light": { transport: "http", address: "http://10.0.0.5", switches: [0], covers: [] },
      garage: { transport: "mqtt", address: "shellyplus1-abc", switches: [0], covers: [] },
      blinds: { transport: "http", address: "http://10.0.0.7", switches: [], covers: [0] },
      duo: { transport: "http", address: "http://10.0.0.8", switches: [0, 1], covers: [] },
    });
    expect(config.NANOLEAF_PANELS).to.deep.equal({ living: "http://10.0.0.40:16021", hall: "http://10.0.0.41:16021" });
    const built = buildServicesFromConfig(config);
    expect(Object.keys(built)).to.deep.equal(["notifications", "weather", "relay", "lightPanels"]);
    for (const factory of Object.values(built)) expect(factory).to.be.a("function");
  });

  it("names the variable and the problem for every bad value", () => {
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ NTFY_URL: "ntfy.sh" }, "NTFY_URL", /http/],
      [{ NTFY_TOPIC: "has space" }, "NTFY_TOPIC", /letters, digits/],
      [{ NTFY_CHANNELS: "alarm" }, "NTFY_CHANNELS", /name=topic/],
      [{ NTFY_CHANNELS: "a=x,a=y" }, "NTFY_CHANNELS", /listed twice/],
      [{ NTFY_USERNAME: "phil" }, "NTFY_PASSWORD", /both/],
      [{ WEATHER_LATITUDE: "91", WEATHER_LONGITUDE: "0" }, "WEATHER_LATITUDE", /-90 to 90/],
      [{ WEATHER_LATITUDE: "north", WEATHER_LONGITUDE: "0" }, "WEATHER_LATITUDE", /decimal degrees/],
      [{ WEATHER_LATITUDE: "59" }, "WEATHER_LONGITUDE", /both/],
      [{ WEATHER_PROVIDER: "yr" }, "WEATHER_PROVIDER", /open-meteo|openweathermap/],
      [
        { WEATHER_PROVIDER: "openweathermap", WEATHER_LATITUDE: "1", WEATHER_LONGITUDE: "2" },
        "OPENWEATHERMAP_API_KEY",
        /required/,
      ],
      [{ WEATHER_UNITS: "kelvin" }, "WEATHER_UNITS", /metric|imperial/],
      [{ WEATHER_CACHE_TTL: "soon" }, "WEATHER_CACHE_TTL", /duration/],
      [{ SHELLY_DEVICES: "garage=ftp://x" }, "SHELLY_DEVICES", /garage: expected http/],
      [{ SHELLY_DEVICES: "garage=mqtt:a/+/b" }, "SHELLY_DEVICES", /without spaces, \+ or #/],
      [{ SHELLY_DEVICES: "blinds=10.0.0.7|shutter:0" }, "SHELLY_DEVICES", /\|switch:0 or \|cover:1/],
      [{ NANOLEAF_PANELS: "living=not a host" }, "NANOLEAF_PANELS", /host/],
      [{ NANOLEAF_PANELS: "living=10.0.0.40", NANOLEAF_TOKENS: "hall=abc" }, "NANOLEAF_TOKENS", /not a panel/],
    ];
    for (const [env, variable, message] of cases) {
      const found = problems(env);
      expect(
        found.map((problem) => problem.variable),
        JSON.stringify(env),
      ).to.include(variable);
      expect(found.find((problem) => problem.variable === variable)?.message, JSON.stringify(env)).to.match(message);
    }
  });

  it("parses every URL with the URL parser: bad ports, spaces and schemes stop the start naming the variable", () => {
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ NTFY_URL: "http://127.0.0.1:99999" }, "NTFY_URL", /port 99999 is outside 1-65535/],
      [{ NTFY_URL: "http://127.0.0.1:0" }, "NTFY_URL", /port 0 is outside 1-65535/],
      [{ NTFY_URL: "http://ntfy host.lan" }, "NTFY_URL", /host "ntfy host.lan" contains a space/],
      [{ NTFY_URL: "http://ntfy.lan:80a" }, "NTFY_URL", /port "80a" is not a number/],
      [{ NTFY_URL: "ftp://ntfy.lan" }, "NTFY_URL", /http:\/\/ or https:\/\/ URL \(not ftp:\/\/\)/],
      [{ WEATHER_API_URL: "http://127.0.0.1:70000" }, "WEATHER_API_URL", /port 70000 is outside/],
      [{ WEATHER_API_URL: "http://" }, "WEATHER_API_URL", /not a valid URL|host is missing/],
      [{ SHELLY_DEVICES: "kitchen=http://127.0.0.1:99999" }, "SHELLY_DEVICES", /kitchen: .*port 99999 is outside/],
      [{ SHELLY_DEVICES: "kitchen=10.0.0.5:99999" }, "SHELLY_DEVICES", /kitchen: .*port 99999 is outside/],
      [{ SHELLY_DEVICES: "kitchen=http://a b" }, "SHELLY_DEVICES", /kitchen: .*contains a space/],
      [{ NANOLEAF_PANELS: "living=10.0.0.40:99999" }, "NANOLEAF_PANELS", /living: .*port 99999 is outside/],
      [{ NANOLEAF_PANELS: "living=https://[::1" }, "NANOLEAF_PANELS", /living: .*not a valid URL/],
    ];
    for (const [env, variable, message] of cases) {
      const found = problems(env);
      expect(
        found.find((problem) => problem.variable === variable)?.message,
        `${JSON.stringify(env)}: ${JSON.stringify(found)}`,
      ).to.match(message);
    }
    const config = loadConfig({
      NTFY_URL: "http://127.0.0.1:65535/",
      SHELLY_DEVICES: "kitchen=http://[::1]:8080",
      NANOLEAF_PANELS: "hall=http://10.0.0.41",
    });
    expect(config.NTFY_URL).to.equal("http://127.0.0.1:65535");
    expect(config.SHELLY_DEVICES.kitchen?.address).to.equal("http://[::1]:8080");
    expect(config.NANOLEAF_PANELS).to.deep.equal({ hall: "http://10.0.0.41" });
  });

  it("builds nothing the caller already gave, under any spelling of its key", () => {
    const config = loadConfig({ NTFY_TOPIC: "hearth", SHELLY_DEVICES: "garage=mqtt:shellyplus1-abc" });
    const given = { relays: { mine: true }, notifications: { send: async () => undefined } };
    expect(buildServicesFromConfig(config, given)).to.deep.equal({});
    expect(Object.keys(buildServicesFromConfig(config, { relayService: { mine: true } }))).to.deep.equal([
      "notifications",
    ]);
  });

  it("keeps HomeKit's place after the relay service in the build order", () => {
    const keys = ENV_SERVICE_BUILDERS.map((builder) => builder.key);
    expect(keys.indexOf("relay")).to.be.greaterThan(-1);
    if (keys.includes("homekit")) expect(keys.indexOf("homekit")).to.be.greaterThan(keys.indexOf("relay"));
  });
});

describe("service variables in .env.example and docs/configuration.md", () => {
  it("lists every service variable in both, and .env.example loads as it is", async () => {
    const { readFileSync } = await import("node:fs");
    const { serviceEnvShape } = await import("../../../src/composition/service-config.js");
    const example = readFileSync(".env.example", "utf8");
    const docs = readFileSync("docs/configuration.md", "utf8");
    for (const variable of Object.keys(serviceEnvShape)) {
      expect(example, `.env.example lacks ${variable}`).to.match(new RegExp(`^${variable}=`, "m"));
      expect(docs, `docs/configuration.md lacks ${variable}`).to.contain(`\`${variable}\``);
    }
    const env = Object.fromEntries(
      example
        .split("\n")
        .filter((line) => /^[A-Z0-9_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );
    expect(() => loadConfig(env)).not.to.throw();
  });
});
