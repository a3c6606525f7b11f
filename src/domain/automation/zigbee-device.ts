/**
 * A device as Zigbee2MQTT publishes it on `{prefix}/bridge/devices`. Only the fields the
 * engine relies on are typed; everything else Zigbee2MQTT sends is kept as-is.
 */
export interface ZigbeeDevice {
  ieee_address: string;
  friendly_name: string;
  type: "Coordinator" | "Router" | "EndDevice" | (string & {});
  network_address?: number;
  supported?: boolean;
  disabled?: boolean;
  interview_completed?: boolean;
  manufacturer?: string | null;
  model_id?: string | null;
  power_source?: string | null;
  definition?: {
    model?: string;
    vendor?: string;
    description?: string;
    exposes?: unknown[];
    [field: string]: unknown;
  } | null;
  [field: string]: unknown;
}

/** Last known device state, merged from every partial update Zigbee2MQTT published. */
export type DeviceState = Record<string, unknown>;
