const SECRET_PARAMS = new Set(["appid", "apikey", "api_key", "token", "key", "secret"]);

/**
 * Replaces the values of secret-looking query parameters with `***` in any URL found in
 * `text` (absolute URLs and bare `?a=b` query strings alike). Names match case-insensitively.
 */
export function maskSecrets(text: string): string {
  // Callers outside the type system (automations in plain JS) can hand over anything.
  if (typeof text !== "string") return String(text);
  return text.replace(/([?&])([^=&#\s"']+)=([^&#\s"']*)/g, (match, separator: string, name: string) =>
    SECRET_PARAMS.has(name.toLowerCase()) ? `${separator}${name}=***` : match,
  );
}
