import { createECDH } from "node:crypto";

/** The server's VAPID key pair (RFC 8292), base64url: a P-256 public point and private scalar. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const base64url = /^[A-Za-z0-9_-]+$/;

/**
 * A new VAPID key pair: a P-256 key, the public point uncompressed (65 bytes) and the private
 * scalar as 32 bytes, both base64url, as the Push API's `applicationServerKey` and web-push take
 * them. Made with node:crypto, so a start does not load web-push (11 MB) to make a key once.
 */
export function generateVapidKeys(): VapidKeys {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  // The scalar is returned without its leading zero bytes: RFC 8292 keys are 32 bytes.
  const privateKey = Buffer.alloc(32);
  const scalar = ecdh.getPrivateKey();
  scalar.copy(privateKey, 32 - scalar.length);
  return { publicKey: ecdh.getPublicKey().toString("base64url"), privateKey: privateKey.toString("base64url") };
}

/** Why a key pair is unusable, or null: the sizes RFC 8292 needs, and a private key that makes the public one. */
export function vapidKeyProblem(keys: VapidKeys): string | null {
  if (!base64url.test(keys.publicKey) || !base64url.test(keys.privateKey)) return "the keys must be base64url";
  const publicKey = Buffer.from(keys.publicKey, "base64url");
  const privateKey = Buffer.from(keys.privateKey, "base64url");
  if (publicKey.length !== 65 || publicKey[0] !== 4)
    return "the public key must be an uncompressed P-256 point (65 bytes)";
  if (privateKey.length !== 32) return "the private key must be 32 bytes";
  try {
    const ecdh = createECDH("prime256v1");
    ecdh.setPrivateKey(privateKey);
    if (!ecdh.getPublicKey().equals(publicKey)) return "the public key does not belong to the private key";
  } catch {
    // setPrivateKey throws for a scalar outside the curve's range.
    return "the private key is not a valid P-256 key";
  }
  return null;
}
