const SECRET_PARAMS = new Set(["appid", "apikey", "api_key", "token", "key", "secret"]);

/**
 * APIs that carry their token as a path segment: Nanoleaf's OpenAPI (`/api/v1/<token>/state`).
 * Only token-like segments (16+ letters and digits) are masked, so `/api/v1/new` stays.
 */
const PATH_TOKEN = /(\/api\/v1\/)[A-Za-z0-9]{16,}(?=[/?#\s"']|$)/g;

/**
 * Replaces the values of secret-looking query parameters with `***` in any URL found in
 * `text` (absolute URLs and bare `?a=b` query strings alike), and tokens carried in the path
 * (`/api/v1/<token>/…`). Names match case-insensitively.
 */
export function maskSecrets(text: string): string {
  // Callers outside the type system (automations in plain JS) can hand over anything.
  if (typeof text !== "string") return String(text);
  return text
    .replace(PATH_TOKEN, "$1***")
    .replace(/([?&])([^=&#\s"']+)=([^&#\s"']*)/g, (match, separator: string, name: string) =>
      SECRET_PARAMS.has(name.toLowerCase()) ? `${separator}${name}=***` : match,
    );
}
