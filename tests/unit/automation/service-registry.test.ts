import { expect } from "chai";
import { FetchHttpClient } from "../../../src/adapters/http-client/fetch-http-client.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import type { DeviceRegistryApi } from "../../../src/ports/device-registry.js";
import {
  DuplicateServiceError,
  type HomeKitFactoryContext,
  type RelayServiceFactoryContext,
  resolveServices,
  ServiceRegistry,
} from "../../../src/application/automation/service-registry.js";
import type { HttpClient } from "../../../src/ports/http-client.js";
import type { Logger } from "../../../src/ports/logger.js";
import { FakeMqttService } from "../../support/fake-mqtt-service.js";

describe("resolveServices", () => {
  const logger = new MemoryLogger();
  const http = new FetchHttpClient(logger);
  const mqtt = new FakeMqttService();
  const deviceRegistry = { getDevices: () => [] } as unknown as DeviceRegistryApi;

  it("registers instances as they are", () => {
    const notifications = { send: async () => undefined };
    const registry = resolveServices(
      { notifications, custom: { id: 1 } },
      { http, mqtt, logger, deviceRegistry: null },
    );
    expect(registry.get("notifications")).to.equal(notifications);
    expect(registry.get("custom")).to.deep.equal({ id: 1 });
  });

  it("calls plain factories with (http, scoped logger)", () => {
    let received: [HttpClient, Logger] | null = null;
    const registry = resolveServices(
      {
        weather: (h: HttpClient, l: Logger) => {
          received = [h, l];
          return { kind: "weather" };
        },
      },
      { http, mqtt, logger, deviceRegistry: null },
    );
    expect(registry.get("weather")).to.deep.equal({ kind: "weather" });
    expect(received![0]).to.equal(http);
    received![1].info("scoped");
    expect(logger.entries.at(-1)?.fields.service).to.equal("weather");
  });

  it("calls the relay factory with {http, mqtt, logger} and HomeKit with its context, relays first", () => {
    let relayContext: RelayServiceFactoryContext | null = null;
    let homekitContext: HomeKitFactoryContext | null = null;
    const relays = { kind: "relays" };
    const registry = resolveServices(
      {
        // HomeKit listed first on purpose: it still receives the relay service.
        homekit: (context: HomeKitFactoryContext) => {
          homekitContext = context;
          return { kind: "homekit" };
        },
        relays: (context: RelayServiceFactoryContext) => {
          relayContext = context;
          return relays;
        },
      },
      { http, mqtt, logger, deviceRegistry },
    );
    expect(relayContext!.http).to.equal(http);
    expect(relayContext!.mqtt).to.equal(mqtt);
    expect(homekitContext!.relayService).to.equal(relays);
    expect(homekitContext!.deviceRegistry).to.equal(deviceRegistry);
    expect(homekitContext!.mqtt).to.equal(mqtt);
    expect(registry.keys()).to.deep.equal(["relays", "homekit"]);
  });

  it("gives HomeKit null relay service and device registry when there are none", () => {
    let homekitContext: HomeKitFactoryContext | null = null;
    resolveServices(
      {
        homekit: (context: HomeKitFactoryContext) => {
          homekitContext = context;
          return {};
        },
      },
      { http, mqtt, logger, deviceRegistry: null },
    );
    expect(homekitContext!.relayService).to.equal(null);
    expect(homekitContext!.deviceRegistry).to.equal(null);
  });

  it("skips undefined entries, accepts no services, and fills a given registry", () => {
    const registry = new ServiceRegistry(logger);
    expect(resolveServices(undefined, { http, mqtt, logger, deviceRegistry: null }).keys()).to.deep.equal([]);
    resolveServices(
      { weather: undefined, lightPanels: { n: 1 } },
      { http, mqtt, logger, deviceRegistry: null, registry },
    );
    expect(registry.keys()).to.deep.equal(["lightPanels"]);
  });
});

describe("resolveServices input mistakes", () => {
  it("names the key when a class is passed instead of an instance or factory", () => {
    const logger = new MemoryLogger();
    class Weather {}
    expect(() =>
      resolveServices(
        { weather: Weather },
        { http: new FetchHttpClient(logger), mqtt: new FakeMqttService(), logger, deviceRegistry: null },
      ),
    ).to.throw(/services\.weather is a class/);
  });
});

describe("service key spellings", () => {
  const logger = new MemoryLogger();

  it("finds the relay service under relay, relays and relayService, whichever it was registered as", () => {
    for (const registeredAs of ["relay", "relays", "relayService"]) {
      const registry = new ServiceRegistry(logger);
      const relay = { kind: registeredAs };
      registry.register(registeredAs, relay);
      for (const asked of ["relay", "relays", "relayService"]) {
        expect(registry.get(asked), `${registeredAs} asked as ${asked}`).to.equal(relay);
        expect(registry.has(asked)).to.equal(true);
        expect(registry.getOrThrow(asked)).to.equal(relay);
        expect(registry.use(asked, (service) => service)).to.equal(relay);
      }
      expect(registry.keys()).to.deep.equal([registeredAs]);
    }
  });

  it("refuses a second spelling of a service already registered", () => {
    const registry = new ServiceRegistry(logger);
    registry.register("relays", {});
    expect(() => registry.register("relay", {})).to.throw(DuplicateServiceError);
    registry.register("homeKit", {});
    expect(() => registry.register("homekit", {})).to.throw(DuplicateServiceError);
  });

  it("gives the HomeKit factory the relay service as relay and relayService, from the relay key", () => {
    const relay = { kind: "relay" };
    let context: HomeKitFactoryContext | null = null;
    resolveServices(
      {
        homekit: (received: HomeKitFactoryContext) => {
          context = received;
          return {};
        },
        relay: () => relay,
      },
      { http: new FetchHttpClient(logger), mqtt: new FakeMqttService(), logger, deviceRegistry: null },
    );
    expect(context!.relay).to.equal(relay);
    expect(context!.relayService).to.equal(relay);
  });
});
