import { createECDH } from "node:crypto";

/** The server's VAPID key pair (RFC 8292), base64url: a P-256 public point and private scalar. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const base64url = /^[A-Za-z0-9_-]+$/;

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
