import { expect } from "chai";
import { FetchHttpClient } from "../../../src/adapters/http-client/fetch-http-client.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { CachedWeatherService } from "../../../src/adapters/services/weather/cached-weather-service.js";
import { OpenMeteoProvider } from "../../../src/adapters/services/weather/open-meteo-provider.js";
import { OpenWeatherMapProvider } from "../../../src/adapters/services/weather/openweathermap-provider.js";
import { ServiceCallError } from "../../../src/domain/automation/service-errors.js";
import { FakeWeather } from "../../support/fake-weather.js";

describe("weather (against fake Open-Meteo and OpenWeatherMap on loopback)", () => {
  let weather: FakeWeather;
  let logger: MemoryLogger;
  let now: Date;
  const clock = () => now;
  const http = () => new FetchHttpClient(logger, { sleep: async () => undefined });

  const openMeteo = (units: "metric" | "imperial" = "metric") =>
    new CachedWeatherService(
      new OpenMeteoProvider(http(), {
        latitude: 59.91,
        longitude: 10.75,
        units,
        timeZone: "UTC",
        baseUrl: weather.url,
      }),
      logger,
      { cacheTtlSeconds: 600, now: clock },
    );
  const owm = (apiKey = "owm-key-123", units: "metric" | "imperial" = "metric") =>
    new CachedWeatherService(
      new OpenWeatherMapProvider(http(), {
        latitude: 59.91,
        longitude: 10.75,
        units,
        apiKey,
        timeZone: "UTC",
        baseUrl: weather.url,
      }),
      logger,
      { now: clock },
    );

  beforeEach(async () => {
    weather = await FakeWeather.start();
    logger = new MemoryLogger();
    now = new Date("2026-11-24T06:30:00Z");
  });
  afterEach(() => weather.close());

  describe("Open-Meteo", () => {
    it("asks for current, hourly and daily variables in the configured zone and maps them", async () => {
      const service = openMeteo();
      const current = await service.current();
      const query = weather.requests[0]?.query;
      expect(query?.get("latitude")).to.equal("59.91");
      expect(query?.get("timezone")).to.equal("UTC");
      expect(query?.get("timeformat")).to.equal("unixtime");
      expect(query?.get("current")).to.contain("temperature_2m");
      expect(current.provider).to.equal("open-meteo");
      expect(current.stale).to.equal(false);
      expect(current.unitLabels).to.deep.equal({ temperature: "°C", windSpeed: "km/h", precipitation: "mm" });
      expect(current.data).to.deep.include({
        temperature: 3.5,
        humidity: 81,
        code: 61,
        description: "Light rain",
        isDay: false,
      });
      expect(current.data.time).to.be.instanceOf(Date);

      const hourly = await service.hourly();
      expect(hourly.data).to.have.length(48);
      expect(hourly.data[0]?.time.toISOString()).to.equal("2026-11-24T06:00:00.000Z");
      const daily = await service.daily(16);
      expect(daily.data).to.have.length(16);
      expect(daily.data[0]).to.deep.include({ temperatureMin: 1, temperatureMax: 7, precipitationProbability: 80 });
      expect(daily.data[0]?.date.toISOString()).to.equal("2026-11-24T00:00:00.000Z");
      expect(daily.data[0]?.sunrise?.toISOString()).to.equal("2026-11-24T07:30:00.000Z");
      expect(weather.requests).to.have.length(1);
    });

    it("asks for imperial units and labels them", async () => {
      const report = await openMeteo("imperial").current();
      expect(weather.requests[0]?.query.get("temperature_unit")).to.equal("fahrenheit");
      expect(weather.requests[0]?.query.get("wind_speed_unit")).to.equal("mph");
      expect(report.unitLabels.temperature).to.equal("°F");
      expect(report.data.temperature).to.equal(38);
    });

    it("makes one request per cache interval, however often it is asked", async () => {
      const service = openMeteo();
      for (let minute = 0; minute < 10; minute++) {
        now = new Date(Date.parse("2026-11-24T06:30:00Z") + minute * 60_000);
        await service.current();
      }
      expect(weather.requests).to.have.length(1);
      now = new Date("2026-11-24T06:40:00Z");
      await service.daily();
      expect(weather.requests).to.have.length(2);
    });

    it("shares one request between concurrent callers", async () => {
      const service = openMeteo();
      await Promise.all([service.current(), service.hourly(), service.daily()]);
      expect(weather.requests).to.have.length(1);
    });

    it("answers with the last good forecast and its age while the provider is down", async () => {
      const service = openMeteo();
      await service.current();
      weather.down = true;
      now = new Date("2026-11-24T07:00:00Z");
      const report = await service.current();
      expect(report.stale).to.equal(true);
      expect(report.ageSeconds).to.equal(1800);
      expect(report.data.temperature).to.equal(3.5);
      const health = service.serviceHealth();
      expect(health.reachable).to.equal(true);
      expect(health.lastError).to.match(/503/);
      expect(logger.at("warn").some((entry) => /last good forecast/.test(entry.msg))).to.equal(true);
    });

    it("rejects with a catchable ServiceCallError when there never was a good answer", async () => {
      weather.down = true;
      const error = await openMeteo()
        .current()
        .then(
          () => null,
          (caught: unknown) => caught,
        );
      expect(error).to.be.instanceOf(ServiceCallError);
      expect((error as ServiceCallError).code).to.equal("SERVICE_REQUEST_FAILED");
    });

    it("reports a provider it cannot reach as unreachable", async () => {
      const service = openMeteo();
      await weather.close();
      const error = await service.current().catch((caught: unknown) => caught);
      expect((error as ServiceCallError).code).to.equal("SERVICE_UNREACHABLE");
      expect(service.serviceHealth().reachable).to.equal(false);
      weather = await FakeWeather.start();
    });

    it("refuses out-of-range counts without a request", async () => {
      const service = openMeteo();
      for (const bad of [0, 49, 1.5]) {
        const error = await service.hourly(bad).catch((caught: unknown) => caught);
        expect((error as ServiceCallError).code).to.equal("SERVICE_INVALID_ARGUMENT");
      }
      expect((await service.daily(17).catch((caught: unknown) => caught)) as ServiceCallError).to.have.property(
        "code",
        "SERVICE_INVALID_ARGUMENT",
      );
      expect(weather.requests).to.have.length(0);
    });
  });

  describe("OpenWeatherMap One Call 3.0", () => {
    it("maps current, 48 hours and 8 days, converting m/s to km/h", async () => {
      const service = owm();
      const current = await service.current();
      expect(weather.requests[0]?.path).to.equal("/data/3.0/onecall");
      expect(weather.requests[0]?.query.get("exclude")).to.equal("minutely,alerts");
      expect(current.provider).to.equal("openweathermap");
      expect(current.data).to.deep.include({
        temperature: 3.5,
        windSpeed: 14.4,
        code: 500,
        description: "Light rain",
        precipitation: 0.25,
      });
      const hourly = await service.hourly();
      expect(hourly.data).to.have.length(48);
      expect(hourly.data[0]?.precipitationProbability).to.equal(70);
      const daily = await service.daily(16);
      expect(daily.data).to.have.length(8);
      expect(daily.data[0]?.date.toISOString()).to.equal("2026-11-24T00:00:00.000Z");
      expect(daily.data[0]).to.deep.include({ temperatureMin: 1, temperatureMax: 7, precipitation: 3.2 });
    });

    it("converts precipitation to inches for imperial", async () => {
      const report = await owm("owm-key-123", "imperial").daily(1);
      expect(weather.requests[0]?.query.get("units")).to.equal("imperial");
      expect(report.data[0]?.precipitation).to.equal(0.126);
    });

    it("reports a refused key as an auth failure and never logs or reports the key", async () => {
      const service = owm("wrong-key-456");
      const error = await service.current().catch((caught: unknown) => caught);
      expect(error).to.be.instanceOf(ServiceCallError);
      expect((error as ServiceCallError).code).to.equal("SERVICE_AUTH_FAILED");
      expect((error as Error).message).to.match(/OPENWEATHERMAP_API_KEY/);
      const everything = JSON.stringify([logger.entries, service.serviceHealth(), (error as Error).message]);
      expect(everything).not.to.contain("wrong-key-456");
      expect(service.serviceHealth().config.apiKey).to.equal("***");
    });
  });
});
