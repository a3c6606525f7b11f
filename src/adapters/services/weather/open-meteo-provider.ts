/**
 * Open-Meteo's forecast API (https://open-meteo.com/en/docs): one GET of /v1/forecast
 * with `current`, `hourly` and `daily` variables, unix times (`timeformat=unixtime`) and
 * the configured time zone, so daily entries start at local midnight. No key.
 */
import { z } from "zod";
import { ServiceCallError } from "../../../domain/automation/service-errors.js";
import type { HttpClient } from "../../../ports/http-client.js";
import {
  describeWmoCode,
  type ForecastSettings,
  ForecastProvider,
  fetchForecast,
  type WeatherSnapshot,
} from "./weather-provider.js";

export const OPEN_METEO_URL = "https://api.open-meteo.com";

const CURRENT = [
  "temperature_2m",
  "relative_humidity_2m",
  "apparent_temperature",
  "is_day",
  "precipitation",
  "weather_code",
  "cloud_cover",
  "pressure_msl",
  "wind_speed_10m",
  "wind_direction_10m",
  "wind_gusts_10m",
];
const HOURLY = [
  "temperature_2m",
  "apparent_temperature",
  "relative_humidity_2m",
  "precipitation_probability",
  "precipitation",
  "weather_code",
  "wind_speed_10m",
];
const DAILY = [
  "weather_code",
  "temperature_2m_max",
  "temperature_2m_min",
  "precipitation_sum",
  "precipitation_probability_max",
  "wind_speed_10m_max",
  "sunrise",
  "sunset",
];

const value = z.number().nullable().optional();
const series = z.array(z.number().nullable());

const responseSchema = z.object({
  current: z.looseObject({
    time: z.number(),
    temperature_2m: z.number(),
    relative_humidity_2m: value,
    apparent_temperature: value,
    is_day: value,
    precipitation: value,
    weather_code: z.number(),
    cloud_cover: value,
    pressure_msl: value,
    wind_speed_10m: value,
    wind_direction_10m: value,
    wind_gusts_10m: value,
  }),
  hourly: z.looseObject({
    time: z.array(z.number()),
    temperature_2m: series,
    apparent_temperature: series.optional(),
    relative_humidity_2m: series.optional(),
    precipitation_probability: series.optional(),
    precipitation: series.optional(),
    weather_code: series,
    wind_speed_10m: series.optional(),
  }),
  daily: z.looseObject({
    time: z.array(z.number()),
    weather_code: series,
    temperature_2m_max: series,
    temperature_2m_min: series,
    precipitation_sum: series.optional(),
    precipitation_probability_max: series.optional(),
    wind_speed_10m_max: series.optional(),
    sunrise: series.optional(),
    sunset: series.optional(),
  }),
});

type OpenMeteoResponse = z.output<typeof responseSchema>;

const at = (list: (number | null)[] | undefined, index: number): number | null => list?.[index] ?? null;
const fromUnix = (seconds: number | null | undefined): Date | null =>
  seconds === null || seconds === undefined ? null : new Date(seconds * 1000);

/** `timeZone` unset means `auto`: the location's own zone. */
export type OpenMeteoSettings = ForecastSettings;

export class OpenMeteoProvider extends ForecastProvider<OpenMeteoSettings> {
  readonly name = "open-meteo";

  constructor(http: HttpClient, settings: OpenMeteoSettings) {
    super(http, settings, OPEN_METEO_URL);
  }

  private url(): string {
    const query = new URLSearchParams({
      latitude: String(this.settings.latitude),
      longitude: String(this.settings.longitude),
      current: CURRENT.join(","),
      hourly: HOURLY.join(","),
      daily: DAILY.join(","),
      timezone: this.settings.timeZone ?? "auto",
      timeformat: "unixtime",
      forecast_days: "16",
      forecast_hours: "48",
    });
    if (this.units === "imperial") {
      query.set("temperature_unit", "fahrenheit");
      query.set("wind_speed_unit", "mph");
      query.set("precipitation_unit", "inch");
    }
    return `${this.base}/v1/forecast?${query}`;
  }

  async fetch(): Promise<WeatherSnapshot> {
    const data = await fetchForecast(this.http, {
      vendor: "Open-Meteo",
      url: this.url(),
      timeoutMs: this.settings.timeoutMs,
      schema: responseSchema,
      refused: (response) => {
        const reason = (response.data as { reason?: unknown })?.reason;
        return new ServiceCallError(
          "weather",
          "SERVICE_REQUEST_FAILED",
          `Open-Meteo answered ${response.status}${typeof reason === "string" ? `: ${reason}` : ""}`,
        );
      },
    });
    return toSnapshot(data);
  }

  override describe(): Record<string, unknown> {
    return { ...super.describe(), timeZone: this.settings.timeZone ?? "auto" };
  }
}

function toSnapshot(data: OpenMeteoResponse): WeatherSnapshot {
  const { current, hourly, daily } = data;
  return {
    current: {
      time: new Date(current.time * 1000),
      temperature: current.temperature_2m,
      apparentTemperature: current.apparent_temperature ?? null,
      humidity: current.relative_humidity_2m ?? null,
      pressure: current.pressure_msl ?? null,
      windSpeed: current.wind_speed_10m ?? null,
      windDirection: current.wind_direction_10m ?? null,
      windGust: current.wind_gusts_10m ?? null,
      cloudCover: current.cloud_cover ?? null,
      precipitation: current.precipitation ?? null,
      code: current.weather_code,
      description: describeWmoCode(current.weather_code),
      isDay: current.is_day === null || current.is_day === undefined ? null : current.is_day === 1,
    },
    hourly: hourly.time.flatMap((time, index) => {
      const temperature = at(hourly.temperature_2m, index);
      const code = at(hourly.weather_code, index);
      if (temperature === null || code === null) return [];
      return [
        {
          time: new Date(time * 1000),
          temperature,
          apparentTemperature: at(hourly.apparent_temperature, index),
          humidity: at(hourly.relative_humidity_2m, index),
          precipitationProbability: at(hourly.precipitation_probability, index),
          precipitation: at(hourly.precipitation, index),
          windSpeed: at(hourly.wind_speed_10m, index),
          code,
          description: describeWmoCode(code),
        },
      ];
    }),
    daily: daily.time.flatMap((time, index) => {
      const max = at(daily.temperature_2m_max, index);
      const min = at(daily.temperature_2m_min, index);
      const code = at(daily.weather_code, index);
      if (max === null || min === null || code === null) return [];
      return [
        {
          date: new Date(time * 1000),
          temperatureMin: min,
          temperatureMax: max,
          precipitation: at(daily.precipitation_sum, index),
          precipitationProbability: at(daily.precipitation_probability_max, index),
          windSpeedMax: at(daily.wind_speed_10m_max, index),
          sunrise: fromUnix(at(daily.sunrise, index)),
          sunset: fromUnix(at(daily.sunset, index)),
          code,
          description: describeWmoCode(code),
        },
      ];
    }),
  };
}
