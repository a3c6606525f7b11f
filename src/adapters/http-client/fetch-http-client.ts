import { parseJsonOr } from "../../domain/shared/parse-json.js";
import { DomainError } from "../../domain/shared/domain-error.js";
import type { HttpClient, HttpMethod, HttpRequestOptions, HttpResponse } from "../../ports/http-client.js";
import type { Logger } from "../../ports/logger.js";
import { maskSecrets } from "../logging/mask-url.js";
import { readBounded } from "./read-bounded.js";

export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
export const RETRY_BACKOFF_START_MS = 500;
export const RETRY_BACKOFF_CAP_MS = 10_000;

/** A request that never got a response: connection refused, DNS failure, timeout, reset. */
export class HttpRequestFailedError extends DomainError {
  readonly code = "HTTP_REQUEST_FAILED";

  constructor(
    message: string,
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(message);
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

export interface FetchHttpClientOptions {
  /** Waits between retries; tests pass a fake so backoff costs no wall time. */
  sleep?: (ms: number) => Promise<void>;
  /** The fetch implementation; global fetch by default. */
  fetch?: typeof fetch;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Backoff before retry number `retry` (0-based): 500 ms, 1 s, 2 s, ... capped at 10 s. */
export function retryDelay(retry: number): number {
  return Math.min(RETRY_BACKOFF_START_MS * 2 ** retry, RETRY_BACKOFF_CAP_MS);
}

function describeFailure(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === "TimeoutError" || error.name === "AbortError") return "timed out";
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof Error) {
      const code = (cause as NodeJS.ErrnoException).code;
      return code ? `${code} (${cause.message})` : cause.message;
    }
    return error.message;
  }
  return String(error);
}

function headersToMap(headers: Headers): Record<string, string> {
  const map: Record<string, string> = {};
  headers.forEach((value, name) => {
    map[name] = value;
  });
  return map;
}

/**
 * Timeouts and failures to reach the server (fetch's TypeError with a socket-level
 * cause) are worth retrying; a malformed URL or request is not.
 */
function isNetworkFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "TimeoutError" || error.name === "AbortError") return true;
  if (!(error instanceof TypeError)) return false;
  // undici reports every socket-level failure as "fetch failed" with the reason as cause;
  // an invalid URL also has a cause, but a TypeError one.
  const cause = (error as { cause?: unknown }).cause;
  return error.message === "fetch failed" || (cause !== undefined && !(cause instanceof TypeError));
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  const lowered = name.toLowerCase();
  return Object.keys(headers).some((header) => header.toLowerCase() === lowered);
}

function parseBody(text: string, contentType: string | null): unknown {
  const saysJson = contentType !== null && /[/+]json\b/i.test(contentType);
  if (saysJson) {
    if (text.trim() === "") return null;
    // A server that labels invalid JSON as JSON still gets its text delivered.
    return parseJsonOr(text, text);
  }
  // Many APIs answer JSON with a generic content type; objects and arrays are unambiguous.
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    return parseJsonOr(text, text);
  }
  return text;
}

/**
 * The shared outbound HTTP client on global fetch. JSON in and out; retries network
 * errors and 5xx responses only (500 ms backoff, doubling, capped at 10 s); 4xx
 * responses are returned with `ok: false`. Bodies past `maxResponseBytes` fail the request.
 * URLs in logs have secrets masked.
 */
export class FetchHttpClient implements HttpClient {
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly fetchImpl: typeof fetch;

  constructor(
    private readonly logger: Logger,
    options: FetchHttpClientOptions = {},
  ) {
    this.sleep = options.sleep ?? realSleep;
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  }

  async request<T = unknown>(url: string, options: HttpRequestOptions = {}): Promise<HttpResponse<T>> {
    const method: HttpMethod = options.method ?? "GET";
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    const timeout = options.timeout ?? DEFAULT_HTTP_TIMEOUT_MS;
    const retries = Math.max(0, Math.floor(options.retries ?? 0));
    const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      if (!hasHeader(headers, "content-type")) headers["content-type"] = "application/json";
    }
    const masked = maskSecrets(url);

    for (let attempt = 0; ; attempt++) {
      const isLast = attempt >= retries;
      let response: Response;
      let text: string | undefined;
      try {
        this.logger.debug("HTTP request", { method, url: masked, attempt: attempt + 1 });
        response = await this.fetchImpl(url, {
          method,
          headers,
          ...(body === undefined ? {} : { body }),
          signal: AbortSignal.timeout(timeout),
        });
        text = await readBounded(response, maxBytes);
      } catch (error) {
        const reason = describeFailure(error);
        if (isLast || !isNetworkFailure(error)) {
          this.logger.warn("HTTP request failed", { method, url: masked, attempts: attempt + 1, reason });
          throw new HttpRequestFailedError(`${method} ${masked} failed: ${reason}`, attempt + 1, { cause: error });
        }
        await this.backoff(attempt, { method, url: masked, reason });
        continue;
      }
      if (text === undefined) {
        const reason = `the response is larger than ${maxBytes} bytes (maxResponseBytes)`;
        this.logger.warn("HTTP request failed", { method, url: masked, attempts: attempt + 1, reason });
        throw new HttpRequestFailedError(`${method} ${masked} failed: ${reason}`, attempt + 1);
      }
      if (response.status >= 500 && !isLast) {
        await this.backoff(attempt, { method, url: masked, reason: `status ${response.status}` });
        continue;
      }
      const level = response.ok ? "debug" : "warn";
      this.logger[level]("HTTP response", { method, url: masked, status: response.status });
      return {
        status: response.status,
        ok: response.ok,
        headers: headersToMap(response.headers),
        data: parseBody(text, response.headers.get("content-type")) as T,
      };
    }
  }

  private async backoff(attempt: number, fields: Record<string, unknown>): Promise<void> {
    const delayMs = retryDelay(attempt);
    this.logger.warn("HTTP request failed; retrying", { ...fields, attempt: attempt + 1, retryInMs: delayMs });
    await this.sleep(delayMs);
  }

  get<T = unknown>(url: string, headers?: Record<string, string>): Promise<HttpResponse<T>> {
    return this.request<T>(url, { method: "GET", headers });
  }

  post<T = unknown>(url: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResponse<T>> {
    return this.request<T>(url, { method: "POST", body, headers });
  }

  put<T = unknown>(url: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResponse<T>> {
    return this.request<T>(url, { method: "PUT", body, headers });
  }

  patch<T = unknown>(url: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResponse<T>> {
    return this.request<T>(url, { method: "PATCH", body, headers });
  }

  del<T = unknown>(url: string, headers?: Record<string, string>): Promise<HttpResponse<T>> {
    return this.request<T>(url, { method: "DELETE", headers });
  }
}
