/**
 * This device's Web Push subscription: what the browser supports and allows, subscribing with
 * the server's VAPID key (the Push API's PushManager, RFC 8030 underneath), and telling the
 * server, which pushes the member's reminders to every device they turned on.
 */
import { ApiError, api } from "./api.js";
import { language } from "./i18n/index.js";

/** What this browser can do about push reminders right now. */
export type PushState = "unsupported" | "denied" | "off" | "on";

function supported(): boolean {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

async function registration(): Promise<ServiceWorkerRegistration> {
  return navigator.serviceWorker.ready;
}

/** The subscription this browser holds for the app, or null. */
export async function deviceSubscription(): Promise<PushSubscription | null> {
  if (!supported()) return null;
  return (await registration()).pushManager.getSubscription();
}

export async function pushState(): Promise<PushState> {
  if (!supported()) return "unsupported";
  if (Notification.permission === "denied") return "denied";
  return (await deviceSubscription()) ? "on" : "off";
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.byteLength) return false;
  const bytes = new Uint8Array(a);
  return bytes.every((byte, index) => byte === b[index]);
}

/**
 * Asks for permission (from the tap that called this, as browsers require), subscribes with the
 * server's key and registers the device. A subscription made with another key (the server's
 * keys changed) is replaced: pushes signed with the new key would be refused for it.
 */
export async function turnOnThisDevice(): Promise<PushState> {
  if (!supported()) return "unsupported";
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return permission === "denied" ? "denied" : "off";
  const { publicKey } = await api.pushPublicKey();
  const key = keyBytes(publicKey);
  const manager = (await registration()).pushManager;
  let subscription = await manager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await manager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  await api.subscribePush(subscription.toJSON(), language);
  return "on";
}

/** Stops pushes to this device: the server forgets it, then the browser drops the subscription. */
export async function turnOffThisDevice(): Promise<PushState> {
  const subscription = await deviceSubscription();
  if (subscription) {
    await api.unsubscribePush(subscription.endpoint).catch((error: unknown) => {
      // Already gone on the server (removed there, or by the push service): nothing left to stop.
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    });
    await subscription.unsubscribe();
  }
  return pushState();
}

/**
 * Re-registers this device's subscription when the screen opens: the server may have forgotten
 * it (its push service answered 410 once, or the account's devices were cleared), and the app's
 * language may have changed. A subscription made with another server key is dropped: pushes
 * signed with the current key would be refused for it, so the device shows as off.
 */
export async function syncThisDevice(): Promise<PushState> {
  const subscription = await deviceSubscription();
  if (!subscription) return pushState();
  const { publicKey } = await api.pushPublicKey();
  if (!sameKey(subscription.options.applicationServerKey, keyBytes(publicKey))) {
    await subscription.unsubscribe();
    return pushState();
  }
  await api.subscribePush(subscription.toJSON(), language);
  return "on";
}
