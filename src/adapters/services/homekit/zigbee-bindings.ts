/**
 * The HomeKit service each planned Zigbee service becomes (HAP specification, "Apple-defined
 * services"), one entry per kind; the conversions themselves live in exposes-mapping.ts.
 */
import { Characteristic, Service } from "hap-nodejs";
import type { DeviceState } from "../../../domain/automation/zigbee-device.js";
import type { ServiceBinding } from "./bridged-accessory.js";
import {
  type AccessoryPlan,
  batteryLevel,
  brightnessCommand,
  brightnessPercent,
  colorCommand,
  colorTempCommand,
  colorTempMired,
  colorTempRange,
  contactState,
  coverCommand,
  coverMovement,
  coverPosition,
  hueSaturation,
  isOn,
  lowBattery,
  onCommand,
  type ServiceKind,
  type ServicePlan,
  sensorReading,
} from "./exposes-mapping.js";

/** A Zigbee2MQTT command payload, published to `<prefix>/<friendly name>/set`. */
export type ZigbeeCommand = Record<string, unknown>;
type Binding = ServiceBinding<DeviceState, ZigbeeCommand>;
/** The plan variant whose kind includes K (motion, contact and leak share one variant). */
type PlanOf<K extends ServiceKind> = ServicePlan extends infer P
  ? P extends { kind: infer Kinds }
    ? K extends Kinds
      ? P
      : never
    : never
  : never;

function light(plan: PlanOf<"light">, name: string): Binding {
  const characteristics: Binding["characteristics"] = [
    {
      type: Characteristic.On,
      read: (state) => isOn(state, plan.on),
      write: (value) => onCommand(plan.on, value === true),
    },
  ];
  const { brightness, colorTemp, color } = plan;
  if (brightness) {
    characteristics.push({
      type: Characteristic.Brightness,
      read: (state) => brightnessPercent(state, brightness),
      write: (value) => brightnessCommand(brightness, Number(value)),
    });
  }
  if (colorTemp) {
    const { min, max } = colorTempRange(colorTemp);
    characteristics.push({
      type: Characteristic.ColorTemperature,
      props: { minValue: min, maxValue: max },
      read: (state) => colorTempMired(state, colorTemp),
      write: (value) => colorTempCommand(colorTemp, Number(value)),
    });
  }
  if (color) {
    characteristics.push(
      {
        type: Characteristic.Hue,
        read: (state) => hueSaturation(state, color.property)?.hue,
        write: (value, current) =>
          colorCommand(color.property, Number(value), Number(current(Characteristic.Saturation) ?? 100)),
      },
      {
        type: Characteristic.Saturation,
        read: (state) => hueSaturation(state, color.property)?.saturation,
        write: (value, current) =>
          colorCommand(color.property, Number(current(Characteristic.Hue) ?? 0), Number(value)),
      },
    );
  }
  return { type: Service.Lightbulb, subtype: plan.key, name, characteristics };
}

function switchLike(plan: PlanOf<"switch" | "outlet">, name: string): Binding {
  return {
    type: plan.kind === "outlet" ? Service.Outlet : Service.Switch,
    subtype: plan.key,
    name,
    characteristics: [
      {
        type: Characteristic.On,
        read: (state) => isOn(state, plan.on),
        write: (value) => onCommand(plan.on, value === true),
      },
    ],
  };
}

const BUILDERS: { [K in ServiceKind]: (plan: PlanOf<K>, name: string) => Binding } = {
  light,
  switch: switchLike,
  outlet: switchLike,
  cover: (plan, name) => ({
    type: Service.WindowCovering,
    subtype: plan.key,
    name,
    characteristics: [
      { type: Characteristic.CurrentPosition, read: (state) => coverPosition(state, plan) },
      {
        type: Characteristic.TargetPosition,
        read: (state) => coverPosition(state, plan),
        write: (value) => coverCommand(plan, Number(value)),
      },
      { type: Characteristic.PositionState, read: (state) => coverMovement(state) },
    ],
  }),
  motion: (plan, name) => ({
    type: Service.MotionSensor,
    subtype: plan.key,
    name,
    characteristics: [{ type: Characteristic.MotionDetected, read: (state) => isOn(state, plan.sensor) }],
  }),
  contact: (plan, name) => ({
    type: Service.ContactSensor,
    subtype: plan.key,
    name,
    characteristics: [{ type: Characteristic.ContactSensorState, read: (state) => contactState(state, plan.sensor) }],
  }),
  leak: (plan, name) => ({
    type: Service.LeakSensor,
    subtype: plan.key,
    name,
    characteristics: [
      {
        type: Characteristic.LeakDetected,
        read: (state) => {
          const leaking = isOn(state, plan.sensor);
          return leaking === undefined ? undefined : leaking ? 1 : 0;
        },
      },
    ],
  }),
  temperature: (plan, name) => ({
    type: Service.TemperatureSensor,
    subtype: plan.key,
    name,
    characteristics: [
      {
        type: Characteristic.CurrentTemperature,
        // HomeKit's default minimum (0 °C) would reject a freezer's temperature.
        props: { minValue: -100, maxValue: 100 },
        read: (state) => sensorReading(state, "temperature", plan.property),
      },
    ],
  }),
  humidity: (plan, name) => ({
    type: Service.HumiditySensor,
    subtype: plan.key,
    name,
    characteristics: [
      {
        type: Characteristic.CurrentRelativeHumidity,
        read: (state) => sensorReading(state, "humidity", plan.property),
      },
    ],
  }),
  battery: (plan, name) => ({
    type: Service.Battery,
    subtype: plan.key,
    name,
    characteristics: [
      ...(plan.property
        ? [{ type: Characteristic.BatteryLevel, read: (state: DeviceState) => batteryLevel(state, plan.property) }]
        : []),
      { type: Characteristic.StatusLowBattery, read: (state) => lowBattery(state, plan) },
    ],
  }),
};

/** The HomeKit services of a planned accessory. */
export function zigbeeServiceBindings(plan: AccessoryPlan): Binding[] {
  return plan.services.map((service, index) => {
    const build = BUILDERS[service.kind] as (plan: ServicePlan, name: string) => Binding;
    // The first service carries the device's name; the others say which part they are.
    return build(service, index === 0 ? plan.name : `${plan.name} ${service.key.replace(/_/g, " ")}`);
  });
}
