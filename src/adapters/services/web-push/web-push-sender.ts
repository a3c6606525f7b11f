import { createHash } from "node:crypto";
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { PushDelivery, PushOutcome, PushSender } from "../../../ports/push-sender.js";
import { loadOnce } from "../../../domain/shared/load-once.js";
import { isPrivateAddress } from "../../security/push-endpoint-policy.js";
import type { VapidKeys } from "../../security/vapid-keys.js";

export interface WebPushSenderOptions {
  keys: VapidKeys;
  /** VAPID `sub` claim: a mailto: or https: contact for the push service's operator. */
  subject: string;
  /** PUSH_ALLOW_PRIVATE_ENDPOINTS: connect to private addresses too (tests, a self-hosted push service). */
  allowPrivate: boolean;
  /** Extra trusted certificate (PEM), for a test push service with a self-signed certificate. */
  ca?: string;
  /** Per request (milliseconds). */
  timeoutMs?: number;
}

type WebPush = typeof import("web-push");

/** web-push (and its ASN.1 and JWT code, 11 MB) is loaded on the first notification, not at start. */
const loadWebPush = loadOnce(() =>
  import("web-push").then((module) => ((module as { default?: WebPush }).default ?? module) as WebPush),
);

/**
 * Refuses, at connect time, names that resolve to private addresses: checking the URL alone would
 * let a public name with a private DNS record through.
 */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, options as LookupOptions, (error, address, family) => {
      if (error) return callback(error, address as string, family);
      const addresses: LookupAddress[] = Array.isArray(address) ? address : [{ address, family: family ?? 4 }];
      if (!allowPrivate && addresses.some((entry) => isPrivateAddress(entry.address))) {
        const refused = Object.assign(new Error(`push endpoint ${hostname} resolves to a private address`), {
          code: "EPRIVATEADDRESS",
        });
        return callback(refused, address as string, family);
      }
      callback(null, address as string, family);
    });
  };
}

/**
 * Web Push through the `web-push` library: the payload encrypted for the subscription (RFC 8291,
 * aes128gcm, RFC 8188), the request signed with the server's VAPID key (RFC 8292), with `TTL`,
 * `Urgency` and `Topic` (RFC 8030 section 5). 404 and 410 mean the subscription is gone.
 */
export class WebPushSender implements PushSender {
  private readonly agent: https.Agent;

  constructor(private readonly options: WebPushSenderOptions) {
    this.agent = new https.Agent({
      keepAlive: false,
      lookup: guardedLookup(options.allowPrivate),
      ...(options.ca ? { ca: options.ca } : {}),
    });
  }

  async send(delivery: PushDelivery): Promise<PushOutcome> {
    const webpush = await loadWebPush();
    try {
      await webpush.sendNotification(
        {
          endpoint: delivery.subscription.endpoint,
          keys: { p256dh: delivery.subscription.p256dh, auth: delivery.subscription.auth },
        },
        JSON.stringify(delivery.notification),
        {
          vapidDetails: {
            subject: this.options.subject,
            publicKey: this.options.keys.publicKey,
            privateKey: this.options.keys.privateKey,
          },
          contentEncoding: "aes128gcm",
          TTL: delivery.ttlSeconds,
          // A reminder for today, not an alarm: "normal" lets a phone on battery saving wait a little.
          urgency: "normal",
          topic: topicOf(delivery.replaceKey),
          timeout: this.options.timeoutMs ?? 10_000,
          agent: this.agent,
        },
      );
      return "delivered";
    } catch (error) {
      if (error instanceof webpush.WebPushError && (error.statusCode === 404 || error.statusCode === 410))
        return "gone";
      throw error;
    }
  }
}

/** RFC 8030's Topic: at most 32 characters of the URL-safe base64 alphabet, so a hash of the key. */
export function topicOf(key: string): string {
  return createHash("sha256").update(key).digest("base64url").slice(0, 32);
}
