import { z } from "zod";
import type { DeviceState, ZigbeeDevice } from "../../domain/automation/zigbee-device.js";
import type {
  BridgeEvent,
  ParsedMessage,
  StoredDeviceRegistry,
  Zigbee2MqttMessages,
} from "../../ports/zigbee2mqtt-messages.js";

// Zigbee2MQTT's bridge/devices entries: only what the registry relies on is checked; every
// other field (model, power source, exposes, …) is kept as sent.
const deviceSchema = z.looseObject({
  ieee_address: z.string().min(1),
  friendly_name: z.string().min(1),
  type: z.string(),
  definition: z.looseObject({}).nullable().optional(),
});
const deviceListSchema = z.array(deviceSchema);

const bridgeEventSchema = z.object({
  type: z.string(),
  data: z.looseObject({ friendly_name: z.string().min(1), ieee_address: z.string().min(1) }),
});

const storedSchema = z.object({
  devices: z.array(deviceSchema),
  states: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
});

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ");
}

function parsedWith<T>(schema: z.ZodType, value: unknown): ParsedMessage<T> {
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data as T } : { ok: false, reason: describeIssues(parsed.error) };
}

/** The Zigbee2MQTT message shapes, checked with zod at the edge. */
export const zigbee2MqttMessages: Zigbee2MqttMessages = {
  deviceList: (value) => parsedWith<ZigbeeDevice[]>(deviceListSchema, value),
  bridgeEvent: (value) => parsedWith<BridgeEvent>(bridgeEventSchema, value),
  storedRegistry: (document) =>
    parsedWith<{ devices: ZigbeeDevice[]; states: Record<string, DeviceState> }>(
      storedSchema,
      document,
    ) as ParsedMessage<StoredDeviceRegistry>,
};
