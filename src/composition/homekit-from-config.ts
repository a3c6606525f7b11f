/**
 * The HomeKit bridge from HOMEKIT_* variables (see homekit-config.ts), for `npm start` and
 * createEngine() callers that leave `homekit` out of `services`.
 */
import path from "node:path";
import { HomeKitBridge } from "../adapters/services/homekit/homekit-bridge.js";
import type { HomeKitFactory } from "../application/automation/service-registry.js";
import type { EnvServiceContext } from "./env-services.js";

/** A factory of the bridge when HOMEKIT_ENABLED is on; it bridges the device registry and the relays. */
export function homeKitFromConfig({ config }: EnvServiceContext): HomeKitFactory<HomeKitBridge> | undefined {
  if (!config.HOMEKIT_ENABLED) return undefined;
  return ({ mqtt, logger, deviceRegistry, relay }) =>
    new HomeKitBridge({
      mqtt,
      logger,
      deviceRegistry,
      relay,
      dataDir: path.join(config.DATA_DIR, "homekit"),
      port: config.HOMEKIT_PORT,
      setupCode: config.HOMEKIT_SETUP_CODE,
      bridgeName: config.HOMEKIT_BRIDGE_NAME,
      bind: config.HOMEKIT_BIND,
      advertiser: config.HOMEKIT_ADVERTISER,
      maxAccessoriesPerBridge: config.HOMEKIT_MAX_ACCESSORIES_PER_BRIDGE,
      zigbeePrefix: config.ZIGBEE2MQTT_PREFIX,
    });
}
