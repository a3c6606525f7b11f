/**
 * Which HomeKit services a Zigbee2MQTT device becomes, read from its `definition.exposes`
 * (https://www.zigbee2mqtt.io/guide/usage/exposes.html), and how values convert between
 * Zigbee2MQTT's state/command payloads and HomeKit characteristics (HAP specification,
 * "Apple-defined characteristics"). Pure: no hap-nodejs, no I/O, so it is tested alone.
 */
import { z } from "zod";
import type { DeviceState, ZigbeeDevice } from "../../../domain/automation/zigbee-device.js";

/** A two-valued property: `state` ON/OFF, `occupancy` true/false, ... */
export interface BinaryProperty {
  property: string;
  valueOn: unknown;
  valueOff: unknown;
}

/** A numeric property with the range the device declares. */
export interface RangeProperty {
  property: string;
  min: number;
  max: number;
}

/** One HomeKit service of an accessory; `key` is its subtype, unique within the accessory. */
export type ServicePlan =
  | {
      kind: "light";
      key: string;
      on: BinaryProperty;
      brightness?: RangeProperty;
      colorTemp?: RangeProperty;
      /** The composite `color` property (hue/saturation or x/y). */
      color?: { property: string };
    }
  | { kind: "switch" | "outlet"; key: string; on: BinaryProperty }
  | {
      kind: "cover";
      key: string;
      /** `position` (0 closed … 100 open); absent on covers that only open and close. */
      position?: RangeProperty;
      /** The `state` enum (OPEN / CLOSE / STOP). */
      stateProperty: string;
    }
  | { kind: "motion" | "contact" | "leak"; key: string; sensor: BinaryProperty }
  | { kind: "temperature" | "humidity"; key: string; property: string }
  | { kind: "battery"; key: string; property?: string; lowProperty?: string };

export type ServiceKind = ServicePlan["kind"];

/** What one Zigbee device becomes in HomeKit. */
export interface AccessoryPlan {
  /** The IEEE address: stable across renames, so the accessory's UUID is derived from it. */
  id: string;
  name: string;
  manufacturer: string;
  model: string;
  services: ServicePlan[];
  /**
   * Changes when the device's HomeKit shape changes (an interview completed with new
   * exposes), so the bridge rebuilds the accessory; a rename alone leaves it unchanged.
   */
  signature: string;
}

// Lenient on purpose: Zigbee2MQTT adds fields between versions; only what is read here is checked.
const exposeSchema = z
  .object({
    type: z.string(),
    name: z.string().optional(),
    property: z.string().optional(),
    endpoint: z.string().optional(),
    access: z.number().optional(),
    value_on: z.unknown().optional(),
    value_off: z.unknown().optional(),
    value_min: z.number().optional(),
    value_max: z.number().optional(),
    features: z.array(z.unknown()).optional(),
  })
  .passthrough();
type Expose = z.infer<typeof exposeSchema>;

/** Access bit 2 of an expose: the property can be set. Absent access means "assume yes". */
const ACCESS_SET = 0b010;

function parseExposes(values: unknown[]): Expose[] {
  const parsed: Expose[] = [];
  for (const value of values) {
    const result = exposeSchema.safeParse(value);
    if (result.success) parsed.push(result.data);
  }
  return parsed;
}

function binary(expose: Expose, defaults: { on: unknown; off: unknown }): BinaryProperty | null {
  if (expose.property === undefined) return null;
  return {
    property: expose.property,
    valueOn: expose.value_on ?? defaults.on,
    valueOff: expose.value_off ?? defaults.off,
  };
}

function range(expose: Expose | undefined, defaults: { min: number; max: number }): RangeProperty | undefined {
  if (expose?.property === undefined) return undefined;
  return { property: expose.property, min: expose.value_min ?? defaults.min, max: expose.value_max ?? defaults.max };
}

function subtype(base: string, expose: Expose): string {
  return expose.endpoint ? `${base}_${expose.endpoint}` : base;
}

function lightPlan(expose: Expose): ServicePlan | null {
  const features = parseExposes(expose.features ?? []);
  const stateFeature = features.find((feature) => feature.name === "state" && feature.type === "binary");
  const on = stateFeature ? binary(stateFeature, { on: "ON", off: "OFF" }) : null;
  if (!on) return null;
  const brightness = range(
    features.find((feature) => feature.name === "brightness"),
    { min: 0, max: 254 },
  );
  const colorTemp = range(
    features.find((feature) => feature.name === "color_temp"),
    { min: 150, max: 500 },
  );
  const colorFeature = features.find(
    (feature) => feature.type === "composite" && (feature.name === "color_hs" || feature.name === "color_xy"),
  );
  return {
    kind: "light",
    key: subtype("light", expose),
    on,
    ...(brightness ? { brightness } : {}),
    ...(colorTemp ? { colorTemp } : {}),
    ...(colorFeature?.property ? { color: { property: colorFeature.property } } : {}),
  };
}

/** Plugs and sockets are switches in Zigbee2MQTT; their description tells them apart. */
const OUTLET_PATTERN = /\b(plug|socket|outlet)\b/i;

function switchPlan(expose: Expose, device: ZigbeeDevice): ServicePlan | null {
  const features = parseExposes(expose.features ?? []);
  const stateFeature = features.find((feature) => feature.type === "binary" && feature.name === "state");
  const on = stateFeature ? binary(stateFeature, { on: "ON", off: "OFF" }) : null;
  if (!on || (stateFeature?.access !== undefined && (stateFeature.access & ACCESS_SET) === 0)) return null;
  const description = `${device.definition?.description ?? ""} ${device.definition?.model ?? ""}`;
  const kind = OUTLET_PATTERN.test(description) ? "outlet" : "switch";
  return { kind, key: subtype(kind, expose), on };
}

function coverPlan(expose: Expose): ServicePlan | null {
  const features = parseExposes(expose.features ?? []);
  const state = features.find((feature) => feature.name === "state" && feature.property !== undefined);
  if (!state?.property) return null;
  const position = range(
    features.find((feature) => feature.name === "position"),
    { min: 0, max: 100 },
  );
  return {
    kind: "cover",
    key: subtype("cover", expose),
    stateProperty: state.property,
    ...(position ? { position } : {}),
  };
}

/**
 * Sensor exposes by their name: which service each becomes. Maps, since the names come from the
 * broker: a device exposing `constructor` must not find Object.prototype's.
 */
const BINARY_SENSORS: ReadonlyMap<string, "motion" | "contact" | "leak"> = new Map([
  ["occupancy", "motion"],
  ["presence", "motion"],
  ["contact", "contact"],
  ["water_leak", "leak"],
]);
const NUMERIC_SENSORS: ReadonlyMap<string, "temperature" | "humidity"> = new Map([
  ["temperature", "temperature"],
  ["humidity", "humidity"],
]);

function sensorPlan(expose: Expose): ServicePlan | null {
  const name = expose.name ?? expose.property;
  if (name === undefined || expose.property === undefined) return null;
  const binaryKind = expose.type === "binary" ? BINARY_SENSORS.get(name) : undefined;
  if (binaryKind) {
    const sensor = binary(expose, { on: true, off: false });
    return sensor ? { kind: binaryKind, key: subtype(name, expose), sensor } : null;
  }
  const numericKind = expose.type === "numeric" ? NUMERIC_SENSORS.get(name) : undefined;
  if (numericKind) return { kind: numericKind, key: subtype(name, expose), property: expose.property };
  return null;
}

/** Battery level and low-battery flag share one HomeKit Battery service. */
function batteryPlan(exposes: Expose[]): ServicePlan | null {
  const level = exposes.find((expose) => expose.type === "numeric" && expose.name === "battery");
  const low = exposes.find((expose) => expose.type === "binary" && expose.name === "battery_low");
  if (!level?.property && !low?.property) return null;
  return {
    kind: "battery",
    key: "battery",
    ...(level?.property ? { property: level.property } : {}),
    ...(low?.property ? { lowProperty: low.property } : {}),
  };
}

/** Specific exposes by type; generic ones (binary, numeric) are sensors or nothing. */
const PLANNERS: ReadonlyMap<string, (expose: Expose, device: ZigbeeDevice) => ServicePlan | null> = new Map([
  ["light", lightPlan],
  ["switch", switchPlan],
  ["cover", coverPlan],
]);

/**
 * The HomeKit accessory a device becomes, or null when none of its exposes maps to a
 * service (a remote, a repeater, an unsupported or not yet interviewed device).
 */
export function planAccessory(device: ZigbeeDevice, displayName: string = device.friendly_name): AccessoryPlan | null {
  if (device.type === "Coordinator" || device.disabled === true) return null;
  const exposes = parseExposes(Array.isArray(device.definition?.exposes) ? device.definition.exposes : []);
  const services: ServicePlan[] = [];
  for (const expose of exposes) {
    const plan = (PLANNERS.get(expose.type) ?? sensorPlan)(expose, device);
    if (plan && !services.some((known) => known.key === plan.key)) services.push(plan);
  }
  if (services.length === 0) return null;
  const battery = batteryPlan(exposes);
  if (battery) services.push(battery);
  return {
    id: device.ieee_address,
    name: displayName,
    manufacturer: device.definition?.vendor ?? device.manufacturer ?? "Zigbee",
    model: device.definition?.model ?? device.model_id ?? "Zigbee device",
    services,
    signature: JSON.stringify(services),
  };
}

// ---- value conversions ----------------------------------------------------------------

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function numberAt(state: DeviceState, property: string): number | undefined {
  const value = state[property];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** HomeKit's On / MotionDetected from a binary property; undefined when the state lacks it. */
export function isOn(state: DeviceState, property: BinaryProperty): boolean | undefined {
  if (!(property.property in state)) return undefined;
  return state[property.property] === property.valueOn;
}

/** The command that switches a binary property. */
export function onCommand(property: BinaryProperty, on: boolean): Record<string, unknown> {
  return { [property.property]: on ? property.valueOn : property.valueOff };
}

/** Zigbee2MQTT brightness (0..value_max, usually 254) to HomeKit Brightness (0..100 %). */
export function brightnessPercent(state: DeviceState, brightness: RangeProperty): number | undefined {
  const value = numberAt(state, brightness.property);
  if (value === undefined || brightness.max <= 0) return undefined;
  return clamp(Math.round((value / brightness.max) * 100), 0, 100);
}

export function brightnessCommand(brightness: RangeProperty, percent: number): Record<string, unknown> {
  return { [brightness.property]: clamp(Math.round((percent / 100) * brightness.max), brightness.min, brightness.max) };
}

/** HomeKit ColorTemperature is in mired, 140..500: the device's range, within HomeKit's. */
export function colorTempRange(colorTemp: RangeProperty): { min: number; max: number } {
  const min = clamp(colorTemp.min, 140, 500);
  const max = clamp(colorTemp.max, min, 500);
  return { min, max };
}

export function colorTempMired(state: DeviceState, colorTemp: RangeProperty): number | undefined {
  const value = numberAt(state, colorTemp.property);
  if (value === undefined) return undefined;
  const { min, max } = colorTempRange(colorTemp);
  return clamp(Math.round(value), min, max);
}

export function colorTempCommand(colorTemp: RangeProperty, mired: number): Record<string, unknown> {
  return { [colorTemp.property]: clamp(Math.round(mired), colorTemp.min, colorTemp.max) };
}

/**
 * Hue (0..360) and saturation (0..100) from a light's `color` state, which carries
 * `hue`/`saturation` for hue-capable lights and only `x`/`y` for CIE-xy lights.
 */
export function hueSaturation(state: DeviceState, property: string): { hue: number; saturation: number } | undefined {
  const color = state[property];
  if (typeof color !== "object" || color === null) return undefined;
  const record = color as Record<string, unknown>;
  if (typeof record.hue === "number" && typeof record.saturation === "number") {
    return { hue: clamp(record.hue, 0, 360), saturation: clamp(record.saturation, 0, 100) };
  }
  if (typeof record.x === "number" && typeof record.y === "number") return xyToHueSaturation(record.x, record.y);
  return undefined;
}

/** Zigbee2MQTT accepts `{ color: { hue, saturation } }` for both hue/saturation and xy lights. */
export function colorCommand(property: string, hue: number, saturation: number): Record<string, unknown> {
  return { [property]: { hue: Math.round(clamp(hue, 0, 360)), saturation: Math.round(clamp(saturation, 0, 100)) } };
}

/** CIE 1931 xy (at full brightness) through linear sRGB (D65) to hue/saturation. */
export function xyToHueSaturation(x: number, y: number): { hue: number; saturation: number } {
  if (y <= 0) return { hue: 0, saturation: 0 };
  const Y = 1;
  const X = (Y / y) * x;
  const Z = (Y / y) * (1 - x - y);
  const linear = [
    X * 3.2406 - Y * 1.5372 - Z * 0.4986,
    -X * 0.9689 + Y * 1.8758 + Z * 0.0415,
    X * 0.0557 - Y * 0.204 + Z * 1.057,
  ].map((channel) => Math.max(0, channel));
  const peak = Math.max(...linear);
  const [r = 0, g = 0, b = 0] = peak > 0 ? linear.map((channel) => channel / peak) : [0, 0, 0];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const delta = max - min;
  let hue = 0;
  if (delta > 0) {
    if (max === r) hue = 60 * (((g - b) / delta) % 6);
    else if (max === g) hue = 60 * ((b - r) / delta + 2);
    else hue = 60 * ((r - g) / delta + 4);
  }
  if (hue < 0) hue += 360;
  return { hue: Math.round(hue), saturation: max === 0 ? 0 : Math.round((delta / max) * 100) };
}

/** A cover's position in HomeKit's 0 (closed) … 100 (open); from `state` alone, open is 100 and closed 0. */
export function coverPosition(
  state: DeviceState,
  plan: { position?: RangeProperty; stateProperty: string },
): number | undefined {
  if (plan.position) {
    const value = numberAt(state, plan.position.property);
    if (value !== undefined && plan.position.max > plan.position.min) {
      return clamp(Math.round(((value - plan.position.min) / (plan.position.max - plan.position.min)) * 100), 0, 100);
    }
  }
  const named = state[plan.stateProperty];
  if (named === "OPEN") return 100;
  if (named === "CLOSE" || named === "CLOSED") return 0;
  return undefined;
}

/** Moves to a position, or, for covers without one, opens (50 % and up) or closes. */
export function coverCommand(
  plan: { position?: RangeProperty; stateProperty: string },
  percent: number,
): Record<string, unknown> {
  if (plan.position) {
    const { property, min, max } = plan.position;
    return { [property]: clamp(Math.round(min + (percent / 100) * (max - min)), min, max) };
  }
  return { [plan.stateProperty]: percent >= 50 ? "OPEN" : "CLOSE" };
}

/** HomeKit PositionState from Zigbee2MQTT's `moving` (UP / DOWN / STOP, on covers that report it): 0 closing, 1 opening, 2 stopped. */
export function coverMovement(state: DeviceState): 0 | 1 | 2 {
  if (state.moving === "UP") return 1;
  if (state.moving === "DOWN") return 0;
  return 2;
}

/**
 * HomeKit ContactSensorState: 0 contact detected (closed), 1 not detected (open).
 * Zigbee2MQTT's `contact` is true when closed; its expose names false the "on" value
 * (open is the alert), so the raw value is read here, not value_on.
 */
export function contactState(state: DeviceState, sensor: BinaryProperty): 0 | 1 | undefined {
  const value = state[sensor.property];
  if (typeof value !== "boolean") return undefined;
  return value ? 0 : 1;
}

/** HomeKit CurrentTemperature accepts -270..100 °C; humidity 0..100 %. */
export function sensorReading(
  state: DeviceState,
  kind: "temperature" | "humidity",
  property: string,
): number | undefined {
  const value = numberAt(state, property);
  if (value === undefined) return undefined;
  return kind === "temperature" ? clamp(value, -270, 100) : clamp(value, 0, 100);
}

/** Below this battery level HomeKit is told the battery is low, when the device reports no `battery_low`. */
export const LOW_BATTERY_PERCENT = 20;

export function batteryLevel(state: DeviceState, property: string | undefined): number | undefined {
  if (property === undefined) return undefined;
  const value = numberAt(state, property);
  return value === undefined ? undefined : clamp(Math.round(value), 0, 100);
}

/** HomeKit StatusLowBattery: 1 low, 0 normal. */
export function lowBattery(state: DeviceState, plan: { property?: string; lowProperty?: string }): 0 | 1 | undefined {
  if (plan.lowProperty !== undefined && typeof state[plan.lowProperty] === "boolean")
    return state[plan.lowProperty] ? 1 : 0;
  const level = batteryLevel(state, plan.property);
  return level === undefined ? undefined : level < LOW_BATTERY_PERCENT ? 1 : 0;
}
