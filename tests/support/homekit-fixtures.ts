import type { ZigbeeDevice } from "../../src/domain/automation/zigbee-device.js";

/** Zigbee2MQTT devices with the exposes the HomeKit bridge maps, shaped as Zigbee2MQTT 1.x/2.x publishes them. */
function device(
  friendlyName: string,
  ieee: string,
  definition: ZigbeeDevice["definition"],
  type = "Router",
): ZigbeeDevice {
  return {
    ieee_address: ieee,
    friendly_name: friendlyName,
    type,
    supported: true,
    disabled: false,
    interview_completed: true,
    definition,
  };
}

export function colorBulb(friendlyName = "desk_lamp", ieee = "0x001788010b2c3d4e"): ZigbeeDevice {
  return device(friendlyName, ieee, {
    model: "9290024896",
    vendor: "Philips",
    description: "Hue white and color ambiance E26/E27",
    exposes: [
      {
        type: "light",
        features: [
          {
            type: "binary",
            name: "state",
            property: "state",
            access: 7,
            value_on: "ON",
            value_off: "OFF",
            value_toggle: "TOGGLE",
          },
          { type: "numeric", name: "brightness", property: "brightness", access: 7, value_min: 0, value_max: 254 },
          {
            type: "numeric",
            name: "color_temp",
            property: "color_temp",
            access: 7,
            unit: "mired",
            value_min: 153,
            value_max: 500,
          },
          {
            type: "composite",
            name: "color_xy",
            property: "color",
            access: 7,
            features: [
              { type: "numeric", name: "x", property: "x", access: 7 },
              { type: "numeric", name: "y", property: "y", access: 7 },
            ],
          },
          {
            type: "composite",
            name: "color_hs",
            property: "color",
            access: 7,
            features: [
              { type: "numeric", name: "hue", property: "hue", access: 7 },
              { type: "numeric", name: "saturation", property: "saturation", access: 7 },
            ],
          },
        ],
      },
      { type: "numeric", name: "linkquality", property: "linkquality", access: 1 },
    ],
  });
}

export function plug(friendlyName = "coffee_plug", ieee = "0x0c4314fffe5a6b7c"): ZigbeeDevice {
  return device(friendlyName, ieee, {
    model: "E1603/E1702/E1708",
    vendor: "IKEA",
    description: "TRADFRI control outlet",
    exposes: [
      {
        type: "switch",
        features: [{ type: "binary", name: "state", property: "state", access: 7, value_on: "ON", value_off: "OFF" }],
      },
    ],
  });
}

/** A two-gang wall switch: one `switch` expose per endpoint. */
export function doubleSwitch(friendlyName = "hall_switch", ieee = "0xa4c138aa11bb22cc"): ZigbeeDevice {
  const gang = (endpoint: string) => ({
    type: "switch",
    endpoint,
    features: [
      {
        type: "binary",
        name: "state",
        property: `state_${endpoint}`,
        endpoint,
        access: 7,
        value_on: "ON",
        value_off: "OFF",
      },
    ],
  });
  return device(friendlyName, ieee, {
    model: "TS0012",
    vendor: "Tuya",
    description: "Wall switch (2 gang)",
    exposes: [gang("l1"), gang("l2")],
  });
}

export function doorSensor(friendlyName = "freezer_door", ieee = "0x00158d00045c6d7e"): ZigbeeDevice {
  return device(
    friendlyName,
    ieee,
    {
      model: "MCCGQ11LM",
      vendor: "Aqara",
      description: "Door and window sensor",
      exposes: [
        { type: "binary", name: "contact", property: "contact", access: 1, value_on: false, value_off: true },
        { type: "numeric", name: "battery", property: "battery", access: 1, unit: "%", value_min: 0, value_max: 100 },
      ],
    },
    "EndDevice",
  );
}

export function climateSensor(friendlyName = "freezer_climate", ieee = "0x00158d0006e7f8a9"): ZigbeeDevice {
  return device(
    friendlyName,
    ieee,
    {
      model: "WSDCGQ11LM",
      vendor: "Aqara",
      description: "Temperature, humidity and pressure sensor",
      exposes: [
        { type: "numeric", name: "temperature", property: "temperature", access: 1, unit: "°C" },
        { type: "numeric", name: "humidity", property: "humidity", access: 1, unit: "%" },
        { type: "numeric", name: "pressure", property: "pressure", access: 1, unit: "hPa" },
        { type: "binary", name: "battery_low", property: "battery_low", access: 1, value_on: true, value_off: false },
      ],
    },
    "EndDevice",
  );
}

export function leakSensor(friendlyName = "sink_leak", ieee = "0x00158d0003a4b5c6"): ZigbeeDevice {
  return device(
    friendlyName,
    ieee,
    {
      model: "SJCGQ11LM",
      vendor: "Aqara",
      description: "Water leak sensor",
      exposes: [
        { type: "binary", name: "water_leak", property: "water_leak", access: 1, value_on: true, value_off: false },
        { type: "numeric", name: "battery", property: "battery", access: 1, unit: "%" },
      ],
    },
    "EndDevice",
  );
}

/** A remote: exposes only actions, so HomeKit gets nothing from it. */
export function remote(friendlyName = "bedside_remote", ieee = "0x000b57fffe1a2b3c"): ZigbeeDevice {
  return device(
    friendlyName,
    ieee,
    {
      model: "E1524/E1810",
      vendor: "IKEA",
      description: "TRADFRI remote control",
      exposes: [
        { type: "enum", name: "action", property: "action", access: 1, values: ["toggle", "brightness_up_click"] },
        { type: "numeric", name: "battery", property: "battery", access: 1 },
      ],
    },
    "EndDevice",
  );
}

/** A roller blind motor: `cover` with a state enum and a position. */
export function blind(friendlyName = "bedroom_blind", ieee = "0x5c0272fffe3d4e5f"): ZigbeeDevice {
  return device(friendlyName, ieee, {
    model: "E1757",
    vendor: "IKEA",
    description: "FYRTUR roller blind",
    exposes: [
      {
        type: "cover",
        features: [
          { type: "enum", name: "state", property: "state", access: 7, values: ["OPEN", "CLOSE", "STOP"] },
          {
            type: "numeric",
            name: "position",
            property: "position",
            access: 7,
            value_min: 0,
            value_max: 100,
            unit: "%",
          },
        ],
      },
      { type: "numeric", name: "battery", property: "battery", access: 5, unit: "%" },
    ],
  });
}
