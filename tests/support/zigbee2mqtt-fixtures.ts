import type { ZigbeeDevice } from "../../src/domain/automation/zigbee-device.js";

/** Devices shaped like Zigbee2MQTT 1.x/2.x publishes them on `{prefix}/bridge/devices`. */
export const coordinator: ZigbeeDevice = {
  ieee_address: "0x00124b0024c1a2b3",
  friendly_name: "Coordinator",
  type: "Coordinator",
  network_address: 0,
  supported: true,
  disabled: false,
  interview_completed: true,
  definition: null,
};

export function motionSensor(friendlyName = "hallway_motion", ieee = "0x00158d0004a1b2c3"): ZigbeeDevice {
  return {
    ieee_address: ieee,
    friendly_name: friendlyName,
    type: "EndDevice",
    network_address: 21412,
    supported: true,
    disabled: false,
    interview_completed: true,
    manufacturer: "LUMI",
    model_id: "lumi.sensor_motion.aq2",
    power_source: "Battery",
    definition: {
      model: "RTCGQ11LM",
      vendor: "Aqara",
      description: "Motion sensor",
      exposes: [
        { type: "binary", name: "occupancy", property: "occupancy", access: 1, value_on: true, value_off: false },
        { type: "numeric", name: "illuminance", property: "illuminance", access: 1, unit: "lx" },
        { type: "numeric", name: "battery", property: "battery", access: 1, unit: "%", value_min: 0, value_max: 100 },
      ],
      options: [],
      supports_ota: false,
    },
  };
}

export function bulb(friendlyName = "living_room_lamp", ieee = "0x0017880108f1e2d3"): ZigbeeDevice {
  return {
    ieee_address: ieee,
    friendly_name: friendlyName,
    type: "Router",
    network_address: 4210,
    supported: true,
    disabled: false,
    interview_completed: true,
    manufacturer: "Signify Netherlands B.V.",
    model_id: "LWA001",
    power_source: "Mains (single phase)",
    definition: {
      model: "9290022169",
      vendor: "Philips",
      description: "Hue white A60 bulb E27 bluetooth",
      exposes: [
        {
          type: "light",
          features: [
            { type: "binary", name: "state", property: "state", access: 7, value_on: "ON", value_off: "OFF" },
            { type: "numeric", name: "brightness", property: "brightness", access: 7, value_min: 0, value_max: 254 },
          ],
        },
        { type: "numeric", name: "linkquality", property: "linkquality", access: 1, unit: "lqi" },
      ],
      options: [],
      supports_ota: true,
    },
  };
}
