/**
 * Everything of the bridge that needs hap-nodejs (or the QR encoder) at run time. The bridge
 * loads this module when it starts: hap-nodejs takes about half a second to load, which every
 * `npm start` and library import would otherwise pay with HomeKit turned off.
 */
export { Bridge } from "hap-nodejs";
export { accessoryUuid, BridgedAccessory } from "./bridged-accessory.js";
export { registerHapStorage } from "./hap-storage.js";
export {
  fetchRelayState,
  lastKnownRelayState,
  planRelayChannels,
  relayServiceBinding,
  sendRelayCommand,
} from "./relay-bindings.js";
export { setupQrDataUri } from "./setup-qr.js";
export { zigbeeServiceBindings } from "./zigbee-bindings.js";
