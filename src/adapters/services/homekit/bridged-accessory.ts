/**
 * A hap-nodejs accessory built from a table of bindings: each HomeKit characteristic
 * reads its value from the device's last state, and a HomeKit write turns into one
 * command the owner sends (a Zigbee2MQTT `/set` payload, a relay call).
 */
import {
  Accessory,
  Characteristic,
  type CharacteristicProps,
  type CharacteristicValue,
  HapStatusError,
  type HAPStatus,
  Service,
  uuid,
  type WithUUID,
} from "hap-nodejs";
import type { Logger } from "../../../ports/logger.js";

type CharacteristicType = WithUUID<new () => Characteristic>;
type ServiceType = WithUUID<typeof Service>;

/** The values of the service's other characteristics, for writes that need them (hue needs saturation). */
export type CurrentValue = (type: CharacteristicType) => CharacteristicValue | null;

export interface CharacteristicBinding<S, C> {
  type: CharacteristicType;
  props?: Partial<CharacteristicProps>;
  /** The HomeKit value for `state`, or undefined when the state does not say. */
  read(state: S): CharacteristicValue | undefined;
  /** The command a HomeKit write becomes; absent for read-only characteristics. */
  write?(value: CharacteristicValue, current: CurrentValue): C;
}

export interface ServiceBinding<S, C> {
  type: ServiceType;
  /** Unique within the accessory; keeps HomeKit's ids stable across restarts. */
  subtype: string;
  name: string;
  characteristics: CharacteristicBinding<S, C>[];
}

export interface BridgedAccessoryOptions<S, C> {
  /** Stable identity (an IEEE address, `relay:<name>:<channel>`); the UUID derives from it. */
  id: string;
  name: string;
  manufacturer: string;
  model: string;
  services: ServiceBinding<S, C>[];
  /** Sends a command; a rejection makes HomeKit show "No Response" for that write. */
  send(command: C): Promise<void> | void;
  logger: Logger;
}

/** HomeKit's "No Response": the device could not be reached. */
const SERVICE_COMMUNICATION_FAILURE = -70402 as HAPStatus;

/** The UUID HomeKit knows an accessory by: derived from its id, never from its (renamable) name. */
export function accessoryUuid(id: string): string {
  return uuid.generate(`hearth:homekit:${id}`);
}

/**
 * A name the Home app accepts: letters, digits, spaces and apostrophes, starting and ending
 * with a letter or digit (HAP specification, Name characteristic). Zigbee2MQTT friendly
 * names such as `kitchen/ceiling_light` become "kitchen ceiling light".
 */
export function homeKitName(name: string): string {
  const cleaned = name
    .replace(/[^\p{L}\p{N}' ]+/gu, " ")
    .replace(/\s+/g, " ")
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
  return cleaned.length > 0 ? cleaned.slice(0, 64) : "Device";
}

export class BridgedAccessory<S, C> {
  readonly accessory: Accessory;
  private readonly bound: { service: Service; binding: CharacteristicBinding<S, C> }[] = [];

  constructor(private readonly options: BridgedAccessoryOptions<S, C>) {
    this.accessory = new Accessory(homeKitName(options.name), accessoryUuid(options.id));
    this.accessory
      .getService(Service.AccessoryInformation)!
      .setCharacteristic(Characteristic.Manufacturer, options.manufacturer)
      .setCharacteristic(Characteristic.Model, options.model)
      .setCharacteristic(Characteristic.SerialNumber, options.id);
    for (const serviceBinding of options.services) this.addService(serviceBinding);
  }

  get id(): string {
    return this.options.id;
  }

  /** Pushes every characteristic the state has a value for; HomeKit clients subscribed to it are notified. */
  update(state: S): void {
    for (const { service, binding } of this.bound) {
      const value = binding.read(state);
      if (value !== undefined) service.getCharacteristic(binding.type).updateValue(value);
    }
  }

  /** A device renamed in Zigbee2MQTT keeps its accessory (and so its room and scenes); only the label changes. */
  rename(name: string): void {
    this.accessory.displayName = homeKitName(name);
    this.accessory
      .getService(Service.AccessoryInformation)!
      .updateCharacteristic(Characteristic.Name, homeKitName(name));
  }

  private addService(serviceBinding: ServiceBinding<S, C>): void {
    const service = new serviceBinding.type(homeKitName(serviceBinding.name), serviceBinding.subtype);
    this.accessory.addService(service);
    for (const binding of serviceBinding.characteristics) {
      const characteristic = service.getCharacteristic(binding.type);
      if (binding.props) {
        // The default value (ColorTemperature's 140) may lie outside the narrowed range: move it in first.
        const { minValue } = binding.props;
        if (
          typeof minValue === "number" &&
          typeof characteristic.value === "number" &&
          characteristic.value < minValue
        ) {
          characteristic.updateValue(minValue);
        }
        characteristic.setProps(binding.props);
      }
      const write = binding.write;
      if (write) {
        characteristic.onSet(async (value) => {
          const command = write(value, (type) => service.getCharacteristic(type).value);
          try {
            await this.options.send(command);
          } catch (error) {
            this.options.logger.warn("HomeKit write could not be delivered", {
              accessory: this.options.name,
              characteristic: characteristic.displayName,
              error: error instanceof Error ? error.message : String(error),
            });
            throw new HapStatusError(SERVICE_COMMUNICATION_FAILURE);
          }
        });
      }
      this.bound.push({ service, binding });
    }
  }
}
