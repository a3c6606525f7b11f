/**
 * Fakes of Open-Meteo's /v1/forecast (https://open-meteo.com/en/docs) and OpenWeatherMap's
 * One Call 3.0 /data/3.0/onecall (https://openweathermap.org/api/one-call-3), answering
 * the documented response shapes with a forecast built around `now`.
 */
import { FakeHttpServer, sendJson } from "./fake-http-server.js";

export class FakeWeather {
  /** Answer with 503 while true (provider down). */
  down = false;
  /** The OpenWeatherMap key the fake accepts. */
  apiKey = "owm-key-123";
  /** What "now" is for the forecasts it builds. */
  now = new Date("2026-11-24T06:30:00Z");

  private constructor(readonly server: FakeHttpServer) {}

  static async start(): Promise<FakeWeather> {
    const holder: { fake?: FakeWeather } = {};
    const server = await FakeHttpServer.start((request, response) => {
      const fake = holder.fake;
      if (!fake) return;
      if (fake.down) {
        sendJson(response, 503, { error: true, reason: "Service unavailable" });
        return;
      }
      if (request.path === "/v1/forecast") {
        fake.openMeteo(request.query, response);
        return;
      }
      if (request.path === "/data/3.0/onecall") {
        fake.oneCall(request.query, response);
        return;
      }
      sendJson(response, 404, { error: true, reason: "Not found" });
    });
    holder.fake = new FakeWeather(server);
    return holder.fake;
  }

  get url(): string {
    return this.server.url;
  }

  get requests() {
    return this.server.requests;
  }

  private openMeteo(query: URLSearchParams, response: Parameters<FakeHttpServer["handler"]>[1]): void {
    const latitude = Number(query.get("latitude"));
    if (!query.has("latitude") || Number.isNaN(latitude) || Math.abs(latitude) > 90) {
      sendJson(response, 400, { error: true, reason: "Latitude must be in range of -90 to 90°." });
      return;
    }
    const fahrenheit = query.get("temperature_unit") === "fahrenheit";
    const temp = (celsius: number) => (fahrenheit ? Math.round((celsius * 9) / 5 + 32) : celsius);
    const nowS = Math.floor(this.now.getTime() / 1000);
    const hourS = nowS - (nowS % 3600);
    const dayS = nowS - (nowS % 86400);
    const hours = Array.from({ length: Number(query.get("forecast_hours") ?? 48) }, (_, i) => hourS + i * 3600);
    const days = Array.from({ length: Number(query.get("forecast_days") ?? 7) }, (_, i) => dayS + i * 86400);
    sendJson(response, 200, {
      latitude,
      longitude: Number(query.get("longitude")),
      generationtime_ms: 0.5,
      utc_offset_seconds: 0,
      timezone: query.get("timezone") ?? "GMT",
      current_units: { time: "unixtime", temperature_2m: fahrenheit ? "°F" : "°C" },
      current: {
        time: nowS - (nowS % 900),
        interval: 900,
        temperature_2m: temp(3.5),
        relative_humidity_2m: 81,
        apparent_temperature: temp(0.4),
        is_day: 0,
        precipitation: 0.2,
        weather_code: 61,
        cloud_cover: 100,
        pressure_msl: 1008.1,
        wind_speed_10m: 14.4,
        wind_direction_10m: 250,
        wind_gusts_10m: 31.7,
      },
      hourly: {
        time: hours,
        temperature_2m: hours.map((_, i) => temp(3 + (i % 12))),
        apparent_temperature: hours.map((_, i) => temp(1 + (i % 12))),
        relative_humidity_2m: hours.map(() => 80),
        precipitation_probability: hours.map((_, i) => (i < 6 ? 70 : 10)),
        precipitation: hours.map((_, i) => (i < 6 ? 0.4 : 0)),
        weather_code: hours.map((_, i) => (i < 6 ? 61 : 3)),
        wind_speed_10m: hours.map(() => 12),
      },
      daily: {
        time: days,
        weather_code: days.map((_, i) => (i === 0 ? 61 : 2)),
        temperature_2m_max: days.map((_, i) => temp(7 + i)),
        temperature_2m_min: days.map((_, i) => temp(1 + i)),
        precipitation_sum: days.map((_, i) => (i === 0 ? 3.2 : 0)),
        precipitation_probability_max: days.map((_, i) => (i === 0 ? 80 : 5)),
        wind_speed_10m_max: days.map(() => 25),
        sunrise: days.map((day) => day + 7 * 3600 + 1800),
        sunset: days.map((day) => day + 16 * 3600),
      },
    });
  }

  private oneCall(query: URLSearchParams, response: Parameters<FakeHttpServer["handler"]>[1]): void {
    if (query.get("appid") !== this.apiKey) {
      sendJson(response, 401, {
        cod: 401,
        message: "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info.",
      });
      return;
    }
    const nowS = Math.floor(this.now.getTime() / 1000);
    const hourS = nowS - (nowS % 3600);
    const dayS = nowS - (nowS % 86400);
    const rain = [{ id: 500, main: "Rain", description: "light rain", icon: "10n" }];
    const clouds = [{ id: 802, main: "Clouds", description: "scattered clouds", icon: "03d" }];
    sendJson(response, 200, {
      lat: Number(query.get("lat")),
      lon: Number(query.get("lon")),
      timezone: "Etc/UTC",
      timezone_offset: 0,
      current: {
        dt: nowS,
        sunrise: dayS + 7 * 3600 + 1800,
        sunset: dayS + 16 * 3600,
        temp: 3.5,
        feels_like: 0.4,
        pressure: 1008,
        humidity: 81,
        dew_point: 0.5,
        uvi: 0,
        clouds: 100,
        visibility: 10000,
        wind_speed: 4,
        wind_deg: 250,
        wind_gust: 8.8,
        weather: rain,
        rain: { "1h": 0.25 },
      },
      hourly: Array.from({ length: 48 }, (_, i) => ({
        dt: hourS + i * 3600,
        temp: 3 + (i % 12),
        feels_like: 1 + (i % 12),
        pressure: 1008,
        humidity: 80,
        clouds: 75,
        wind_speed: 3,
        wind_deg: 240,
        pop: i < 6 ? 0.7 : 0.1,
        weather: i < 6 ? rain : clouds,
        ...(i < 6 ? { rain: { "1h": 0.4 } } : {}),
      })),
      daily: Array.from({ length: 8 }, (_, i) => ({
        dt: dayS + i * 86400 + 12 * 3600,
        sunrise: dayS + i * 86400 + 7 * 3600 + 1800,
        sunset: dayS + i * 86400 + 16 * 3600,
        summary: "Expect a day of partly cloudy with rain",
        temp: { day: 6, min: 1 + i, max: 7 + i, night: 2, eve: 4, morn: 1 },
        feels_like: { day: 4, night: 0, eve: 2, morn: -1 },
        pressure: 1010,
        humidity: 80,
        wind_speed: 6.9,
        wind_deg: 250,
        weather: i === 0 ? rain : clouds,
        clouds: 90,
        pop: i === 0 ? 0.8 : 0.05,
        ...(i === 0 ? { rain: 3.2 } : {}),
        uvi: 0.5,
      })),
    });
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
