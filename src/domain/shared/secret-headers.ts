/**
 * Which HTTP headers can carry a secret, and the one function that hides their values.
 * Traces, logs and everything the debug API serves to the web UI go through
 * {@link redactHeaders} / {@link redactSecretHeaders}, so a webhook's token or a bearer
 * credential never shows on a screen or in a log file. The automation itself still gets
 * the headers as sent (it may have to check them).
 */

/** What a hidden value is replaced with. */
export const REDACTED = "[redacted]";

/** Headers that carry credentials under a name with no tell-tale word in it. */
const SECRET_HEADER_NAMES = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie"]);

/**
 * Any name with one of these words carries a secret by its own account: x-webhook-token,
 * x-api-key, x-hub-signature-256, x-auth-secret, x-session-id, x-csrf-token, sec-websocket-key.
 */
const SECRET_WORDS = /token|secret|passw|key|signature|credential|session|auth|cookie/i;

/** Whether a header of this name (any case) can carry a secret. */
export function isSecretHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_HEADER_NAMES.has(lower) || SECRET_WORDS.test(lower);
}

/** A copy of `headers` with every secret-carrying value replaced by {@link REDACTED}. */
export function redactHeaders<T>(headers: Record<string, T>): Record<string, T | typeof REDACTED> {
  const out: Record<string, T | typeof REDACTED> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = isSecretHeader(name) ? REDACTED : value;
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `value` with the headers inside it redacted: every object held under a `headers` key (a
 * webhook trigger context, a request logged whole), at any depth up to `maxDepth`. Returns
 * `value` itself when there is nothing to hide, so the common case copies nothing.
 */
export function redactSecretHeaders<T>(value: T, maxDepth = 8): T {
  if (maxDepth <= 0 || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item) => {
      const redacted = redactSecretHeaders(item, maxDepth - 1);
      if (redacted !== item) changed = true;
      return redacted;
    });
    return (changed ? items : value) as T;
  }
  if (!isRecord(value) || value instanceof Date || value instanceof Error) return value;
  let copy: Record<string, unknown> | null = null;
  for (const [key, item] of Object.entries(value)) {
    let redacted: unknown;
    if (key.toLowerCase() === "headers" && isRecord(item)) {
      redacted = Object.keys(item).some(isSecretHeader) ? redactHeaders(item) : item;
    } else {
      redacted = redactSecretHeaders(item, maxDepth - 1);
    }
    if (redacted !== item) {
      copy ??= { ...value };
      copy[key] = redacted;
    }
  }
  return (copy ?? value) as T;
}
