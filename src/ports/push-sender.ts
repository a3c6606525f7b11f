import type { PushSubscriptionRecord } from "../domain/inventory/push-reminder.js";

/** What the app's service worker shows: the text, already in the device's language. */
export interface PushNotification {
  title: string;
  body: string;
  /** The app's address to open on a tap, relative to the app (e.g. `#/households/…/expiring`). */
  url: string;
  /** Same tag, same notification: a repeat replaces the one shown. */
  tag: string;
}

export interface PushDelivery {
  subscription: Pick<PushSubscriptionRecord, "endpoint" | "p256dh" | "auth">;
  notification: PushNotification;
  /** Messages with the same key replace each other while the push service holds them. */
  replaceKey: string;
  /** How long the push service keeps it for a device that is offline (seconds). */
  ttlSeconds: number;
}

/** The push service accepted it, or said the subscription no longer exists (404/410). */
export type PushOutcome = "delivered" | "gone";

/** Sends encrypted Web Push messages. Rejects on every other failure (network, 4xx, 5xx). */
export interface PushSender {
  send(delivery: PushDelivery): Promise<PushOutcome>;
}

/** The server's VAPID public key (RFC 8292), which browsers subscribe with. */
export interface PushServerKey {
  /** Uncompressed P-256 point, base64url. */
  readonly publicKey: string;
}
