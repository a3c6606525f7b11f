import type { DeviceState, ZigbeeDevice } from "../domain/automation/zigbee-device.js";

/** A parsed message, or why it could not be read (for the log). */
export type ParsedMessage<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A join or leave on `{prefix}/bridge/event`. */
export interface BridgeEvent {
  type: string;
  data: { friendly_name: string; ieee_address: string } & Record<string, unknown>;
}

/** What the device registry keeps in its file: the devices and their last known states. */
export interface StoredDeviceRegistry {
  devices: ZigbeeDevice[];
  states: Record<string, DeviceState>;
}

/**
 * Reads Zigbee2MQTT's messages and the registry's own file. The protocol's shapes live in the
 * adapter (adapters/zigbee2mqtt); the registry only learns whether a message could be read.
 */
export interface Zigbee2MqttMessages {
  deviceList(value: unknown): ParsedMessage<ZigbeeDevice[]>;
  bridgeEvent(value: unknown): ParsedMessage<BridgeEvent>;
  storedRegistry(document: unknown): ParsedMessage<StoredDeviceRegistry>;
}
