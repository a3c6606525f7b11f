import { expect } from "chai";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { HomeKitBridge } from "../../../src/adapters/services/homekit/homekit-bridge.js";
import { FakeMqttService } from "../../support/fake-mqtt-service.js";

describe("HomeKitBridge options", () => {
  const base = {
    mqtt: new FakeMqttService(),
    logger: new MemoryLogger(),
    deviceRegistry: null,
    dataDir: "/nonexistent/homekit",
  };

  it("rejects a setup code HomeKit would refuse, or a capacity it cannot hold, when built", () => {
    expect(() => new HomeKitBridge({ ...base, setupCode: "1234" })).to.throw(RangeError, /8 digits/);
    expect(() => new HomeKitBridge({ ...base, setupCode: "111-11-111" })).to.throw(RangeError, /too easy to guess/);
    expect(() => new HomeKitBridge({ ...base, maxAccessoriesPerBridge: 150 })).to.throw(RangeError, /1..149/);
  });

  it("reports nothing running before it starts, and no secrets", () => {
    const bridge = new HomeKitBridge({ ...base, setupCode: "03145154" });
    expect(bridge.describe(true)).to.deep.equal({
      configured: true,
      reachable: false,
      lastError: null,
      bridges: [],
      accessories: 0,
      setupCode: null,
    });
    expect(bridge.serviceHealth()).to.deep.include({ provider: "homekit", configured: true, reachable: null });
    expect(JSON.stringify(bridge.serviceHealth())).to.not.contain("031-45-154");
  });
});
