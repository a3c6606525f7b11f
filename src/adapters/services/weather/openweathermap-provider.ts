/**
 * OpenWeatherMap One Call API 3.0 (https://openweathermap.org/api/one-call-3): one GET
 * of /data/3.0/onecall with `exclude=minutely,alerts`. Its wind speeds come in m/s for
 * metric (converted to km/h, as Open-Meteo gives) and its precipitation always in mm
 * (converted to inches for imperial). The `appid` never reaches a log line or an error.
 */
import { z } from "zod";
import { ServiceCallError } from "../../../domain/automation/service-errors.js";
import type { HttpClient } from "../../../ports/http-client.js";
import { maskSecrets } from "../../logging/mask-url.js";
import { type ForecastSettings, ForecastProvider, fetchForecast, type WeatherSnapshot } from "./weather-provider.js";
import { localTime } from "../../../domain/shared/local-time.js";

export const OPENWEATHERMAP_URL = "https://api.openweathermap.org";

const condition = z.array(z.looseObject({ id: z.number(), description: z.string() })).min(1);
const optionalNumber = z.number().nullable().optional();
const precipitation = z.looseObject({ "1h": z.number().optional() }).optional();

const responseSchema = z.looseObject({
  current: z.looseObject({
    dt: z.number(),
    sunrise: optionalNumber,
    sunset: optionalNumber,
    temp: z.number(),
    feels_like: optionalNumber,
    pressure: optionalNumber,
    humidity: optionalNumber,
    clouds: optionalNumber,
    wind_speed: optionalNumber,
    wind_deg: optionalNumber,
    wind_gust: optionalNumber,
    rain: precipitation,
    snow: precipitation,
    weather: condition,
  }),
  hourly: z.array(
    z.looseObject({
      dt: z.number(),
      temp: z.number(),
      feels_like: optionalNumber,
      humidity: optionalNumber,
      wind_speed: optionalNumber,
      pop: optionalNumber,
      rain: precipitation,
      snow: precipitation,
      weather: condition,
    }),
  ),
  daily: z.array(
    z.looseObject({
      dt: z.number(),
      sunrise: optionalNumber,
      sunset: optionalNumber,
      temp: z.looseObject({ min: z.number(), max: z.number() }),
      wind_speed: optionalNumber,
      pop: optionalNumber,
      rain: optionalNumber,
      snow: optionalNumber,
      weather: condition,
    }),
  ),
});

/** `timeZone` sets where days start: OpenWeatherMap's daily `dt` is local noon. */
export interface OpenWeatherMapSettings extends ForecastSettings {
  apiKey: string;
}

const MM_PER_INCH = 25.4;

export class OpenWeatherMapProvider extends ForecastProvider<OpenWeatherMapSettings> {
  readonly name = "openweathermap";

  constructor(http: HttpClient, settings: OpenWeatherMapSettings) {
    super(http, settings, OPENWEATHERMAP_URL);
  }

  async fetch(): Promise<WeatherSnapshot> {
    const query = new URLSearchParams({
      lat: String(this.settings.latitude),
      lon: String(this.settings.longitude),
      exclude: "minutely,alerts",
      units: this.units,
      appid: this.settings.apiKey,
    });
    const data = await fetchForecast(this.http, {
      vendor: "OpenWeatherMap",
      url: `${this.base}/data/3.0/onecall?${query}`,
      timeoutMs: this.settings.timeoutMs,
      schema: responseSchema,
      scrub: (text) => this.scrub(text),
      refused: (response) => {
        const message = (response.data as { message?: unknown })?.message;
        const why = `OpenWeatherMap answered ${response.status}${typeof message === "string" ? `: ${this.scrub(message)}` : ""}`;
        const auth = response.status === 401 || response.status === 403;
        return new ServiceCallError(
          "weather",
          auth ? "SERVICE_AUTH_FAILED" : "SERVICE_REQUEST_FAILED",
          auth ? `${why} (check OPENWEATHERMAP_API_KEY and that the key has a One Call 3.0 subscription)` : why,
        );
      },
    });
    return this.toSnapshot(data);
  }

  /** The key must not survive in any message, even one echoing a URL back. */
  private scrub(text: string): string {
    return maskSecrets(text).split(this.settings.apiKey).join("***");
  }

  private wind(speed: number | null | undefined): number | null {
    if (speed === null || speed === undefined) return null;
    return this.units === "metric" ? Math.round(speed * 3.6 * 10) / 10 : speed;
  }

  private precipitation(mm: number | null | undefined): number | null {
    if (mm === null || mm === undefined) return null;
    return this.units === "imperial" ? Math.round((mm / MM_PER_INCH) * 1000) / 1000 : mm;
  }

  private toSnapshot(data: z.output<typeof responseSchema>): WeatherSnapshot {
    const { current } = data;
    const [now] = current.weather;
    const isDay =
      current.sunrise && current.sunset ? current.dt >= current.sunrise && current.dt < current.sunset : null;
    const hourPrecipitation = (entry: {
      rain?: { "1h"?: number | undefined } | undefined;
      snow?: { "1h"?: number | undefined } | undefined;
    }) =>
      entry.rain?.["1h"] === undefined && entry.snow?.["1h"] === undefined
        ? 0
        : (entry.rain?.["1h"] ?? 0) + (entry.snow?.["1h"] ?? 0);
    return {
      current: {
        time: new Date(current.dt * 1000),
        temperature: current.temp,
        apparentTemperature: current.feels_like ?? null,
        humidity: current.humidity ?? null,
        pressure: current.pressure ?? null,
        windSpeed: this.wind(current.wind_speed),
        windDirection: current.wind_deg ?? null,
        windGust: this.wind(current.wind_gust),
        cloudCover: current.clouds ?? null,
        precipitation: this.precipitation(hourPrecipitation(current)),
        code: now?.id ?? 0,
        description: capitalise(now?.description ?? ""),
        isDay,
      },
      hourly: data.hourly.slice(0, 48).map((hour) => ({
        time: new Date(hour.dt * 1000),
        temperature: hour.temp,
        apparentTemperature: hour.feels_like ?? null,
        humidity: hour.humidity ?? null,
        precipitationProbability: hour.pop === null || hour.pop === undefined ? null : Math.round(hour.pop * 100),
        precipitation: this.precipitation(hourPrecipitation(hour)),
        windSpeed: this.wind(hour.wind_speed),
        code: hour.weather[0]?.id ?? 0,
        description: capitalise(hour.weather[0]?.description ?? ""),
      })),
      daily: data.daily.map((day) => ({
        date: startOfDay(new Date(day.dt * 1000), this.settings.timeZone),
        temperatureMin: day.temp.min,
        temperatureMax: day.temp.max,
        precipitation: this.precipitation((day.rain ?? 0) + (day.snow ?? 0)),
        precipitationProbability: day.pop === null || day.pop === undefined ? null : Math.round(day.pop * 100),
        windSpeedMax: this.wind(day.wind_speed),
        sunrise: day.sunrise ? new Date(day.sunrise * 1000) : null,
        sunset: day.sunset ? new Date(day.sunset * 1000) : null,
        code: day.weather[0]?.id ?? 0,
        description: capitalise(day.weather[0]?.description ?? ""),
      })),
    };
  }

  override describe(): Record<string, unknown> {
    return { ...super.describe(), apiKey: "***" };
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Local midnight of `instant`'s day in `timeZone` (the process zone when unset). */
export function startOfDay(instant: Date, timeZone: string | undefined): Date {
  const local = localTime(instant, timeZone);
  const sinceMidnightMs = (local.minutes * 60 + local.seconds) * 1000 + instant.getUTCMilliseconds();
  return new Date(instant.getTime() - sinceMidnightMs);
}
