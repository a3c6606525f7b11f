/**
 * What the engine's HTTP API and web UI read from the HomeKit bridge (registry key
 * `homekit`): its bridges, ports and accessory counts, and, for an authenticated caller
 * only, the setup code with each bridge's setup URI and QR code.
 */

/** One bridge (a HomeKit bridge holds at most 150 accessories, so large homes get several). */
export interface HomeKitBridgeInfo {
  index: number;
  /** Name shown in the Home app. */
  name: string;
  /** HAP device id (MAC-style), generated once per installation. */
  username: string;
  /** Bound TCP port, or null while not listening. */
  port: number | null;
  /** Bridged accessories (the bridge itself not counted). */
  accessories: number;
  /** Whether a home (an iPhone) has paired with it. */
  paired: boolean;
  /** `X-HM://…`, what the QR code holds; null unless secrets were asked for. */
  setupUri: string | null;
  /** The setup QR code as an SVG data URI; null unless secrets were asked for. */
  setupQr: string | null;
}

export interface HomeKitReport {
  configured: boolean;
  /** Every bridge listens. */
  reachable: boolean;
  lastError: string | null;
  bridges: HomeKitBridgeInfo[];
  /** Bridged accessories over all bridges. */
  accessories: number;
  /** `123-45-678`; null unless secrets were asked for. */
  setupCode: string | null;
}

export interface HomeKitBridgeApi {
  /** `includeSecrets` adds the setup code, setup URIs and QR codes: pass true only for an authenticated caller. */
  describe(includeSecrets: boolean): HomeKitReport;
}

/** Whether a registered service is a HomeKit bridge this API can describe. */
export function isHomeKitBridge(service: unknown): service is HomeKitBridgeApi {
  return (
    typeof service === "object" &&
    service !== null &&
    typeof (service as { describe?: unknown }).describe === "function"
  );
}

/** The registry key. */
export const HOMEKIT_SERVICE_KEY = "homekit";

// `services.get("homekit")` and `this.require("homekit")` are typed without a type argument.
declare module "./engine-services.js" {
  interface KnownServices {
    homekit: HomeKitBridgeApi;
    homeKit: HomeKitBridgeApi;
  }
}
