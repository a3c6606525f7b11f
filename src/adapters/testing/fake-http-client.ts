import type { HttpClient, HttpMethod, HttpRequestOptions, HttpResponse } from "../../ports/http-client.js";

/** A request an automation made through `this.http`. */
export interface RecordedRequest {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** What a fake route answers: a response, or a function of the request building one. */
export type FakeHttpAnswer =
  | { status?: number; data?: unknown; headers?: Record<string, string> }
  | ((
      request: RecordedRequest,
    ) =>
      | { status?: number; data?: unknown; headers?: Record<string, string> }
      | Promise<{ status?: number; data?: unknown; headers?: Record<string, string> }>);

interface Route {
  method: HttpMethod | "*";
  url: string | RegExp;
  answer: FakeHttpAnswer;
}

/**
 * `this.http` for tests: records every request and answers from routes the test sets with
 * `on()`; a request no route matches gets a 404 (and is still recorded), never the network.
 */
export class FakeHttpClient implements HttpClient {
  readonly requests: RecordedRequest[] = [];
  private readonly routes: Route[] = [];

  /** Answers requests to `url` (exact text, or a RegExp) with `method` (or any, `"*"`). Later routes win. */
  on(method: HttpMethod | "*", url: string | RegExp, answer: FakeHttpAnswer): this {
    this.routes.unshift({ method, url, answer });
    return this;
  }

  async request<T = unknown>(url: string, options: HttpRequestOptions = {}): Promise<HttpResponse<T>> {
    const request: RecordedRequest = {
      method: options.method ?? "GET",
      url,
      headers: options.headers ?? {},
      body: options.body,
    };
    this.requests.push(request);
    const route = this.routes.find(
      (candidate) =>
        (candidate.method === "*" || candidate.method === request.method) &&
        (typeof candidate.url === "string" ? candidate.url === url : candidate.url.test(url)),
    );
    if (!route)
      return { status: 404, ok: false, headers: {}, data: `No fake response for ${request.method} ${url}` as T };
    const answer = typeof route.answer === "function" ? await route.answer(request) : route.answer;
    const status = answer.status ?? 200;
    return { status, ok: status >= 200 && status < 300, headers: answer.headers ?? {}, data: answer.data as T };
  }

  get<T = unknown>(url: string, headers?: Record<string, string>): Promise<HttpResponse<T>> {
    return this.request<T>(url, { method: "GET", ...(headers ? { headers } : {}) });
  }

  post<T = unknown>(url: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResponse<T>> {
    return this.request<T>(url, { method: "POST", body, ...(headers ? { headers } : {}) });
  }

  put<T = unknown>(url: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResponse<T>> {
    return this.request<T>(url, { method: "PUT", body, ...(headers ? { headers } : {}) });
  }

  patch<T = unknown>(url: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResponse<T>> {
    return this.request<T>(url, { method: "PATCH", body, ...(headers ? { headers } : {}) });
  }

  del<T = unknown>(url: string, headers?: Record<string, string>): Promise<HttpResponse<T>> {
    return this.request<T>(url, { method: "DELETE", ...(headers ? { headers } : {}) });
  }
}
