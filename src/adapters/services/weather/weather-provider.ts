import type { z } from "zod";
import { ServiceCallError } from "../../../domain/automation/service-errors.js";
import type { HttpClient, HttpResponse } from "../../../ports/http-client.js";
import type { DailyForecast, HourlyForecast, WeatherConditions, WeatherUnits } from "../../../ports/weather-service.js";
import { describeError } from "../health-tracker.js";

/** Everything one provider request returns; the cache keeps one of these. */
export interface WeatherSnapshot {
  current: WeatherConditions;
  hourly: HourlyForecast[];
  daily: DailyForecast[];
}

/** Where the weather comes from. `fetch` rejects with a ServiceCallError. */
export interface WeatherProvider {
  readonly name: "open-meteo" | "openweathermap";
  readonly units: WeatherUnits;
  fetch(): Promise<WeatherSnapshot>;
  /** Settings for /api/services, secrets masked. */
  describe(): Record<string, unknown>;
}

export interface WeatherLocation {
  latitude: number;
  longitude: number;
}

/** What every provider is configured with. */
export interface ForecastSettings extends WeatherLocation {
  units: WeatherUnits;
  /** IANA zone for day boundaries. */
  timeZone?: string | undefined;
  /** The vendor's URL by default; a self-hosted instance or a test fake otherwise. */
  baseUrl?: string | undefined;
  timeoutMs?: number;
}

/** A provider that answers from one HTTP forecast request of its vendor. */
export abstract class ForecastProvider<S extends ForecastSettings> implements WeatherProvider {
  abstract readonly name: WeatherProvider["name"];
  readonly units: WeatherUnits;
  protected readonly base: string;

  protected constructor(
    protected readonly http: HttpClient,
    protected readonly settings: S,
    vendorUrl: string,
  ) {
    this.units = settings.units;
    this.base = (settings.baseUrl ?? vendorUrl).replace(/\/+$/, "");
  }

  abstract fetch(): Promise<WeatherSnapshot>;

  describe(): Record<string, unknown> {
    return {
      url: this.base,
      latitude: this.settings.latitude,
      longitude: this.settings.longitude,
      units: this.units,
    };
  }
}

/** Descriptions of the WMO weather interpretation codes Open-Meteo reports. */
const WMO_CODES: Record<number, string> = {
  0: "Clear sky",
  1: "Mainly clear",
  2: "Partly cloudy",
  3: "Overcast",
  45: "Fog",
  48: "Depositing rime fog",
  51: "Light drizzle",
  53: "Drizzle",
  55: "Dense drizzle",
  56: "Light freezing drizzle",
  57: "Freezing drizzle",
  61: "Light rain",
  63: "Rain",
  65: "Heavy rain",
  66: "Light freezing rain",
  67: "Freezing rain",
  71: "Light snow",
  73: "Snow",
  75: "Heavy snow",
  77: "Snow grains",
  80: "Light rain showers",
  81: "Rain showers",
  82: "Violent rain showers",
  85: "Light snow showers",
  86: "Heavy snow showers",
  95: "Thunderstorm",
  96: "Thunderstorm with light hail",
  99: "Thunderstorm with heavy hail",
};

export function describeWmoCode(code: number): string {
  return WMO_CODES[code] ?? `Weather code ${code}`;
}

export const UNIT_LABELS = {
  metric: { temperature: "°C", windSpeed: "km/h", precipitation: "mm" },
  imperial: { temperature: "°F", windSpeed: "mph", precipitation: "in" },
} as const;

/** One forecast request of a provider, and how its failures read. */
export interface ForecastRequest<T extends z.ZodType> {
  /** The vendor's name as messages show it ("Open-Meteo"). */
  vendor: string;
  url: string;
  timeoutMs: number | undefined;
  /** The documented shape of the answer. */
  schema: T;
  /** The error for an answer that is not 2xx. */
  refused(response: HttpResponse): ServiceCallError;
  /**
   * Removes secrets from text that may echo the URL (an API key). When given, the transport
   * error is not kept as the cause either, since it may carry the URL too.
   */
  scrub?: (text: string) => string;
}

/** Fetches a forecast and checks its shape; every failure is the weather service's error. */
export async function fetchForecast<T extends z.ZodType>(
  http: HttpClient,
  request: ForecastRequest<T>,
): Promise<z.output<T>> {
  let response: HttpResponse;
  try {
    response = await http.request(request.url, { timeout: request.timeoutMs ?? 10_000, retries: 1 });
  } catch (error) {
    const why = describeError(error);
    throw new ServiceCallError(
      "weather",
      "SERVICE_UNREACHABLE",
      `${request.vendor} unreachable: ${request.scrub ? request.scrub(why) : why}`,
      request.scrub ? undefined : { cause: error },
    );
  }
  if (!response.ok) throw request.refused(response);
  const parsed = request.schema.safeParse(response.data);
  if (!parsed.success) {
    throw new ServiceCallError(
      "weather",
      "SERVICE_BAD_RESPONSE",
      `${request.vendor}'s answer is not the documented shape: ${parsed.error.issues[0]?.message ?? "invalid"}`,
    );
  }
  return parsed.data;
}
