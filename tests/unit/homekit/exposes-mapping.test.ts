import { expect } from "chai";
import {
  batteryLevel,
  brightnessCommand,
  brightnessPercent,
  colorCommand,
  colorTempCommand,
  colorTempMired,
  contactState,
  coverCommand,
  coverMovement,
  coverPosition,
  hueSaturation,
  isOn,
  lowBattery,
  onCommand,
  planAccessory,
  sensorReading,
  xyToHueSaturation,
} from "../../../src/adapters/services/homekit/exposes-mapping.js";
import {
  blind,
  climateSensor,
  colorBulb,
  doorSensor,
  doubleSwitch,
  leakSensor,
  plug,
  remote,
} from "../../support/homekit-fixtures.js";
import { bulb, coordinator, motionSensor } from "../../support/zigbee2mqtt-fixtures.js";

describe("HomeKit exposes mapping", () => {
  describe("planAccessory", () => {
    it("maps a colour light to one Lightbulb with on/off, brightness, colour temperature and colour", () => {
      const plan = planAccessory(colorBulb())!;
      expect(plan.id).to.equal("0x001788010b2c3d4e");
      expect(plan.manufacturer).to.equal("Philips");
      expect(plan.services).to.deep.equal([
        {
          kind: "light",
          key: "light",
          on: { property: "state", valueOn: "ON", valueOff: "OFF" },
          brightness: { property: "brightness", min: 0, max: 254 },
          colorTemp: { property: "color_temp", min: 153, max: 500 },
          color: { property: "color" },
        },
      ]);
    });

    it("maps a dimmable white bulb without colour characteristics", () => {
      const [light] = planAccessory(bulb())!.services;
      expect(light).to.include({ kind: "light" });
      expect(light).to.have.property("brightness");
      expect(light).to.not.have.property("colorTemp");
      expect(light).to.not.have.property("color");
    });

    it("maps a plug to an Outlet and a wall switch to one Switch per endpoint", () => {
      expect(planAccessory(plug())!.services.map((service) => service.kind)).to.deep.equal(["outlet"]);
      const gangs = planAccessory(doubleSwitch())!.services;
      expect(gangs).to.deep.equal([
        { kind: "switch", key: "switch_l1", on: { property: "state_l1", valueOn: "ON", valueOff: "OFF" } },
        { kind: "switch", key: "switch_l2", on: { property: "state_l2", valueOn: "ON", valueOff: "OFF" } },
      ]);
    });

    it("maps motion, contact, leak, temperature and humidity sensors, with a battery service", () => {
      expect(planAccessory(motionSensor())!.services.map((service) => service.kind)).to.deep.equal([
        "motion",
        "battery",
      ]);
      expect(planAccessory(doorSensor())!.services.map((service) => service.kind)).to.deep.equal([
        "contact",
        "battery",
      ]);
      expect(planAccessory(leakSensor())!.services.map((service) => service.kind)).to.deep.equal(["leak", "battery"]);
      const climate = planAccessory(climateSensor())!.services;
      expect(climate.map((service) => service.kind)).to.deep.equal(["temperature", "humidity", "battery"]);
      expect(climate[2]).to.deep.equal({ kind: "battery", key: "battery", lowProperty: "battery_low" });
    });

    it("maps a Zigbee cover to a WindowCovering with its position", () => {
      expect(planAccessory(blind())!.services).to.deep.equal([
        { kind: "cover", key: "cover", stateProperty: "state", position: { property: "position", min: 0, max: 100 } },
        { kind: "battery", key: "battery", property: "battery" },
      ]);
    });

    it("gives nothing for the coordinator, a remote, a disabled device or one without a definition", () => {
      expect(planAccessory(coordinator)).to.equal(null);
      expect(planAccessory(remote())).to.equal(null);
      expect(planAccessory({ ...plug(), disabled: true })).to.equal(null);
      expect(planAccessory({ ...plug(), definition: null })).to.equal(null);
    });

    it("maps exposes named or typed like Object.prototype's members (from any publisher on the broker) to nothing", () => {
      const odd = ["constructor", "__proto__", "toString", "hasOwnProperty"].flatMap((word) => [
        { type: word, name: "state", property: "state", access: 7 },
        { type: "binary", name: word, property: word, access: 1, value_on: true, value_off: false },
        { type: "numeric", name: word, property: word, access: 1 },
      ]);
      expect(planAccessory({ ...remote(), definition: { ...remote().definition!, exposes: odd } })).to.equal(null);
    });

    it("skips malformed exposes instead of failing on them", () => {
      const device = {
        ...plug(),
        definition: { exposes: [42, null, { name: "no type" }, ...(plug().definition!.exposes as unknown[])] },
      };
      expect(planAccessory(device)!.services.map((service) => service.kind)).to.deep.equal(["switch"]);
    });

    it("keeps the signature across a rename and changes it when the exposes change", () => {
      const before = planAccessory(colorBulb("desk_lamp"))!;
      const renamed = planAccessory(colorBulb("office_lamp"))!;
      expect(renamed.signature).to.equal(before.signature);
      expect(renamed.name).to.equal("office_lamp");
      expect(planAccessory(bulb("desk_lamp", "0x001788010b2c3d4e"))!.signature).to.not.equal(before.signature);
    });

    it("uses the display name it is given (the registry's nice name)", () => {
      expect(planAccessory(plug(), "Coffee machine")!.name).to.equal("Coffee machine");
    });
  });

  describe("conversions", () => {
    const on = { property: "state", valueOn: "ON", valueOff: "OFF" };
    const brightness = { property: "brightness", min: 0, max: 254 };
    const colorTemp = { property: "color_temp", min: 153, max: 500 };

    it("reads and writes on/off through the device's own values", () => {
      expect(isOn({ state: "ON" }, on)).to.equal(true);
      expect(isOn({ state: "OFF" }, on)).to.equal(false);
      expect(isOn({ brightness: 3 }, on)).to.equal(undefined);
      expect(onCommand(on, true)).to.deep.equal({ state: "ON" });
      expect(onCommand({ property: "state_l2", valueOn: "ON", valueOff: "OFF" }, false)).to.deep.equal({
        state_l2: "OFF",
      });
    });

    it("scales brightness 0..254 to 0..100 % and back", () => {
      expect(brightnessPercent({ brightness: 254 }, brightness)).to.equal(100);
      expect(brightnessPercent({ brightness: 127 }, brightness)).to.equal(50);
      expect(brightnessPercent({ brightness: "bright" }, brightness)).to.equal(undefined);
      expect(brightnessCommand(brightness, 50)).to.deep.equal({ brightness: 127 });
      expect(brightnessCommand(brightness, 150)).to.deep.equal({ brightness: 254 });
    });

    it("keeps colour temperature within the device's and HomeKit's range", () => {
      expect(colorTempMired({ color_temp: 370 }, colorTemp)).to.equal(370);
      expect(colorTempMired({ color_temp: 100 }, colorTemp)).to.equal(153);
      expect(colorTempMired({ color_temp: 600 }, { ...colorTemp, max: 700 })).to.equal(500);
      expect(colorTempCommand(colorTemp, 140)).to.deep.equal({ color_temp: 153 });
    });

    it("reads hue/saturation directly or from CIE xy, and writes hue/saturation", () => {
      expect(hueSaturation({ color: { hue: 120, saturation: 80, x: 0.2, y: 0.6 } }, "color")).to.deep.equal({
        hue: 120,
        saturation: 80,
      });
      const red = hueSaturation({ color: { x: 0.64, y: 0.33 } }, "color")!;
      expect(red.hue === 0 || red.hue > 350 || red.hue < 10).to.equal(true);
      expect(red.saturation).to.be.above(90);
      expect(xyToHueSaturation(0.3127, 0.329).saturation).to.be.below(5); // D65 white
      expect(hueSaturation({ color: "red" }, "color")).to.equal(undefined);
      expect(colorCommand("color", 361.4, 50.6)).to.deep.equal({ color: { hue: 360, saturation: 51 } });
    });

    it("reads and moves covers by position, or by open/close when they have none", () => {
      const positional = { stateProperty: "state", position: { property: "position", min: 0, max: 100 } };
      expect(coverPosition({ position: 35, state: "OPEN" }, positional)).to.equal(35);
      expect(coverCommand(positional, 60)).to.deep.equal({ position: 60 });
      const openClose = { stateProperty: "state" };
      expect(coverPosition({ state: "OPEN" }, openClose)).to.equal(100);
      expect(coverPosition({ state: "CLOSE" }, openClose)).to.equal(0);
      expect(coverPosition({ state: "STOP" }, openClose)).to.equal(undefined);
      expect(coverCommand(openClose, 80)).to.deep.equal({ state: "OPEN" });
      expect(coverCommand(openClose, 10)).to.deep.equal({ state: "CLOSE" });
      expect([coverMovement({ moving: "UP" }), coverMovement({ moving: "DOWN" }), coverMovement({})]).to.deep.equal([
        1, 0, 2,
      ]);
    });

    it("turns Zigbee2MQTT's contact (true = closed) into HomeKit's ContactSensorState", () => {
      const sensor = { property: "contact", valueOn: false, valueOff: true };
      expect(contactState({ contact: true }, sensor)).to.equal(0);
      expect(contactState({ contact: false }, sensor)).to.equal(1);
      expect(contactState({}, sensor)).to.equal(undefined);
    });

    it("clamps sensor readings to HomeKit's ranges", () => {
      expect(sensorReading({ temperature: -18.5 }, "temperature", "temperature")).to.equal(-18.5);
      expect(sensorReading({ humidity: 104 }, "humidity", "humidity")).to.equal(100);
      expect(sensorReading({ humidity: null }, "humidity", "humidity")).to.equal(undefined);
    });

    it("reports a low battery from battery_low, else below 20 %", () => {
      expect(batteryLevel({ battery: 55.4 }, "battery")).to.equal(55);
      expect(lowBattery({ battery: 15 }, { property: "battery" })).to.equal(1);
      expect(lowBattery({ battery: 80 }, { property: "battery" })).to.equal(0);
      expect(
        lowBattery({ battery: 80, battery_low: true }, { property: "battery", lowProperty: "battery_low" }),
      ).to.equal(1);
      expect(lowBattery({}, { property: "battery" })).to.equal(undefined);
    });
  });
});
