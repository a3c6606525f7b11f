import { expect } from "chai";
import type { AutomationInfo } from "../../../src/ports/automation-catalog.js";
import type { DeviceRegistryApi } from "../../../src/ports/device-registry.js";
import {
  buildManualTriggerContext,
  ManualTriggerFieldMissingError,
} from "../../../src/application/automation/manual-trigger.js";
import { automationInfo } from "../../support/fake-automation-manager.js";

const now = new Date("2026-11-24T08:00:00Z");
const lamp = { friendly_name: "hall_lamp", ieee_address: "0x01", type: "Router" };
const devices = {
  getDevice: (name: string) => (name === "hall_lamp" ? lamp : null),
  getDeviceState: (name: string) => (name === "hall_lamp" ? { state: "OFF", brightness: 10 } : null),
} as unknown as DeviceRegistryApi;

function info(triggers: AutomationInfo["triggers"]): AutomationInfo {
  return automationInfo("manual", { triggers });
}

function missing(run: () => unknown): ManualTriggerFieldMissingError {
  try {
    run();
  } catch (error) {
    if (error instanceof ManualTriggerFieldMissingError) return error;
    throw error;
  }
  throw new Error("expected a missing field");
}

describe("buildManualTriggerContext", () => {
  it("wraps a non-object MQTT payload as { raw } and keeps objects", () => {
    expect(buildManualTriggerContext({ type: "mqtt", topic: "a/b", payload: 5 }, info([]), null, now)).to.deep.equal({
      type: "mqtt",
      topic: "a/b",
      payload: { raw: "5" },
    });
    expect(
      buildManualTriggerContext({ type: "mqtt", topic: "a/b", payload: { on: true } }, info([]), null, now),
    ).to.deep.include({ payload: { on: true } });
    expect(buildManualTriggerContext({ type: "mqtt", topic: "a/b" }, info([]), null, now)).to.deep.include({
      payload: {},
    });
  });

  it("takes the cron expression from the automation's trigger, firing now unless told when", () => {
    const context = buildManualTriggerContext(
      { type: "cron" },
      info([{ type: "cron", expression: "0 8 * * *" }]),
      null,
      now,
    );
    expect(context).to.deep.equal({ type: "cron", expression: "0 8 * * *", firedAt: now });
    const told = buildManualTriggerContext(
      { type: "cron", expression: "* * * * *", firedAt: "2026-01-01T00:00:00Z" },
      info([]),
      null,
      now,
    );
    expect(told).to.deep.include({ expression: "* * * * *", firedAt: new Date("2026-01-01T00:00:00Z") });
    expect(missing(() => buildManualTriggerContext({ type: "cron" }, info([]), null, now)).path).to.equal("expression");
  });

  it("takes the webhook path from the trigger and upper-cases the method", () => {
    const context = buildManualTriggerContext(
      { type: "webhook", method: "put", headers: { a: "1" }, query: {}, body: { x: 1 } },
      info([{ type: "webhook", path: "doorbell" }]),
      null,
      now,
    );
    expect(context).to.deep.equal({
      type: "webhook",
      path: "doorbell",
      method: "PUT",
      headers: { a: "1" },
      query: {},
      body: { x: 1 },
    });
    expect(
      missing(() =>
        buildManualTriggerContext({ type: "webhook", method: "POST", headers: {}, query: {} }, info([]), null, now),
      ).path,
    ).to.equal("path");
  });

  it("merges a device_state over the registry's known state and finds the device by the trigger's name", () => {
    const context = buildManualTriggerContext(
      { type: "device_state", state: { state: "ON" } },
      info([{ type: "device_state", friendlyName: "hall_lamp" }]),
      devices,
      now,
    );
    expect(context).to.deep.equal({
      type: "device_state",
      friendlyName: "hall_lamp",
      state: { state: "ON", brightness: 10 },
      device: lamp,
    });
  });

  it("stands in an unknown device by name, and asks for a name when there is none", () => {
    const joined = buildManualTriggerContext({ type: "device_joined", friendlyName: "new_plug" }, info([]), null, now);
    expect(joined).to.deep.equal({
      type: "device_joined",
      device: { friendly_name: "new_plug", ieee_address: "", type: "Unknown" },
    });
    expect(missing(() => buildManualTriggerContext({ type: "device_left" }, info([]), devices, now)).path).to.equal(
      "friendlyName",
    );
  });
});

describe("buildManualTriggerContext: inventory", () => {
  it("fills the event's type and household from the automation's inventory trigger", () => {
    const context = buildManualTriggerContext(
      { type: "inventory", event: { data: { itemId: "i1", name: "Peas" } } },
      info([{ type: "inventory", events: ["item.deleted", "item.created"], householdId: "home1" }]),
      null,
      now,
    );
    expect(context).to.deep.include({ type: "inventory" });
    expect(context.type === "inventory" && context.event).to.deep.include({
      type: "item.deleted",
      householdId: "home1",
      occurredAt: now,
      actor: null,
      data: { itemId: "i1", name: "Peas" },
    });
  });

  it("takes what the request gives, and needs a household from somewhere", () => {
    const given = buildManualTriggerContext(
      {
        type: "inventory",
        event: { type: "member.joined", householdId: "h2", id: "e1", occurredAt: "2026-01-01T00:00:00Z" },
      },
      info([{ type: "inventory" }]),
      null,
      now,
    );
    expect(given.type === "inventory" && given.event).to.deep.include({
      id: "e1",
      type: "member.joined",
      householdId: "h2",
    });
    expect(
      missing(() =>
        buildManualTriggerContext({ type: "inventory", event: {} }, info([{ type: "inventory" }]), null, now),
      ).path,
    ).to.equal("event.householdId");
  });
});
