/**
 * A local Web Push service on loopback HTTPS, playing both the push service and the browser
 * behind it: it hands out subscriptions (a P-256 key pair and an auth secret per "device", as
 * PushManager.subscribe makes them), checks each push request's VAPID authorization (RFC 8292:
 * an ES256 JWT signed by the key in `k`), and decrypts the message body (RFC 8291 with the
 * aes128gcm content coding of RFC 8188) with the device's private key and auth secret, as the
 * user agent would. Written from the RFCs with node:crypto; nothing of web-push is used to check
 * web-push.
 */
import { createDecipheriv, createECDH, createPublicKey, type ECDH, hkdfSync, randomBytes, verify } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";

const FIXTURES = new URL("../fixtures/push-service/", import.meta.url);
/** The fake's certificate, for the sender's `ca`. */
export const FAKE_PUSH_CA = readFileSync(new URL("cert.pem", FIXTURES), "utf8");

/** What a browser would hand to the app: PushSubscription.toJSON(). */
export interface BrowserSubscription {
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedPush {
  /** The subscription's id (the endpoint's last path segment). */
  device: string;
  headers: Record<string, string | string[] | undefined>;
  /** The decrypted payload, parsed as JSON. */
  message: unknown;
  /** The JWT's claims, once its signature checked out. */
  claims: { aud: string; exp: number; sub: string };
  /** The VAPID public key (`k`) the request was signed with. */
  vapidKey: string;
}

/** A subscribed "browser": its key pair and auth secret. */
export interface Device {
  ecdh: ECDH;
  auth: Buffer;
}

/** Why a push request is refused (a 4xx the sender sees), or null. */
class PushRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class FakePushService {
  readonly received: ReceivedPush[] = [];
  /** Requests refused, with why: a test asserts it stays empty. */
  readonly refused: string[] = [];
  /** Status to answer per device instead of 201 (404 or 410: the subscription is gone; 500: failure). */
  readonly answer = new Map<string, number>();
  private readonly devices = new Map<string, Device>();
  private readonly waiters: { count: number; resolve: () => void }[] = [];

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<FakePushService> {
    let fake: FakePushService | null = null;
    const server = createServer(
      { key: readFileSync(new URL("key.pem", FIXTURES)), cert: FAKE_PUSH_CA },
      (request, response) => {
        const chunks: Buffer[] = [];
        request.on("data", (chunk: Buffer) => chunks.push(chunk));
        request.on("end", () => {
          if (!fake) return;
          try {
            fake.receive(request.method ?? "", request.url ?? "", request.headers, Buffer.concat(chunks));
            const device = (request.url ?? "").split("/").pop() ?? "";
            const status = fake.answer.get(device) ?? 201;
            response.writeHead(status).end();
          } catch (error) {
            const refused = error instanceof PushRefused ? error : new PushRefused(400, String(error));
            fake.refused.push(refused.message);
            response.writeHead(refused.status, { "content-type": "text/plain" }).end(refused.message);
          }
          fake.wake();
        });
      },
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    fake = new FakePushService(server, `https://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return fake;
  }

  /** A new device's subscription, as the browser's PushManager.subscribe() would make it. */
  subscribe(): BrowserSubscription {
    const id = randomBytes(12).toString("base64url");
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    const auth = randomBytes(16);
    this.devices.set(id, { ecdh, auth });
    return {
      endpoint: `${this.origin}/push/${id}`,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") },
    };
  }

  /** Resolves once `count` requests (accepted or refused) have arrived in all. */
  requestsReach(count: number): Promise<void> {
    if (this.received.length + this.refused.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private wake(): void {
    const total = this.received.length + this.refused.length;
    for (const waiter of [...this.waiters])
      if (total >= waiter.count) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
  }

  private receive(
    method: string,
    url: string,
    headers: Record<string, string | string[] | undefined>,
    body: Buffer,
  ): void {
    const device = url.split("/").pop() ?? "";
    const keys = this.devices.get(device);
    if (method !== "POST" || !url.startsWith("/push/") || !keys) throw new PushRefused(404, `no subscription ${url}`);
    // RFC 8030 section 5.2: TTL is required.
    if (!/^\d+$/.test(String(headers.ttl ?? ""))) throw new PushRefused(400, "TTL header missing");
    if (headers["content-encoding"] !== "aes128gcm") throw new PushRefused(415, "Content-Encoding must be aes128gcm");
    const { claims, vapidKey } = this.checkVapid(String(headers.authorization ?? ""));
    const message = JSON.parse(decryptAes128gcm(body, keys).toString("utf8")) as unknown;
    this.received.push({ device, headers, message, claims, vapidKey });
  }

  /** RFC 8292 section 3: `vapid t=<JWT>, k=<public key>`, the JWT ES256-signed by `k`'s private key. */
  private checkVapid(authorization: string): { claims: ReceivedPush["claims"]; vapidKey: string } {
    const match = /^vapid t=([A-Za-z0-9_.-]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization);
    if (!match) throw new PushRefused(401, `Authorization is not vapid t=…, k=…: ${authorization}`);
    const [, token, key] = match as unknown as [string, string, string];
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const point = Buffer.from(key, "base64url");
    if (point.length !== 65 || point[0] !== 4) throw new PushRefused(401, "k is not an uncompressed P-256 point");
    const publicKey = createPublicKey({
      key: {
        kty: "EC",
        crv: "P-256",
        x: point.subarray(1, 33).toString("base64url"),
        y: point.subarray(33).toString("base64url"),
      },
      format: "jwk",
    });
    const signed = verify(
      "sha256",
      Buffer.from(`${header}.${payload}`),
      { key: publicKey, dsaEncoding: "ieee-p1363" },
      Buffer.from(signature, "base64url"),
    );
    if (!signed) throw new PushRefused(403, "the JWT's signature does not match k");
    const head = JSON.parse(Buffer.from(header, "base64url").toString("utf8")) as { alg?: string };
    if (head.alg !== "ES256") throw new PushRefused(403, `JWT alg ${head.alg}, not ES256`);
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as ReceivedPush["claims"];
    if (claims.aud !== this.origin) throw new PushRefused(403, `JWT aud ${claims.aud}, not ${this.origin}`);
    const now = Date.now() / 1000;
    if (!(claims.exp > now && claims.exp <= now + 24 * 3600)) throw new PushRefused(403, "JWT exp not within 24 hours");
    if (!/^(mailto:|https:)/.test(claims.sub)) throw new PushRefused(403, `JWT sub ${claims.sub}`);
    return { claims, vapidKey: key };
  }
}

/**
 * RFC 8188 aes128gcm with RFC 8291's key derivation: header salt(16) | rs(4) | idlen(1) |
 * keyid (the sender's ephemeral public key), then records of `rs` bytes, each ending in a
 * padding delimiter (1 in a record before the last, 2 in the last) and zeros.
 */
export function decryptAes128gcm(body: Buffer, device: Device): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20] ?? 0;
  const senderKey = body.subarray(21, 21 + idLength);
  if (idLength !== 65) throw new PushRefused(400, "keyid is not the sender's P-256 public key");
  const ecdhSecret = device.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), device.ecdh.getPublicKey(), senderKey]);
  const ikm = Buffer.from(hkdfSync("sha256", ecdhSecret, device.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const baseNonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const records = body.subarray(21 + idLength);
  const plain: Buffer[] = [];
  for (let offset = 0, sequence = 0; offset < records.length; offset += recordSize, sequence++) {
    const record = records.subarray(offset, offset + recordSize);
    const nonce = Buffer.from(baseNonce);
    // The record's sequence number XORed into the nonce's low bits (RFC 8188 section 2.3).
    nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ sequence) >>> 0, 8);
    const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end--;
    const last = offset + recordSize >= records.length;
    if (padded[end] !== (last ? 2 : 1)) throw new PushRefused(400, "bad padding delimiter");
    plain.push(padded.subarray(0, end));
  }
  return Buffer.concat(plain);
}

/**
 * An init script replacing PushManager's subscribe/getSubscription with one answering
 * `subscription`: headless Chromium has no push service of its own (it would register with
 * Google's, which nothing here reaches), so the browser side of a subscription comes from here.
 */
export function standInPushManager(subscription: { endpoint: string; keys: { p256dh: string; auth: string } }): string {
  return `(() => {
    const json = ${JSON.stringify(subscription)};
    // Kept across page loads of the tab, as the browser keeps a real subscription.
    const KEY = "stand-in-push-subscription";
    const make = (options) => ({
      endpoint: json.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: options.applicationServerKey.buffer },
      toJSON: () => ({ endpoint: json.endpoint, expirationTime: null, keys: json.keys }),
      getKey: () => null,
      unsubscribe: async () => { sessionStorage.removeItem(KEY); return true; },
    });
    PushManager.prototype.subscribe = async function (options) {
      if (Notification.permission !== "granted") throw new DOMException("denied", "NotAllowedError");
      const key = new Uint8Array(options.applicationServerKey);
      sessionStorage.setItem(KEY, JSON.stringify(Array.from(key)));
      return make({ applicationServerKey: key });
    };
    PushManager.prototype.getSubscription = async function () {
      const stored = sessionStorage.getItem(KEY);
      return stored ? make({ applicationServerKey: new Uint8Array(JSON.parse(stored)) }) : null;
    };
  })();`;
}
