import { expect } from "chai";
import { ConfigError, loadConfig } from "../../../src/composition/config.js";
import { homeKitFromConfig } from "../../../src/composition/homekit-from-config.js";
import { systemClock } from "../../../src/ports/clock.js";

function problemsOf(env: Record<string, string>): { variable: string; message: string }[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("HomeKit configuration (HOMEKIT_*)", () => {
  it("is off by default, with port 47128, bridge name Hearth, ciao and 149 accessories per bridge", () => {
    const config = loadConfig({});
    expect(config).to.include({
      HOMEKIT_ENABLED: false,
      HOMEKIT_PORT: 47128,
      HOMEKIT_BRIDGE_NAME: "Hearth",
      HOMEKIT_ADVERTISER: "ciao",
      HOMEKIT_MAX_ACCESSORIES_PER_BRIDGE: 149,
    });
    expect(config.HOMEKIT_SETUP_CODE).to.equal(undefined);
    expect(config.HOMEKIT_BIND).to.equal(undefined);
    expect(homeKitFromConfig({ config, clock: systemClock })).to.equal(undefined);
  });

  it("reads every variable and builds a factory when enabled", () => {
    const config = loadConfig({
      HOMEKIT_ENABLED: "true",
      HOMEKIT_PORT: "51826",
      HOMEKIT_SETUP_CODE: "03145154",
      HOMEKIT_BRIDGE_NAME: "Hearth Kitchen",
      HOMEKIT_BIND: "eth0, 192.168.1.4",
      HOMEKIT_ADVERTISER: "bonjour-hap",
      HOMEKIT_MAX_ACCESSORIES_PER_BRIDGE: "100",
    });
    expect(config).to.deep.include({
      HOMEKIT_ENABLED: true,
      HOMEKIT_PORT: 51826,
      HOMEKIT_SETUP_CODE: "031-45-154",
      HOMEKIT_BRIDGE_NAME: "Hearth Kitchen",
      HOMEKIT_BIND: ["eth0", "192.168.1.4"],
      HOMEKIT_ADVERTISER: "bonjour-hap",
      HOMEKIT_MAX_ACCESSORIES_PER_BRIDGE: 100,
    });
    expect(homeKitFromConfig({ config, clock: systemClock })).to.be.a("function");
  });

  it("names each bad variable and says what it allows", () => {
    const problems = problemsOf({
      HOMEKIT_ENABLED: "maybe",
      HOMEKIT_PORT: "0",
      HOMEKIT_SETUP_CODE: "123-45-678",
      HOMEKIT_BRIDGE_NAME: "my_bridge!",
      HOMEKIT_ADVERTISER: "mdns",
      HOMEKIT_MAX_ACCESSORIES_PER_BRIDGE: "150",
    });
    const byVariable = Object.fromEntries(problems.map((problem) => [problem.variable, problem.message]));
    expect(Object.keys(byVariable).sort()).to.deep.equal([
      "HOMEKIT_ADVERTISER",
      "HOMEKIT_BRIDGE_NAME",
      "HOMEKIT_ENABLED",
      "HOMEKIT_MAX_ACCESSORIES_PER_BRIDGE",
      "HOMEKIT_PORT",
      "HOMEKIT_SETUP_CODE",
    ]);
    expect(byVariable.HOMEKIT_SETUP_CODE).to.match(/too easy to guess/);
    expect(byVariable.HOMEKIT_ADVERTISER).to.contain("ciao");
    expect(byVariable.HOMEKIT_MAX_ACCESSORIES_PER_BRIDGE).to.contain("149");
    // The message never repeats the rejected code back into a log.
    expect(JSON.stringify(problems)).to.not.contain("123-45-678");
  });

  it("rejects a setup code that is not 8 digits", () => {
    expect(problemsOf({ HOMEKIT_SETUP_CODE: "1234" })).to.deep.equal([
      { variable: "HOMEKIT_SETUP_CODE", message: "expected 8 digits, as 123-45-678 or 12345678" },
    ]);
  });
});

describe("HOMEKIT_* variables in .env.example and docs/configuration.md", () => {
  it("lists every one in both", async () => {
    const { readFileSync } = await import("node:fs");
    const { homeKitEnvShape } = await import("../../../src/composition/homekit-config.js");
    const example = readFileSync(".env.example", "utf8");
    const docs = readFileSync("docs/configuration.md", "utf8");
    for (const variable of Object.keys(homeKitEnvShape)) {
      expect(example, `.env.example lacks ${variable}`).to.match(new RegExp(`^${variable}=`, "m"));
      expect(docs, `docs/configuration.md lacks ${variable}`).to.contain(`\`${variable}\``);
    }
  });
});
