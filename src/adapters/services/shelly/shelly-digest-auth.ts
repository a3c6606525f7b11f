/**
 * HTTP digest authentication as Shelly Gen 2+ devices do it (RFC 7616 with SHA-256,
 * qop=auth; https://shelly-api-docs.shelly.cloud/gen2/General/Authentication): the device
 * answers 401 with a `WWW-Authenticate: Digest …` challenge, the client repeats the
 * request with an `Authorization: Digest …` header computed from it.
 */
import { createHash, randomBytes } from "node:crypto";

export interface DigestChallenge {
  realm: string;
  nonce: string;
  qop?: string;
  algorithm?: string;
  opaque?: string;
}

/** The challenge in a `WWW-Authenticate` header, or null when it is not a digest challenge. */
export function parseDigestChallenge(header: string | undefined): DigestChallenge | null {
  if (!header || !/^\s*digest\s/i.test(header)) return null;
  const fields: Record<string, string> = {};
  for (const match of header.replace(/^\s*digest\s+/i, "").matchAll(/([a-z0-9_-]+)\s*=\s*(?:"([^"]*)"|([^\s,]+))/gi)) {
    const name = match[1];
    if (name) fields[name.toLowerCase()] = match[2] ?? match[3] ?? "";
  }
  if (fields.realm === undefined || fields.nonce === undefined) return null;
  return {
    realm: fields.realm,
    nonce: fields.nonce,
    ...(fields.qop !== undefined ? { qop: fields.qop } : {}),
    ...(fields.algorithm !== undefined ? { algorithm: fields.algorithm } : {}),
    ...(fields.opaque !== undefined ? { opaque: fields.opaque } : {}),
  };
}

function hash(algorithm: string, text: string): string {
  return createHash(algorithm).update(text).digest("hex");
}

/** Node's hash name for the challenge's algorithm (Shelly uses SHA-256; MD5 is RFC 2617's default). */
function hashName(challenge: DigestChallenge): string {
  const algorithm = (challenge.algorithm ?? "MD5").toUpperCase().replace(/-SESS$/, "");
  return algorithm === "SHA-256" ? "sha256" : "md5";
}

export interface DigestRequest {
  method: string;
  /** Path and query as sent (`/rpc/Switch.Set`). */
  uri: string;
  username: string;
  password: string;
  /** Request counter for this nonce, from 1. */
  nonceCount: number;
  /** Tests pin it; random otherwise. */
  cnonce?: string;
}

/** The `Authorization` header answering `challenge`. */
export function digestAuthorization(challenge: DigestChallenge, request: DigestRequest): string {
  const algorithm = hashName(challenge);
  const cnonce = request.cnonce ?? randomBytes(8).toString("hex");
  const nc = request.nonceCount.toString(16).padStart(8, "0");
  const ha1 = hash(algorithm, `${request.username}:${challenge.realm}:${request.password}`);
  const ha2 = hash(algorithm, `${request.method}:${request.uri}`);
  const qop = challenge.qop
    ?.split(",")
    .map((value) => value.trim())
    .includes("auth")
    ? "auth"
    : undefined;
  const response = qop
    ? hash(algorithm, `${ha1}:${challenge.nonce}:${nc}:${cnonce}:${qop}:${ha2}`)
    : hash(algorithm, `${ha1}:${challenge.nonce}:${ha2}`);
  const parts = [
    `username="${request.username}"`,
    `realm="${challenge.realm}"`,
    `nonce="${challenge.nonce}"`,
    `uri="${request.uri}"`,
    `algorithm=${challenge.algorithm ?? "MD5"}`,
    `response="${response}"`,
  ];
  if (qop) parts.push(`qop=${qop}`, `nc=${nc}`, `cnonce="${cnonce}"`);
  if (challenge.opaque !== undefined) parts.push(`opaque="${challenge.opaque}"`);
  return `Digest ${parts.join(", ")}`;
}

/** Checks an `Authorization: Digest …` header (the device side; the test fake uses it). */
export function verifyDigest(
  header: string | undefined,
  expected: { method: string; realm: string; nonce: string; username: string; password: string },
): boolean {
  if (!header || !/^\s*digest\s/i.test(header)) return false;
  const fields: Record<string, string> = {};
  for (const match of header.replace(/^\s*digest\s+/i, "").matchAll(/([a-z0-9_-]+)\s*=\s*(?:"([^"]*)"|([^\s,]+))/gi)) {
    const name = match[1];
    if (name) fields[name.toLowerCase()] = match[2] ?? match[3] ?? "";
  }
  if (fields.username !== expected.username || fields.realm !== expected.realm || fields.nonce !== expected.nonce)
    return false;
  const algorithm = (fields.algorithm ?? "MD5").toUpperCase() === "SHA-256" ? "sha256" : "md5";
  const ha1 = hash(algorithm, `${expected.username}:${expected.realm}:${expected.password}`);
  const ha2 = hash(algorithm, `${expected.method}:${fields.uri ?? ""}`);
  const want = fields.qop
    ? hash(algorithm, `${ha1}:${expected.nonce}:${fields.nc}:${fields.cnonce}:${fields.qop}:${ha2}`)
    : hash(algorithm, `${ha1}:${expected.nonce}:${ha2}`);
  return want === fields.response;
}
