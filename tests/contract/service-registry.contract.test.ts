import { expect } from "chai";
import { FetchHttpClient } from "../../src/adapters/http-client/fetch-http-client.js";
import { MemoryLogger } from "../../src/adapters/logging/memory-logger.js";
import type { CoreContext, ServicePlugin, ServiceRegistryApi } from "../../src/ports/engine-services.js";
import {
  DuplicateServiceError,
  ServiceNotFoundError,
  ServiceRegistry,
} from "../../src/application/automation/service-registry.js";
import { DomainError } from "../../src/domain/shared/domain-error.js";

/** A custom service the way a user would write one: a plugin with its own state and routes. */
class GreenhouseService implements ServicePlugin {
  readonly serviceKey: string;
  readonly calls: string[];
  context: CoreContext | null = null;
  failOnStart = false;
  failOnStop = false;

  constructor(key: string, calls: string[]) {
    this.serviceKey = key;
    this.calls = calls;
  }

  async onStart(context: CoreContext): Promise<void> {
    this.calls.push(`start:${this.serviceKey}`);
    this.context = context;
    if (this.failOnStart) throw new Error(`${this.serviceKey} cannot start`);
  }

  async onStop(): Promise<void> {
    this.calls.push(`stop:${this.serviceKey}`);
    if (this.failOnStop) throw new Error(`${this.serviceKey} cannot stop`);
  }

  registerRoutes(app: Parameters<NonNullable<ServicePlugin["registerRoutes"]>>[0]): void {
    this.calls.push(`routes:${this.serviceKey}`);
    (app as unknown as { mounted: string[] }).mounted.push(this.serviceKey);
  }

  humidity(): number {
    return 61;
  }
}

/** Runs the ServiceRegistryApi contract against a registry implementation. */
function describeServiceRegistryContract(
  name: string,
  create: (logger: MemoryLogger) => ServiceRegistryApi & { mountRoutes?(router: unknown): void },
): void {
  describe(`ServiceRegistry contract: ${name}`, () => {
    let logger: MemoryLogger;
    let registry: ReturnType<typeof create>;
    let calls: string[];
    let context: CoreContext;

    beforeEach(() => {
      logger = new MemoryLogger();
      registry = create(logger);
      calls = [];
      context = { http: new FetchHttpClient(logger), logger };
    });

    it("stores and returns services by key", () => {
      const weather = { forecast: () => "sunny" };
      registry.register("weather", weather);
      expect(registry.get("weather")).to.equal(weather);
      expect(registry.getOrThrow("weather")).to.equal(weather);
      expect(registry.has("weather")).to.equal(true);
      expect(registry.keys()).to.deep.equal(["weather"]);
    });

    it("returns null for an absent key and has() is false", () => {
      expect(registry.get("nothing")).to.equal(null);
      expect(registry.has("nothing")).to.equal(false);
    });

    it("takes keys named like Object.prototype's members as plain keys", () => {
      for (const key of ["constructor", "__proto__", "toString"]) {
        expect(registry.has(key), key).to.equal(false);
        expect(registry.get(key), key).to.equal(null);
      }
      const odd = { odd: true };
      registry.register("constructor", odd);
      expect(registry.get("constructor")).to.equal(odd);
    });

    it("throws a clear domain error from getOrThrow on an absent key", () => {
      expect(() => registry.getOrThrow("notifications"))
        .to.throw(DomainError)
        .with.property("code", "SERVICE_NOT_FOUND");
      expect(() => registry.getOrThrow("notifications")).to.throw(/notifications/);
    });

    it("refuses a second service under the same key", () => {
      registry.register("weather", {});
      expect(() => registry.register("weather", {})).to.throw(DuplicateServiceError);
    });

    it("use() runs the function with the service and is a no-op when absent", () => {
      registry.register("greenhouse", new GreenhouseService("greenhouse", calls));
      const humidity = registry.use<GreenhouseService, number>("greenhouse", (service) => service.humidity());
      expect(humidity).to.equal(61);
      let ran = false;
      const result = registry.use("absent", () => {
        ran = true;
      });
      expect(ran).to.equal(false);
      expect(result).to.equal(undefined);
    });

    it("starts plugins in order with a child logger scoped to the service, and stops them in reverse", async () => {
      const first = new GreenhouseService("greenhouse", calls);
      const second = new GreenhouseService("garage", calls);
      registry.register("greenhouse", first);
      registry.register("plain", { just: "data" });
      registry.register("garage", second);
      await registry.startAll(context);
      expect(calls).to.deep.equal(["start:greenhouse", "start:garage"]);
      expect(first.context?.http).to.equal(context.http);
      first.context?.logger.info("hello from the greenhouse");
      const entry = logger.entries.find((e) => e.msg === "hello from the greenhouse");
      expect(entry?.fields.service).to.equal("greenhouse");
      await registry.stopAll();
      expect(calls.slice(2)).to.deep.equal(["stop:garage", "stop:greenhouse"]);
    });

    it("keeps stopping the others when one plugin's onStop throws", async () => {
      const first = new GreenhouseService("a", calls);
      const failing = new GreenhouseService("b", calls);
      const third = new GreenhouseService("c", calls);
      failing.failOnStop = true;
      for (const service of [first, failing, third]) registry.register(service.serviceKey, service);
      await registry.startAll(context);
      await registry.stopAll();
      expect(calls.filter((call) => call.startsWith("stop:"))).to.deep.equal(["stop:c", "stop:b", "stop:a"]);
      expect(logger.at("error").some((e) => e.fields.service === "b")).to.equal(true);
    });

    it("keeps starting the others when one plugin's onStart throws", async () => {
      const failing = new GreenhouseService("a", calls);
      failing.failOnStart = true;
      registry.register("a", failing);
      registry.register("b", new GreenhouseService("b", calls));
      await registry.startAll(context);
      expect(calls).to.deep.equal(["start:a", "start:b"]);
      expect(logger.at("error").some((e) => e.fields.service === "a")).to.equal(true);
    });

    if (create(new MemoryLogger()).mountRoutes) {
      it("lets plugins mount routes on the engine HTTP server", () => {
        registry.register("greenhouse", new GreenhouseService("greenhouse", calls));
        registry.register("plain", {});
        const router = { mounted: [] as string[] };
        registry.mountRoutes?.(router);
        expect(router.mounted).to.deep.equal(["greenhouse"]);
      });
    }
  });
}

describeServiceRegistryContract("ServiceRegistry", (logger) => new ServiceRegistry(logger));

describe("ServiceNotFoundError", () => {
  it("names the key and the registered ones", () => {
    const error = new ServiceNotFoundError("weather", ["notifications"]);
    expect(error.message).to.include('"weather"').and.include("notifications");
  });
});
