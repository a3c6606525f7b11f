/**
 * Stand-ins for the services of the services issue (weather, relay, lightPanels) that the
 * test kit hands to automations: they keep the state a real device would and answer in the
 * shapes the real services answer, without a network. Pass them under `services` of
 * createTestEngine; every call is also recorded in `serviceCalls`.
 */

import { ServiceCallError } from "../../domain/automation/service-errors.js";
import type { LightPanelInfo, LightPanelService, LightPanelState } from "../../ports/light-panel-service.js";
import type {
  CoverState,
  CoverStatus,
  RelayDeviceInfo,
  RelayService,
  RelayStatusChange,
  RelayStatusListener,
  SwitchStatus,
} from "../../ports/relay-service.js";
import type {
  DailyForecast,
  HourlyForecast,
  WeatherConditions,
  WeatherReport,
  WeatherService,
} from "../../ports/weather-service.js";

type Clock = () => Date;

/** Current conditions as a weather report carries them, without the time (the kit's clock gives it). */
export type FakeWeatherConditions = Omit<WeatherConditions, "time">;

const MILD: FakeWeatherConditions = {
  temperature: 15,
  apparentTemperature: 14,
  humidity: 70,
  pressure: 1015,
  windSpeed: 10,
  windDirection: 240,
  windGust: 20,
  cloudCover: 50,
  precipitation: 0,
  code: 2,
  description: "Partly cloudy",
  isDay: true,
};

/** The weather service: `current()`, `hourly()` and `daily()` answer from what the test set. */
export class FakeWeather implements WeatherService {
  private conditions: FakeWeatherConditions;
  private hourlyForecast: HourlyForecast[] = [];
  private dailyForecast: DailyForecast[] = [];
  private failing: string | null = null;

  constructor(
    conditions: Partial<FakeWeatherConditions> = {},
    private now: Clock = () => new Date(),
  ) {
    this.conditions = { ...MILD, ...conditions };
  }

  /** The test engine hands over its fake clock, so times in reports follow `advance()`. */
  useClock(now: Clock): void {
    this.now = now;
  }

  /** Changes the conditions the next `current()` reports. */
  set(conditions: Partial<FakeWeatherConditions>): this {
    this.conditions = { ...this.conditions, ...conditions };
    return this;
  }

  /** What `hourly()` and `daily()` report. */
  forecast(forecast: { hourly?: HourlyForecast[]; daily?: DailyForecast[] }): this {
    if (forecast.hourly) this.hourlyForecast = forecast.hourly;
    if (forecast.daily) this.dailyForecast = forecast.daily;
    return this;
  }

  /** Makes every call reject with `message` (the provider is down and nothing is cached); null heals it. */
  fail(message: string | null = "Weather provider unreachable"): this {
    this.failing = message;
    return this;
  }

  async current(): Promise<WeatherReport<WeatherConditions>> {
    return this.report({ ...this.conditions, time: this.now() });
  }

  async hourly(hours = 48): Promise<WeatherReport<HourlyForecast[]>> {
    return this.report(this.hourlyForecast.slice(0, hours));
  }

  async daily(days = 7): Promise<WeatherReport<DailyForecast[]>> {
    return this.report(this.dailyForecast.slice(0, days));
  }

  private report<T>(data: T): WeatherReport<T> {
    if (this.failing !== null) throw new ServiceCallError("weather", "SERVICE_UNREACHABLE", this.failing);
    return {
      data,
      provider: "fake",
      units: "metric" as const,
      unitLabels: { temperature: "°C", windSpeed: "km/h", precipitation: "mm" },
      fetchedAt: this.now(),
      ageSeconds: 0,
      stale: false,
    };
  }
}

/** A relay device the fake knows: a name, or its name with switch and cover channels. */
export type FakeRelayDevice = string | { name: string; switches?: number[]; covers?: number[] };

/**
 * The relay service (Shelly switches and covers): commands change the state the fake keeps,
 * `lastKnownSwitch()`/`isOn()` read it, and `press()` plays someone using the device's own
 * button (a status change automations can listen to with `onStatusChange`).
 */
export class FakeRelays implements RelayService {
  private readonly known = new Map<string, { switches: number[]; covers: number[] }>();
  private readonly switches = new Map<string, SwitchStatus>();
  private readonly coverStates = new Map<string, CoverStatus>();
  private readonly listeners = new Set<RelayStatusListener>();

  constructor(
    devices: FakeRelayDevice[],
    private now: Clock = () => new Date(),
  ) {
    for (const device of devices) {
      const entry = typeof device === "string" ? { name: device } : device;
      this.known.set(entry.name, { switches: entry.switches ?? [0], covers: entry.covers ?? [] });
    }
  }

  /** The test engine hands over its fake clock, so `updatedAt` follows `advance()`. */
  useClock(now: Clock): void {
    this.now = now;
  }

  devices(): RelayDeviceInfo[] {
    return [...this.known].map(([name, channels]) => ({
      name,
      transport: "mqtt" as const,
      address: `fake/${name}`,
      ...channels,
    }));
  }

  hasDevice(name: string): boolean {
    return this.known.has(name);
  }

  async switchOn(device: string, channel = 0): Promise<void> {
    this.setSwitchNow(device, true, channel, "command");
  }

  async switchOff(device: string, channel = 0): Promise<void> {
    this.setSwitchNow(device, false, channel, "command");
  }

  async setSwitch(device: string, on: boolean, channel = 0): Promise<void> {
    this.setSwitchNow(device, on, channel, "command");
  }

  async toggleSwitch(device: string, channel = 0): Promise<void> {
    this.setSwitchNow(device, !this.isOn(device, channel), channel, "command");
  }

  async getSwitchStatus(device: string, channel = 0): Promise<SwitchStatus> {
    this.check(device);
    return this.lastKnownSwitch(device, channel) ?? { device, channel, on: false, updatedAt: this.now() };
  }

  async openCover(device: string, channel = 0): Promise<void> {
    this.setCover(device, channel, "open", 100);
  }

  async closeCover(device: string, channel = 0): Promise<void> {
    this.setCover(device, channel, "closed", 0);
  }

  async stopCover(device: string, channel = 0): Promise<void> {
    this.setCover(device, channel, "stopped", this.lastKnownCover(device, channel)?.position ?? null);
  }

  async setCoverPosition(device: string, position: number, channel = 0): Promise<void> {
    if (!Number.isFinite(position) || position < 0 || position > 100) {
      throw new ServiceCallError(
        "relay",
        "SERVICE_INVALID_ARGUMENT",
        `Cover position must be 0 to 100, got ${position}`,
      );
    }
    this.setCover(device, channel, position === 0 ? "closed" : position === 100 ? "open" : "stopped", position);
  }

  async getCoverStatus(device: string, channel = 0): Promise<CoverStatus> {
    this.check(device);
    return (
      this.lastKnownCover(device, channel) ?? {
        device,
        channel,
        state: "stopped",
        position: null,
        updatedAt: this.now(),
      }
    );
  }

  lastKnownSwitch(device: string, channel = 0): SwitchStatus | null {
    return this.switches.get(`${device}#${channel}`) ?? null;
  }

  lastKnownCover(device: string, channel = 0): CoverStatus | null {
    return this.coverStates.get(`${device}#${channel}`) ?? null;
  }

  onStatusChange(listener: RelayStatusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether the switch is on now (test helper). */
  isOn(device: string, channel = 0): boolean {
    return this.lastKnownSwitch(device, channel)?.on ?? false;
  }

  /** Someone used the device itself: its state changes and listeners hear of it (test helper). */
  press(device: string, on: boolean, channel = 0): void {
    this.setSwitchNow(device, on, channel, "button");
  }

  private setSwitchNow(device: string, on: boolean, channel: number, source: string): void {
    this.check(device);
    const previous = this.lastKnownSwitch(device, channel);
    const status: SwitchStatus = { device, channel, on, source, updatedAt: this.now() };
    this.switches.set(`${device}#${channel}`, status);
    this.emit({ kind: "switch", device, channel, status, previous });
  }

  private setCover(device: string, channel: number, state: CoverState, position: number | null): void {
    this.check(device);
    const previous = this.lastKnownCover(device, channel);
    const status: CoverStatus = { device, channel, state, position, source: "command", updatedAt: this.now() };
    this.coverStates.set(`${device}#${channel}`, status);
    this.emit({ kind: "cover", device, channel, status, previous });
  }

  private emit(change: RelayStatusChange): void {
    for (const listener of [...this.listeners]) listener(change);
  }

  private check(device: string): void {
    if (!this.known.has(device)) {
      throw new ServiceCallError(
        "relay",
        "SERVICE_UNKNOWN_DEVICE",
        `Unknown relay device "${device}" (known: ${[...this.known.keys()].join(", ") || "none"})`,
      );
    }
  }
}

/** The state a fake light panel keeps. */
export type FakeLightPanelState = LightPanelState;

/** The light-panel service (Nanoleaf): panels keep the state commands set; `state(name)` reads it. */
export class FakeLightPanels implements LightPanelService {
  private readonly states = new Map<string, FakeLightPanelState>();
  private readonly paired = new Set<string>();
  readonly identified: string[] = [];

  constructor(
    names: string[],
    private readonly effects: string[] = ["Northern Lights", "Flames", "Forest"],
  ) {
    for (const name of names) {
      this.paired.add(name);
      this.states.set(name, {
        name,
        on: false,
        brightness: 100,
        hue: 0,
        saturation: 0,
        colorTemperature: 4000,
        colorMode: "ct",
        effect: null,
        model: "NL22",
        firmwareVersion: "fake",
      });
    }
  }

  panels(): LightPanelInfo[] {
    return [...this.states.keys()].map((name) => ({
      name,
      url: `http://fake-${name}:16021`,
      paired: this.paired.has(name),
    }));
  }

  hasPanel(name: string): boolean {
    return this.states.has(name);
  }

  async pair(name: string): Promise<void> {
    this.panel(name);
    this.paired.add(name);
  }

  async turnOn(name: string): Promise<void> {
    this.panel(name).on = true;
  }

  async turnOff(name: string): Promise<void> {
    this.panel(name).on = false;
  }

  async setBrightness(name: string, brightness: number): Promise<void> {
    this.panel(name).brightness = range(brightness, 0, 100, "brightness");
  }

  async setHueSaturation(name: string, hue: number, saturation: number): Promise<void> {
    const panel = this.panel(name);
    panel.hue = range(hue, 0, 360, "hue");
    panel.saturation = range(saturation, 0, 100, "saturation");
    panel.colorMode = "hs";
    panel.effect = null;
  }

  async setColorTemperature(name: string, kelvin: number): Promise<void> {
    const panel = this.panel(name);
    panel.colorTemperature = range(kelvin, 1200, 6500, "colour temperature");
    panel.colorMode = "ct";
    panel.effect = null;
  }

  async getState(name: string): Promise<FakeLightPanelState> {
    return { ...this.panel(name) };
  }

  async listEffects(name: string): Promise<string[]> {
    this.panel(name);
    return [...this.effects];
  }

  async selectEffect(name: string, effect: string): Promise<void> {
    const panel = this.panel(name);
    if (!this.effects.includes(effect))
      throw new ServiceCallError(
        "lightPanels",
        "SERVICE_INVALID_ARGUMENT",
        `Panel "${name}" has no effect "${effect}"`,
      );
    panel.effect = effect;
    panel.colorMode = "effect";
  }

  async currentEffect(name: string): Promise<string | null> {
    return this.panel(name).effect;
  }

  async identify(name: string): Promise<void> {
    this.panel(name);
    this.identified.push(name);
  }

  /** A panel's state now (test helper, synchronous). */
  state(name: string): FakeLightPanelState {
    return { ...this.panel(name) };
  }

  private panel(name: string): FakeLightPanelState {
    const panel = this.states.get(name);
    if (!panel) {
      throw new ServiceCallError(
        "lightPanels",
        "SERVICE_UNKNOWN_DEVICE",
        `Unknown light panel "${name}" (known: ${[...this.states.keys()].join(", ") || "none"})`,
      );
    }
    return panel;
  }
}

function range(value: number, min: number, max: number, what: string): number {
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new ServiceCallError(
      "lightPanels",
      "SERVICE_INVALID_ARGUMENT",
      `${what} must be ${min} to ${max}, got ${value}`,
    );
  }
  return value;
}
