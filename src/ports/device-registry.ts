/** The Zigbee2MQTT devices and their state as automations and services see them. */
import type { DeviceState, ZigbeeDevice } from "../domain/automation/zigbee-device.js";

export type DeviceStateHandler = (state: DeviceState, device: ZigbeeDevice) => void;
export type DeviceEventHandler = (device: ZigbeeDevice) => void;

export interface DeviceRegistryApi {
  /** Non-coordinator devices. */
  getDevices(): ZigbeeDevice[];
  getDevice(name: string): ZigbeeDevice | null;
  hasDevice(name: string): boolean;
  getNiceName(name: string): string;
  getDeviceState(name: string): DeviceState | null;
  onDeviceStateChange(name: string, handler: DeviceStateHandler): void;
  offDeviceStateChange(name: string, handler: DeviceStateHandler): void;
  onDeviceAdded(handler: DeviceEventHandler): void;
  offDeviceAdded(handler: DeviceEventHandler): void;
  onDeviceRemoved(handler: DeviceEventHandler): void;
  offDeviceRemoved(handler: DeviceEventHandler): void;
}
