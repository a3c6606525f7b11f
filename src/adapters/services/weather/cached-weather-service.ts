/**
 * The `weather` service: one provider request per cache interval, shared by every
 * method and every concurrent caller; the last good answer stands in (marked stale, with
 * its age) while the provider is down.
 */
import { ServiceCallError } from "../../../domain/automation/service-errors.js";
import type { Logger } from "../../../ports/logger.js";
import type { ServiceHealthReport, ServiceHealthReporter } from "../../../ports/service-health.js";
import type {
  DailyForecast,
  HourlyForecast,
  WeatherConditions,
  WeatherReport,
  WeatherService,
} from "../../../ports/weather-service.js";
import { describeError, HealthTracker } from "../health-tracker.js";
import { UNIT_LABELS, type WeatherProvider, type WeatherSnapshot } from "./weather-provider.js";

export interface CachedWeatherOptions {
  /** How long an answer is reused, in seconds. Default 600. */
  cacheTtlSeconds?: number;
  now?: () => Date;
}

export class CachedWeatherService implements WeatherService, ServiceHealthReporter {
  readonly serviceKey = "weather";
  private cached: { snapshot: WeatherSnapshot; fetchedAt: Date } | null = null;
  private inFlight: Promise<void> | null = null;
  private readonly ttlMs: number;
  private readonly now: () => Date;
  private readonly health: HealthTracker;
  private requests = 0;

  constructor(
    private readonly provider: WeatherProvider,
    private readonly logger: Logger,
    options: CachedWeatherOptions = {},
  ) {
    this.ttlMs = (options.cacheTtlSeconds ?? 600) * 1000;
    this.now = options.now ?? (() => new Date());
    this.health = new HealthTracker(this.now);
  }

  async current(): Promise<WeatherReport<WeatherConditions>> {
    return this.report((snapshot) => snapshot.current);
  }

  async hourly(hours = 48): Promise<WeatherReport<HourlyForecast[]>> {
    const count = this.checkCount("hours", hours, 48);
    return this.report((snapshot) => {
      // The provider's list starts at the current hour; drop hours already past since it was fetched.
      const hourStart = this.now().getTime() - 3_600_000;
      return snapshot.hourly.filter((entry) => entry.time.getTime() > hourStart).slice(0, count);
    });
  }

  async daily(days = 7): Promise<WeatherReport<DailyForecast[]>> {
    const count = this.checkCount("days", days, 16);
    return this.report((snapshot) => {
      const dayStart = this.now().getTime() - 86_400_000;
      return snapshot.daily.filter((entry) => entry.date.getTime() > dayStart).slice(0, count);
    });
  }

  private checkCount(what: string, value: number, max: number): number {
    if (!Number.isInteger(value) || value < 1 || value > max) {
      throw new ServiceCallError(
        "weather",
        "SERVICE_INVALID_ARGUMENT",
        `${what} must be a whole number from 1 to ${max} (got ${value})`,
      );
    }
    return value;
  }

  private async report<T>(pick: (snapshot: WeatherSnapshot) => T): Promise<WeatherReport<T>> {
    let failure: unknown = null;
    if (!this.isFresh()) {
      try {
        await this.refresh();
      } catch (error) {
        failure = error;
      }
    }
    const cached = this.cached;
    if (!cached) {
      if (failure instanceof ServiceCallError) throw failure;
      throw new ServiceCallError("weather", "SERVICE_UNREACHABLE", `No weather yet: ${describeError(failure)}`);
    }
    const ageMs = this.now().getTime() - cached.fetchedAt.getTime();
    return {
      data: pick(cached.snapshot),
      provider: this.provider.name,
      units: this.provider.units,
      unitLabels: { ...UNIT_LABELS[this.provider.units] },
      fetchedAt: cached.fetchedAt,
      ageSeconds: Math.max(0, Math.floor(ageMs / 1000)),
      stale: failure !== null || ageMs >= this.ttlMs,
    };
  }

  private isFresh(): boolean {
    return this.cached !== null && this.now().getTime() - this.cached.fetchedAt.getTime() < this.ttlMs;
  }

  /** One request at a time: callers arriving while it runs share its outcome. */
  private refresh(): Promise<void> {
    this.inFlight ??= (async () => {
      this.requests++;
      try {
        const snapshot = await this.provider.fetch();
        this.cached = { snapshot, fetchedAt: this.now() };
        this.health.succeeded();
        this.logger.debug("Weather updated", { provider: this.provider.name });
      } catch (error) {
        const message = describeError(error);
        const code = error instanceof ServiceCallError ? error.code : "SERVICE_UNREACHABLE";
        this.health.failed(message, code !== "SERVICE_UNREACHABLE");
        this.logger.warn(
          this.cached ? "Weather provider failed; answering with the last good forecast" : "Weather provider failed",
          { provider: this.provider.name, code, error: message },
        );
        throw error;
      } finally {
        this.inFlight = null;
      }
    })();
    return this.inFlight;
  }

  /** Provider requests made so far (the cache's effect, for tests and the overview). */
  get requestCount(): number {
    return this.requests;
  }

  serviceHealth(): ServiceHealthReport {
    return {
      provider: this.provider.name,
      configured: true,
      ...this.health.snapshot(),
      config: { ...this.provider.describe(), cacheTtlSeconds: this.ttlMs / 1000 },
      details: {
        requests: this.requests,
        cachedAt: this.cached?.fetchedAt.toISOString() ?? null,
      },
    };
  }
}
