/**
 * The weather service (registry key `weather`): current conditions, an hourly forecast
 * for 48 hours and a daily forecast for up to 16 days, from Open-Meteo (default, no key)
 * or OpenWeatherMap One Call 3.0. Answers are cached (WEATHER_CACHE_TTL, default 10 min),
 * so asking every minute costs at most one request per interval.
 *
 * Every method resolves a {@link WeatherReport}; when the provider is down it resolves the
 * last good answer with `stale: true` and its age. It rejects with a `ServiceCallError`
 * (service `weather`) only when there has never been a good answer.
 */

export type WeatherUnits = "metric" | "imperial";

/** The units of every number in a report. */
export interface WeatherUnitLabels {
  /** `°C` or `°F`. */
  temperature: string;
  /** `km/h` or `mph`. */
  windSpeed: string;
  /** `mm` or `in`. */
  precipitation: string;
}

export interface WeatherConditions {
  time: Date;
  temperature: number;
  apparentTemperature: number | null;
  /** Relative humidity, %. */
  humidity: number | null;
  /** Sea-level pressure, hPa. */
  pressure: number | null;
  windSpeed: number | null;
  /** Degrees, 0 = from the north. */
  windDirection: number | null;
  windGust: number | null;
  /** %. */
  cloudCover: number | null;
  /** In the last hour. */
  precipitation: number | null;
  /** Provider's own code (WMO code for Open-Meteo, condition id for OpenWeatherMap). */
  code: number;
  /** Plain words: "Light rain", "Clear sky". */
  description: string;
  isDay: boolean | null;
}

export interface HourlyForecast {
  time: Date;
  temperature: number;
  apparentTemperature: number | null;
  humidity: number | null;
  /** %, 0–100. */
  precipitationProbability: number | null;
  precipitation: number | null;
  windSpeed: number | null;
  code: number;
  description: string;
}

export interface DailyForecast {
  /** Local midnight (configured TZ) starting the day. */
  date: Date;
  temperatureMin: number;
  temperatureMax: number;
  precipitation: number | null;
  /** %, 0–100. */
  precipitationProbability: number | null;
  windSpeedMax: number | null;
  sunrise: Date | null;
  sunset: Date | null;
  code: number;
  description: string;
}

/** An answer with where and when it came from. */
export interface WeatherReport<T> {
  data: T;
  /** `open-meteo` or `openweathermap`. */
  provider: string;
  units: WeatherUnits;
  unitLabels: WeatherUnitLabels;
  /** When the provider gave this answer. */
  fetchedAt: Date;
  /** Seconds since `fetchedAt`. */
  ageSeconds: number;
  /** True when the provider failed and this is the last good answer. */
  stale: boolean;
}

export interface WeatherService {
  /** Conditions now. */
  current(): Promise<WeatherReport<WeatherConditions>>;
  /** The next `hours` hours (1–48, default 48), starting with the current hour. */
  hourly(hours?: number): Promise<WeatherReport<HourlyForecast[]>>;
  /** The next `days` days (1–16, default 7), starting today; OpenWeatherMap gives at most 8. */
  daily(days?: number): Promise<WeatherReport<DailyForecast[]>>;
}

export const WEATHER_SERVICE_KEY = "weather";
