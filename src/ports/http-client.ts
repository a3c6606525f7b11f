export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface HttpRequestOptions {
  /** Default GET. */
  method?: HttpMethod | undefined;
  /** Default {}. */
  headers?: Record<string, string> | undefined;
  /** Serialised as JSON. */
  body?: unknown | undefined;
  /** Milliseconds, default 30000. */
  timeout?: number | undefined;
  /** Extra attempts after a network error or 5xx, default 0; backoff 500 ms doubling, capped at 10 s. */
  retries?: number | undefined;
  /**
   * Largest response body read, in bytes; default 16 MiB. A longer one fails the request
   * (not retried) instead of filling memory: a URL that streams without end, such as a
   * camera's MJPEG feed, would otherwise be read until the timeout.
   */
  maxResponseBytes?: number | undefined;
}

export interface HttpResponse<T = unknown> {
  status: number;
  /** True for 2xx. */
  ok: boolean;
  headers: Record<string, string>;
  /** Parsed JSON when the response is JSON, else text. */
  data: T;
}

/** The shared outbound HTTP client automations and services use (`this.http`). */
export interface HttpClient {
  request<T = unknown>(url: string, options?: HttpRequestOptions): Promise<HttpResponse<T>>;
  get<T = unknown>(url: string, headers?: Record<string, string>): Promise<HttpResponse<T>>;
  post<T = unknown>(url: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResponse<T>>;
  put<T = unknown>(url: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResponse<T>>;
  patch<T = unknown>(url: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResponse<T>>;
  del<T = unknown>(url: string, headers?: Record<string, string>): Promise<HttpResponse<T>>;
}

export const HTTP_CLIENT = Symbol("HttpClient");
