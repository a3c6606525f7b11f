/**
 * A device as Zigbee2MQTT publishes it on `{prefix}/bridge/devices`. Only the fields the
 * engine relies on are typed; everything else Zigbee2MQTT sends is kept as-is.
 */
export interface ZigbeeDevice {
  ieee_address: string;
  friendly_name: string;
  type: "Coordinator" | "Router" | "EndDevice" | (string & {});
  network_address?: number | undefined;
  supported?: boolean | undefined;
  disabled?: boolean | undefined;
  interview_completed?: boolean | undefined;
  manufacturer?: string | null | undefined;
  model_id?: string | null | undefined;
  power_source?: string | null | undefined;
  definition?:
    | {
        model?: string;
        vendor?: string;
        description?: string;
        exposes?: unknown[];
        [field: string]: unknown;
      }
    | null
    | undefined;
  [field: string]: unknown;
}

/** Last known device state, merged from every partial update Zigbee2MQTT published. */
export type DeviceState = Record<string, unknown>;
