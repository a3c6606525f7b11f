import { expect } from "chai";
import { ConfigError, loadConfig } from "../../../src/composition/config.js";

function problem(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a ConfigError");
}

describe("loadConfig: automation authoring settings", () => {
  it("watches and type-checks automations under hearth start, not for the library, unless told", () => {
    expect(loadConfig({})).to.include({ AUTOMATIONS_WATCH: true, AUTOMATIONS_TYPECHECK: true });
    expect(loadConfig({}, { surface: "library" })).to.include({
      AUTOMATIONS_WATCH: false,
      AUTOMATIONS_TYPECHECK: false,
    });
    expect(loadConfig({ AUTOMATIONS_WATCH: "false", AUTOMATIONS_TYPECHECK: "no" })).to.include({
      AUTOMATIONS_WATCH: false,
      AUTOMATIONS_TYPECHECK: false,
    });
    expect(loadConfig({ AUTOMATIONS_WATCH: "1" }, { surface: "library" }).AUTOMATIONS_WATCH).to.equal(true);
    expect(loadConfig({ AUTOMATIONS_WATCH: "" }).AUTOMATIONS_WATCH).to.equal(true);
  });

  it("keeps 20 runs of 2048-character payloads by default, and takes other sizes", () => {
    expect(loadConfig({})).to.include({ AUTOMATION_TRACE_RUNS: 20, AUTOMATION_TRACE_PAYLOAD_BYTES: 2048 });
    expect(loadConfig({ AUTOMATION_TRACE_RUNS: "0", AUTOMATION_TRACE_PAYLOAD_BYTES: "64" })).to.include({
      AUTOMATION_TRACE_RUNS: 0,
      AUTOMATION_TRACE_PAYLOAD_BYTES: 64,
    });
  });

  it("names the variable of a bad value", () => {
    expect(problem({ AUTOMATIONS_WATCH: "sometimes" })).to.include("AUTOMATIONS_WATCH: expected one of true, false");
    expect(problem({ AUTOMATIONS_TYPECHECK: "maybe" })).to.include("AUTOMATIONS_TYPECHECK:");
    expect(problem({ AUTOMATION_TRACE_RUNS: "-1" })).to.include("AUTOMATION_TRACE_RUNS: expected 0 or more");
    expect(problem({ AUTOMATION_TRACE_RUNS: "5000" })).to.include("AUTOMATION_TRACE_RUNS: expected at most 1000");
    expect(problem({ AUTOMATION_TRACE_RUNS: "ten" })).to.include("AUTOMATION_TRACE_RUNS: expected a number");
    expect(problem({ AUTOMATION_TRACE_PAYLOAD_BYTES: "10" })).to.include(
      "AUTOMATION_TRACE_PAYLOAD_BYTES: expected at least 64",
    );
    expect(problem({ AUTOMATION_TRACE_PAYLOAD_BYTES: "1.5" })).to.include(
      "AUTOMATION_TRACE_PAYLOAD_BYTES: expected a whole number",
    );
  });
});
