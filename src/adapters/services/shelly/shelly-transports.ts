/**
 * The two ways Hearth reaches a Shelly Gen 2+ device:
 * - HTTP RPC (https://shelly-api-docs.shelly.cloud/gen2/General/RPCProtocol): POST
 *   /rpc/<Method> with the params as JSON; the result comes back as the body, an error as
 *   `{ code, message }`; digest auth when the device has a password.
 * - MQTT RPC (https://shelly-api-docs.shelly.cloud/gen2/General/RPCChannels#mqtt): a
 *   request `{ id, src, method, params }` on `<prefix>/rpc`, the answer `{ id, src, dst,
 *   result | error }` on `<src>/rpc`.
 * Both reject with a ServiceCallError (service `relay`) and nothing else.
 */
import type { MqttServiceApi } from "../../../ports/mqtt-bus.js";
import { ServiceCallError } from "../../../domain/automation/service-errors.js";
import type { MqttPayload } from "../../../domain/automation/trigger.js";
import type { HttpClient, HttpResponse } from "../../../ports/http-client.js";
import type { Timer, TimerHandle } from "../../../ports/timer.js";
import { describeError } from "../health-tracker.js";
import { type DigestChallenge, digestAuthorization, parseDigestChallenge } from "./shelly-digest-auth.js";

export interface ShellyTransport {
  /** Runs one RPC method; `retry` allows one more attempt after a network failure (never for toggles). */
  call(method: string, params: Record<string, unknown>, options?: { retry?: boolean }): Promise<unknown>;
}

const rpcError = (device: string, method: string, body: unknown, status?: number): ServiceCallError => {
  const error = body as { code?: unknown; message?: unknown } | null;
  const detail =
    typeof error?.message === "string"
      ? `${error.message}${typeof error.code === "number" ? ` (code ${error.code})` : ""}`
      : `status ${status}`;
  return new ServiceCallError("relay", "SERVICE_REQUEST_FAILED", `Shelly "${device}" refused ${method}: ${detail}`);
};

export interface HttpTransportSettings {
  device: string;
  baseUrl: string;
  username: string;
  password?: string | undefined;
  timeoutMs: number;
}

export class ShellyHttpTransport implements ShellyTransport {
  private challenge: DigestChallenge | null = null;
  private nonceCount = 0;

  constructor(
    private readonly http: HttpClient,
    private readonly settings: HttpTransportSettings,
  ) {}

  async call(method: string, params: Record<string, unknown>, options: { retry?: boolean } = {}): Promise<unknown> {
    const uri = `/rpc/${method}`;
    let response = await this.send(uri, params, options.retry ?? false);
    if (response.status === 401) {
      const challenge = parseDigestChallenge(response.headers["www-authenticate"]);
      if (!this.settings.password || !challenge) {
        throw new ServiceCallError(
          "relay",
          "SERVICE_AUTH_FAILED",
          `Shelly "${this.settings.device}" asks for a password: set SHELLY_PASSWORD (or user:password@ in its URL)`,
        );
      }
      // A remembered nonce may have expired; the fresh challenge replaces it.
      this.challenge = challenge;
      this.nonceCount = 0;
      response = await this.send(uri, params, options.retry ?? false);
      if (response.status === 401) {
        this.challenge = null;
        throw new ServiceCallError(
          "relay",
          "SERVICE_AUTH_FAILED",
          `Shelly "${this.settings.device}" refused the password (digest auth)`,
        );
      }
    }
    if (!response.ok) throw rpcError(this.settings.device, method, response.data, response.status);
    return response.data;
  }

  private async send(uri: string, params: Record<string, unknown>, retry: boolean): Promise<HttpResponse> {
    const headers: Record<string, string> = {};
    if (this.challenge && this.settings.password) {
      this.nonceCount++;
      headers.authorization = digestAuthorization(this.challenge, {
        method: "POST",
        uri,
        username: this.settings.username,
        password: this.settings.password,
        nonceCount: this.nonceCount,
      });
    }
    const request = () =>
      this.http.request(`${this.settings.baseUrl}${uri}`, {
        method: "POST",
        body: params,
        headers,
        timeout: this.settings.timeoutMs,
      });
    try {
      // The HTTP client's own retries would also repeat RPC errors (Shelly answers them
      // with 5xx); only a request that never got an answer is worth repeating, and only
      // when repeating it cannot change the outcome.
      try {
        return await request();
      } catch (error) {
        if (!retry) throw error;
        return await request();
      }
    } catch (error) {
      throw new ServiceCallError(
        "relay",
        "SERVICE_UNREACHABLE",
        `Shelly "${this.settings.device}" at ${this.settings.baseUrl} unreachable: ${describeError(error)}`,
        { cause: error },
      );
    }
  }
}

interface PendingCall {
  device: string;
  method: string;
  resolve: (result: unknown) => void;
  reject: (error: ServiceCallError) => void;
  timeout: TimerHandle;
}

/**
 * MQTT RPC for every MQTT-connected device: one answer topic (`<src>/rpc`) for all of
 * them, answers matched to their requests by id.
 */
export class ShellyMqttRpc {
  private nextId = 1;
  private readonly pending = new Map<number, PendingCall>();
  private readonly answerTopic: string;
  private started = false;

  constructor(
    private readonly mqtt: MqttServiceApi,
    private readonly timer: Timer,
    /** The `src` of Hearth's requests; the devices answer on `<src>/rpc`. */
    readonly src: string,
    private readonly timeoutMs: number,
  ) {
    this.answerTopic = `${src}/rpc`;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.mqtt.subscribe(this.answerTopic, this.onAnswer);
  }

  stop(): void {
    if (!this.started) return;
    this.started = false;
    this.mqtt.unsubscribe(this.answerTopic, this.onAnswer);
    for (const [id, call] of this.pending) {
      this.timer.clearTimeout(call.timeout);
      call.reject(
        new ServiceCallError(
          "relay",
          "SERVICE_UNREACHABLE",
          `Shelly "${call.device}": ${call.method} cancelled, Hearth is stopping`,
        ),
      );
      this.pending.delete(id);
    }
  }

  transportFor(device: string, prefix: string): ShellyTransport {
    return { call: (method, params) => this.call(device, prefix, method, params) };
  }

  private call(device: string, prefix: string, method: string, params: Record<string, unknown>): Promise<unknown> {
    // A service used outside the engine (no onStart) still needs the answer topic.
    this.start();
    if (!this.mqtt.isConnected) {
      return Promise.reject(
        new ServiceCallError(
          "relay",
          "SERVICE_UNREACHABLE",
          `Shelly "${device}": the MQTT broker is not connected, ${method} not sent`,
        ),
      );
    }
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      const timeout = this.timer.setTimeout(() => {
        this.pending.delete(id);
        reject(
          new ServiceCallError(
            "relay",
            "SERVICE_UNREACHABLE",
            `Shelly "${device}" did not answer ${method} on ${prefix}/rpc within ${this.timeoutMs} ms (is it online and is MQTT RPC enabled?)`,
          ),
        );
      }, this.timeoutMs);
      this.pending.set(id, { device, method, resolve, reject, timeout });
      this.mqtt.publish(`${prefix}/rpc`, { id, src: this.src, method, params });
    });
  }

  private readonly onAnswer = (_topic: string, payload: MqttPayload): void => {
    const id = typeof payload.id === "number" ? payload.id : Number.NaN;
    const call = this.pending.get(id);
    if (!call) return;
    this.pending.delete(id);
    this.timer.clearTimeout(call.timeout);
    if (payload.error !== undefined) {
      call.reject(rpcError(call.device, call.method, payload.error));
      return;
    }
    call.resolve(payload.result ?? null);
  };
}
