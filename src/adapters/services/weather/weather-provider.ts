import type { DailyForecast, HourlyForecast, WeatherConditions, WeatherUnits } from "../../../ports/weather-service.js";

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
