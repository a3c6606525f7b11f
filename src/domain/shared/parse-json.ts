/** Marks "not JSON" apart from every value JSON can hold (null included). */
const NOT_JSON: unique symbol = Symbol("not JSON");

/**
 * `JSON.parse(text)`, or `fallback` when the text is not JSON. For the places that accept
 * JSON or plain text alike (MQTT payloads, HTTP bodies, raw device messages), so each one
 * does not grow its own try/catch.
 */
export function parseJsonOr(text: string, fallback: unknown): unknown {
  const value = tryParse(text);
  return value === NOT_JSON ? fallback : value;
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}
