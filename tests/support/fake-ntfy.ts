/**
 * A fake ntfy server following https://docs.ntfy.sh/publish/ (publish as JSON to the root
 * URL) and its error shape ({ code, http, error, link }). Access control: when `token` or
 * `basic` is set, requests without them get ntfy's 401 / 403 answers.
 */
import { FakeHttpServer, sendJson } from "./fake-http-server.js";

export interface FakeNtfyOptions {
  token?: string;
  basic?: { username: string; password: string };
}

export interface PublishedMessage {
  topic: string;
  message: string;
  title?: string;
  priority?: number;
  tags?: string[];
  click?: string;
  icon?: string;
  actions?: unknown[];
  markdown?: boolean;
  /** ntfy 2.16+: messages with one sequence ID update one notification. */
  sequence_id?: string;
  authorization?: string;
}

export class FakeNtfy {
  readonly published: PublishedMessage[] = [];
  /** Answer the next N publishes with 500 (a server in trouble). */
  failNext = 0;

  private constructor(
    readonly server: FakeHttpServer,
    private readonly options: FakeNtfyOptions,
  ) {}

  static async start(options: FakeNtfyOptions = {}): Promise<FakeNtfy> {
    const fake: { current?: FakeNtfy } = {};
    const server = await FakeHttpServer.start((request, response) => fake.current?.handle(request, response));
    fake.current = new FakeNtfy(server, options);
    return fake.current;
  }

  get url(): string {
    return this.server.url;
  }

  private handle(
    request: Parameters<FakeHttpServer["handler"]>[0],
    response: Parameters<FakeHttpServer["handler"]>[1],
  ): void {
    if (request.method !== "POST" && request.method !== "PUT") {
      sendJson(response, 404, { code: 40401, http: 404, error: "page not found" });
      return;
    }
    const authorization = request.headers.authorization;
    const expected = this.options.token
      ? `Bearer ${this.options.token}`
      : this.options.basic
        ? `Basic ${Buffer.from(`${this.options.basic.username}:${this.options.basic.password}`).toString("base64")}`
        : undefined;
    if (expected && authorization === undefined) {
      sendJson(response, 403, {
        code: 40301,
        http: 403,
        error: "forbidden",
        link: "https://ntfy.sh/docs/publish/#authentication",
      });
      return;
    }
    if (expected && authorization !== expected) {
      sendJson(response, 401, {
        code: 40101,
        http: 401,
        error: "unauthorized",
        link: "https://ntfy.sh/docs/publish/#authentication",
      });
      return;
    }
    if (this.failNext > 0) {
      this.failNext--;
      sendJson(response, 500, { code: 50001, http: 500, error: "internal server error" });
      return;
    }
    const body = request.json as PublishedMessage | undefined;
    if (!body || typeof body.topic !== "string" || !/^[-_A-Za-z0-9]{1,64}$/.test(body.topic)) {
      sendJson(response, 400, { code: 40009, http: 400, error: "invalid request: topic invalid" });
      return;
    }
    if (body.priority !== undefined && (!Number.isInteger(body.priority) || body.priority < 1 || body.priority > 5)) {
      sendJson(response, 400, { code: 40007, http: 400, error: "invalid priority" });
      return;
    }
    this.published.push({ ...body, ...(authorization ? { authorization } : {}) });
    const id = `msg${this.published.length}`;
    sendJson(response, 200, {
      id,
      time: Math.floor(Date.now() / 1000),
      expires: Math.floor(Date.now() / 1000) + 43200,
      event: "message",
      ...body,
    });
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
